// What the device judge of float scans (scan/scan_device_judge) knows about a prefix of the
// input, and its verdict on one output: the host oracle's FloatSumFacts and judge_float_sum
// (float_sum.hpp) restated for a parallel prefix. The facts combine, so that a prefix is made
// of the chunks before it; the sum of the finite terms is a double-double whose every step
// (Knuth's TwoSum, then the low parts added) errs by less than 2^-104 of the magnitudes it adds,
// the bound the oracle's reference error already allows per term. Where a double-double would
// overflow (doubles near the largest finite value, which the oracle sums in long double), the
// facts say so and the oracle judges that run instead.
//
// The verdict is the oracle's rules in double arithmetic: the same bound, the same special
// values. The two judges can differ only on an output within a few units in the last place of
// the bound, and the oracle judges a sampled run of every batch again to show that they agree
// (runner/device_judgement.hpp).
#pragma once

#include "harness/input/random_bits.hpp"

#include <cuda/std/cmath>

#include <cstdint>

namespace harness {

struct PrefixSumFacts {
  enum Flag : std::uint64_t {
    kNaN = 1,
    kPositiveInfinity = 2,
    kNegativeInfinity = 4,
    kPositive = 8,              // a finite term > 0
    kNegative = 16,             // a finite term < 0
    kAllZero = 32,              // every term is +-0.0 (true for no terms)
    kAllNegativeZero = 64,      // every term is -0.0
    kBeyondDoubleDouble = 128,  // the sum or sum|x| left the doubles: the oracle judges
  };

  double high = 0, low = 0;  // the finite terms' sum, high + low
  double abs_sum = 0;        // sum |x| over the finite terms
  std::uint64_t count = 0;
  // 64 bits, so that the struct has no padding: a fold copied to the host would carry padding
  // bytes never written, which compute-sanitizer's initcheck reports.
  std::uint64_t flags = kAllZero | kAllNegativeZero;

  // Adds one term after the others, as FloatSumFacts::add does.
  HARNESS_HOST_DEVICE void add(double x) {
    ++count;
    if (!cuda::std::isfinite(x)) {
      flags |= cuda::std::isnan(x) ? kNaN : (x > 0 ? kPositiveInfinity : kNegativeInfinity);
      flags &= ~(kAllZero | kAllNegativeZero);
      return;
    }
    if (x != 0) {
      flags &= ~(kAllZero | kAllNegativeZero);
      flags |= x > 0 ? kPositive : kNegative;
    } else if (!cuda::std::signbit(x)) {
      flags &= ~kAllNegativeZero;
    }
    const double sum = high + x;
    const double x_part = sum - high;
    low += (high - (sum - x_part)) + (x - x_part);
    high = sum;
    abs_sum += cuda::std::fabs(x);
    if (!cuda::std::isfinite(high) || !cuda::std::isfinite(abs_sum)) flags |= kBeyondDoubleDouble;
  }

  // The facts of `before` followed by `after`.
  HARNESS_HOST_DEVICE static PrefixSumFacts combine(const PrefixSumFacts& before, const PrefixSumFacts& after) {
    PrefixSumFacts both;
    const double sum = before.high + after.high;
    const double after_part = sum - before.high;
    both.low = ((before.high - (sum - after_part)) + (after.high - after_part)) + (before.low + after.low);
    both.high = sum;
    both.abs_sum = before.abs_sum + after.abs_sum;
    both.count = before.count + after.count;
    constexpr std::uint64_t kAll = kAllZero | kAllNegativeZero;
    both.flags = ((before.flags | after.flags) & ~kAll) | (before.flags & after.flags & kAll);
    if (!cuda::std::isfinite(both.high) || !cuda::std::isfinite(both.abs_sum)) both.flags |= kBeyondDoubleDouble;
    return both;
  }

  HARNESS_HOST_DEVICE bool judged_by_oracle() const { return (flags & kBeyondDoubleDouble) != 0; }
};

// Whether `got` (an output of T, as a double: exact for every float type) is an acceptable sum of
// the prefix behind `facts`, by judge_float_sum's rules; gamma is the bound's factor for the
// variant's accumulation depth and T's unit roundoff, max_finite T's largest finite value;
// positive_zero: the variant declares +0.0 for a sum of zeros. Meaningless where facts.judged_by_oracle().
HARNESS_HOST_DEVICE inline bool prefix_sum_acceptable(const PrefixSumFacts& facts, double got, double gamma,
                                                      double max_finite, bool positive_zero = false) {
  using F = PrefixSumFacts;
  const bool nan = (facts.flags & F::kNaN) != 0;
  const bool plus_infinity = (facts.flags & F::kPositiveInfinity) != 0;
  const bool minus_infinity = (facts.flags & F::kNegativeInfinity) != 0;
  if (nan || (plus_infinity && minus_infinity)) return cuda::std::isnan(got);
  if (plus_infinity) return cuda::std::isinf(got) && got > 0;
  if (minus_infinity) return cuda::std::isinf(got) && got < 0;
  if (facts.flags & F::kAllZero) {
    const bool negative_zero = !positive_zero && facts.count > 0 && (facts.flags & F::kAllNegativeZero) != 0;
    return got == 0 && cuda::std::signbit(got) == negative_zero;
  }
  // float_sum.hpp's abs_bound() and reference_error().
  const double abs_bound = facts.abs_sum * (1 + static_cast<double>(facts.count) * 0x1p-52);  // inf near DBL_MAX
  // With gamma 0 (no rounding) the bound is the reference's error alone: 0 * inf would be NaN, rejecting all.
  const double reference = (0x1p-63 + 0x1p-104 * static_cast<double>(facts.count)) *
                           (cuda::std::isfinite(abs_bound) ? abs_bound : facts.abs_sum);
  const double bound = (gamma == 0 ? 0.0 : gamma * abs_bound) + reference;
  const bool may_overflow = abs_bound * (1 + gamma) >= max_finite;
  const bool positive = (facts.flags & F::kPositive) != 0;
  const bool mixed_signs = positive && (facts.flags & F::kNegative) != 0;
  if (may_overflow && cuda::std::isnan(got) && mixed_signs) return true;
  if (may_overflow && cuda::std::isinf(got) && (mixed_signs || (got > 0) == positive)) return true;
  return cuda::std::isfinite(got) && cuda::std::fabs((got - facts.high) - facts.low) <= bound;
}

}  // namespace harness
