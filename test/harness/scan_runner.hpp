// Runs scan cases on the device with guard bands and judges every output against the oracle,
// as the reduction runner does (reduce_runner.hpp): inputs packed between poison bands, each
// run's output between bands of its own, workspaces with canaries, one synchronisation per
// batch. An in-place run gets its own copy of the input in its output slot and scans it there.
#pragma once

#include "batch_report.hpp"
#include "scan_case.hpp"
#include "test_input.hpp"

#include <kernels/registry.hpp>

#include <vector>

namespace harness {

template <class T>
class ScanBatch {
 public:
  ScanBatch(const kernels::VariantInfo& variant, kernels::ScanKind kind) : variant_(variant), kind_(kind) {}

  // The input must outlive run().
  std::size_t add_input(const TestInput<T>& input);
  void add_run(std::size_t input, int block_size, bool in_place = false) {
    runs_.push_back({input, block_size, in_place});
  }
  std::size_t runs() const { return runs_.size(); }

  BatchReport run(bool describe_passes = false) const;

 private:
  struct Run {
    std::size_t input;
    int block_size;
    bool in_place;
  };
  ScanCase case_of(const Run& run) const;

  const kernels::VariantInfo& variant_;
  kernels::ScanKind kind_;
  std::vector<const TestInput<T>*> inputs_;
  std::vector<Run> runs_;
};

}  // namespace harness
