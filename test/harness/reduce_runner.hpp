// Runs reduction cases on the device with guard bands and judges them against the oracle.
//
// A batch shares one upload: its inputs are packed with poison between them, its outputs are
// slots between canaries, and every run is queued on one stream before a single
// synchronisation, so thousands of small cases cost little more than their launches. kcheck runs
// a single case through the same code.
#pragma once

#include "batch_report.hpp"
#include "reduce_case.hpp"
#include "test_input.hpp"

#include <kernels/registry.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace harness {

template <class In, class Out>
class ReduceBatch {
 public:
  ReduceBatch(const kernels::VariantInfo& variant, kernels::Op op) : variant_(variant), op_(op) {}

  // The input must outlive run().
  std::size_t add_input(const TestInput<In>& input);
  void add_run(std::size_t input, int block_size) { runs_.push_back({input, block_size}); }

  BatchReport run(bool describe_passes = false) const;

 private:
  struct Run {
    std::size_t input;
    int block_size;
  };
  ReduceCase case_of(const Run& run) const;

  const kernels::VariantInfo& variant_;
  kernels::Op op_;
  std::vector<const TestInput<In>*> inputs_;
  std::vector<Run> runs_;
};

}  // namespace harness
