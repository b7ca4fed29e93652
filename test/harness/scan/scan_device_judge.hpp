// The device judge of integer scans: output i must be op(output i-1, input i) (inclusive; the
// identity before the first) or op(output i-1, input i-1) (exclusive; the identity first). By
// induction that holds at every i exactly when the output is the prefix fold, so the check is
// the oracle's (harness/scan/scan_oracle.hpp), one position at a time, and the first position
// failing it is the first wrong output. The step of each op is the device judges' exact step
// (numeric/exact_step.hpp).
//
// The device judge of float sums: each output within the oracle's bound of its prefix
// (numeric/prefix_sum_facts.hpp), the facts of the prefix made of those of the chunks before it
// and of the positions before it in its chunk.
#pragma once

#include "harness/input/random_bits.hpp"
#include "harness/numeric/exact_step.hpp"
#include "harness/runner/device_verdict.hpp"

#include <kernels/types.hpp>

#include <vector>

namespace harness {

// Whether output i of a scan holds the check above.
template <class T, class Step>
HARNESS_HOST_DEVICE bool scan_output_holds(Step step, bool inclusive, const T* in, const T* out, std::uint64_t i) {
  const T before = i == 0 ? Step::identity() : out[i - 1];
  if (inclusive) return out[i] == step(before, in[i]);
  return out[i] == (i == 0 ? Step::identity() : step(before, in[i - 1]));
}

template <class T>
struct ScanJudgeRun {
  const T* in;
  const T* out;
  std::uint64_t n;
};

// One verdict per run, from one launch on the tests' stream. T is an integer scan type.
template <class T>
std::vector<DeviceVerdict> judge_scans_on_device(kernels::ScanKind kind, kernels::Op op,
                                                 const std::vector<ScanJudgeRun<T>>& runs);

template <class T>
struct FloatScanJudgeRun {
  const T* in;
  const T* out;
  std::uint64_t n;
  double gamma;                // the bound's factor for the run's accumulation depth (FloatSumJudge::bound_factor)
  bool positive_zero = false;  // the variant declares +0.0 for a sum of zeros (kernels::ZeroSum::positive)
};

// One verdict per run of a float sum scan, from three launches on the tests' stream; a run whose
// sums leave the doubles is undecided (the oracle judges it).
template <class T>
std::vector<DeviceVerdict> judge_float_scans_on_device(kernels::ScanKind kind,
                                                       const std::vector<FloatScanJudgeRun<T>>& runs);

}  // namespace harness
