// The device judge of integer scans: output i must be op(output i-1, input i) (inclusive; the
// identity before the first) or op(output i-1, input i-1) (exclusive; the identity first). By
// induction that holds at every i exactly when the output is the prefix fold, so the check is
// the oracle's (harness/scan/scan_oracle.hpp), one position at a time, and the first position
// failing it is the first wrong output. Floats stay with the oracle: their bound is a property of
// the whole prefix, not of a step.
//
// The sum is stated here (wrapping, as the oracle's); every other op folds by its
// descriptor's combine(), which the kernels call too: the CPU oracle folds by reference() and
// judges a sampled run of every batch (runner/device_judgement.hpp), which is what catches a
// combine() that drifts.
#pragma once

#include "harness/input/random_bits.hpp"
#include "harness/runner/device_verdict.hpp"

#include <kernels/operators.hpp>
#include <kernels/types.hpp>

#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace harness {

template <class T>
struct WrappingSum {
  HARNESS_HOST_DEVICE T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  }
  HARNESS_HOST_DEVICE static T identity() { return T(0); }
};
template <class T, class Descriptor>
struct Combined {
  HARNESS_HOST_DEVICE T operator()(T a, T b) const { return Descriptor::template combine<T>(a, b); }
  HARNESS_HOST_DEVICE static T identity() { return Descriptor::template identity<T>(); }
};

// Calls use(step) with the step of `op` (a scan's: sum or an op with a combine()) over the
// integer type T.
template <class T, class Use>
void with_scan_step(kernels::Op op, Use&& use) {
  static_assert(std::is_integral_v<T>, "the device judge takes integer scans");
  if (op == kernels::Op::sum) return use(WrappingSum<T>{});
  bool found = false;
  const auto visit = [&]<class Descriptor>(kernels::Op key) {
    if constexpr (Descriptor::template kTakes<T> && requires { Descriptor::template combine<T>(T{}, T{}); }) {
      if (op == key) found = true, use(Combined<T, Descriptor>{});
    }
  };
#define HARNESS_VISIT_STEP(key, descriptor) visit.template operator()<descriptor>(kernels::Op::key);
  KERNELS_FOR_EACH_OP(HARNESS_VISIT_STEP)
#undef HARNESS_VISIT_STEP
  if (!found) throw std::logic_error("the device judge has no step of op " + std::string(kernels::name(op)));
}

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

}  // namespace harness
