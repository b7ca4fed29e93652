// What the oracles know about an exact float sum, and how they judge a computed one.
//
// A computed sum is judged against a double-double reference with Higham's bound
// |got - exact| <= gamma(d) * sum|x|, gamma(d) = d*u / (1 - d*u), u the unit roundoff of the
// result type and d the variant's accumulation depth (the most roundings any term undergoes).
// IEEE special values are exact: NaN in (or +inf and -inf together) gives NaN, one sign of
// infinity gives that infinity, a sum of zeros is -0.0 only if every term is -0.0 and the empty
// sum is +0.0. Where sum|x| reaches the largest finite value, evaluation orders may overflow:
// then the infinity of the terms' sign (or, with both signs, either infinity or NaN) passes too.
#pragma once

#include "harness/numeric/element_traits.hpp"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

namespace harness {

class FloatSumFacts {
 public:
  // Adds one term (a float or a double). Inline and branch-light: the scan oracle adds every
  // input value of every run.
  void add(double x) {
    ++count;
    if (!std::isfinite(x)) {
      has_nan |= std::isnan(x);
      has_pos_inf |= x > 0;
      has_neg_inf |= x < 0;
      all_zero = all_negative_zero = false;
      return;
    }
    if (x != 0) {
      all_zero = all_negative_zero = false;
      has_positive |= x > 0;
      has_negative |= x < 0;
    } else {
      all_negative_zero &= std::signbit(x);
    }
    if (extended) return add_extended(x);
    const double sum = high + x;
    const double magnitudes = abs_sum + std::fabs(x);
    if (!std::isfinite(sum) || !std::isfinite(magnitudes)) {
      switch_to_extended();
      return add_extended(x);
    }
    // Knuth's TwoSum: high + x == sum + error exactly; the errors accumulate in `low`.
    const double x_part = sum - high;
    low += (high - (sum - x_part)) + (x - x_part);
    high = sum;
    abs_sum = magnitudes;
  }

  std::uint64_t count = 0;
  // The finite terms' sum: high + low (double-double) while it fits a double; past that (only
  // doubles near the largest finite value get there), extended_high + extended_low in long
  // double, which has the range.
  double high = 0, low = 0;
  double abs_sum = 0;  // sum of |x| over the finite terms (rounded up in use)
  bool extended = false;
  long double extended_high = 0, extended_low = 0, extended_abs_sum = 0;
  bool has_nan = false;
  bool has_pos_inf = false;
  bool has_neg_inf = false;
  bool has_positive = false;      // finite terms > 0
  bool has_negative = false;      // finite terms < 0
  bool all_zero = true;           // every term is +-0.0 (true for no terms)
  bool all_negative_zero = true;  // every term is -0.0 (meaningful when count > 0)

  long double exact() const { return extended ? extended_high + extended_low : static_cast<long double>(high) + low; }
  // sum|x| rounded up past the error of its own accumulation.
  long double abs_bound() const {
    return (extended ? extended_abs_sum : abs_sum) * (1 + static_cast<long double>(count) * 0x1p-52L);
  }
  // A bound on |exact() - the true sum|: the errors of the cascaded TwoSum, in double or in
  // long double.
  long double reference_error() const {
    return (extended ? 0x1p-62L : 0x1p-63L + 0x1p-104L * static_cast<long double>(count)) * abs_bound();
  }
  // Whether a judgement needs the special rules (NaN, infinities, zeros) rather than the bound.
  bool special() const { return has_nan || has_pos_inf || has_neg_inf || all_zero; }

 private:
  void switch_to_extended() {
    extended = true;
    extended_high = high;
    extended_low = low;
    extended_abs_sum = abs_sum;
  }
  void add_extended(long double x) {
    const long double sum = extended_high + x;
    const long double x_part = sum - extended_high;
    extended_low += (extended_high - (sum - x_part)) + (x - x_part);
    extended_high = sum;
    extended_abs_sum += std::fabs(x);
  }
};

// Judges many sums of one variant and accumulation depth, with the bound's constants computed
// once: accepts() is the fast path for finite, non-special sums; judge() says what is wrong.
template <class Out>
class FloatSumJudge {
 public:
  // positive_zero: the variant declares +0.0 for every sum of zeros (kernels::ZeroSum::positive).
  explicit FloatSumJudge(std::uint64_t accumulation_depth, bool positive_zero = false);
  // Never looser than judge(): the bound is shrunk by more than the rounding of this double
  // arithmetic, and what it does not accept judge() decides exactly. A finite result is judged
  // by the bound alone, also where the terms may overflow (that only lets infinities and NaN
  // pass) and where the bound is infinite (a depth of 1/u or more: long half and bfloat16 scans),
  // so that such outputs take this path too rather than judge()'s long-double one.
  bool accepts(const FloatSumFacts& facts, Out got) const {
    if (facts.special() || facts.extended || !cuda::std::isfinite(got)) return false;
    const double error = std::fabs((as_double(got) - facts.high) - facts.low);
    const double abs_sum = facts.abs_sum * (1 + static_cast<double>(facts.count) * 0x1p-52);
    return error <= gamma_ * abs_sum * (1 - 0x1p-48);
  }
  std::optional<std::string> judge(const FloatSumFacts& facts, Out got) const;
  // Whether judge() would find `got` wrong, without formatting what is wrong.
  bool wrong(const FloatSumFacts& facts, Out got) const;
  // The bound's factor, gamma(d) for the accumulation depth d, as a double (the device judge's).
  double bound_factor() const { return gamma_; }

 private:
  std::uint64_t depth_;
  bool positive_zero_;
  double gamma_;
};

// std::nullopt when `got` is an acceptable sum of the terms behind `facts`, otherwise what is
// wrong. Out is a float type (HARNESS_FOR_EACH_FLOAT).
template <class Out>
std::optional<std::string> judge_float_sum(const FloatSumFacts& facts, Out got, std::uint64_t accumulation_depth,
                                           bool positive_zero = false);

}  // namespace harness
