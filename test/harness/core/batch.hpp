// Runs cases of one variant on the device, with guard bands, and judges them against the oracle.
// One runner for every family: what differs (the output layout, the call, the oracle) is the
// family's part, `Family` (harness/<family>/<family>_family.hpp); the rest is here.
//
// A batch holds one element type and one mode (the op of a reduction, the kind of a scan, the
// form of a sort). Its inputs are packed into one upload with poison between them, its outputs
// are segments between guard bands, every run gets a poisoned workspace slice with canaries, and
// every run is queued on one stream before a single synchronisation, so thousands of small
// cases cost little more than their launches. kcheck runs one case through the same code.
#pragma once

#include "harness/core/batch_report.hpp"
#include "harness/core/case.hpp"
#include "harness/core/test_input.hpp"

#include <kernels/registry.hpp>

#include <cstddef>
#include <vector>

namespace harness {

// One run of a batch: which input, with which block size, in place or not.
struct BatchRun {
  std::size_t input;
  int block_size;
  bool in_place;
};

template <class Family>
class Batch {
 public:
  using In = typename Family::In;
  using Mode = typename Family::Mode;

  Batch(const kernels::VariantInfo& variant, Mode mode) : variant_(variant), mode_(mode) {}

  // The input must outlive run().
  std::size_t add_input(const TestInput<In>& input) {
    inputs_.push_back(&input);
    return inputs_.size() - 1;
  }
  // A run must lie inside the variant's contract (a std::logic_error otherwise: the test is
  // wrong, not the kernel).
  void add_run(std::size_t input, int block_size, bool in_place = false);
  std::size_t runs() const { return runs_.size(); }

  BatchReport run(bool describe_passes = false) const;

  Case case_of(std::size_t run) const;

 private:
  const kernels::VariantInfo& variant_;
  Mode mode_;
  std::vector<const TestInput<In>*> inputs_;
  std::vector<BatchRun> runs_;
};

}  // namespace harness
