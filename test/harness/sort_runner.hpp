// Runs sort cases on the device with guard bands and judges every output against the oracle,
// as the other families' runners do: keys (and, for the key-value form, values holding each
// key's original index) packed between poison bands, each run's outputs between bands of their
// own, workspaces with canaries, one synchronisation per batch.
#pragma once

#include "batch_report.hpp"
#include "sort_case.hpp"
#include "test_input.hpp"

#include <kernels/registry.hpp>

#include <vector>

namespace harness {

template <class K>
class SortBatch {
 public:
  SortBatch(const kernels::VariantInfo& variant, kernels::SortForm form) : variant_(variant), form_(form) {}

  // The input must outlive run().
  std::size_t add_input(const TestInput<K>& input);
  void add_run(std::size_t input, int block_size) { runs_.push_back({input, block_size}); }

  BatchReport run(bool describe_passes = false) const;

 private:
  struct Run {
    std::size_t input;
    int block_size;
  };
  SortCase case_of(const Run& run) const;

  const kernels::VariantInfo& variant_;
  kernels::SortForm form_;
  std::vector<const TestInput<K>*> inputs_;
  std::vector<Run> runs_;
};

}  // namespace harness
