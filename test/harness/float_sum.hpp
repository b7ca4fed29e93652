// What the oracles know about an exact float sum, and how they judge a computed one.
//
// A computed sum is judged against an extended-precision reference with Higham's bound
// |got - exact| <= gamma(d) * sum|x|, gamma(d) = d*u / (1 - d*u), u the unit roundoff of the
// result type and d the variant's accumulation depth (the most roundings any term undergoes).
// IEEE special values are exact: NaN in (or +inf and -inf together) gives NaN, one sign of
// infinity gives that infinity, a sum of zeros is -0.0 only if every term is -0.0 and the empty
// sum is +0.0. Where sum|x| reaches the largest finite value, evaluation orders may overflow:
// then the infinity of the terms' sign (or, with both signs, either infinity or NaN) passes too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace harness {

class FloatSumFacts {
 public:
  // Adds one term (any float or double).
  void add(long double x);

  std::uint64_t count = 0;
  long double reference = 0;     // the finite terms' sum, compensated (Neumaier) in long double
  long double compensation = 0;
  long double abs_sum = 0;       // sum of |x| over the finite terms
  bool has_nan = false;
  bool has_pos_inf = false;
  bool has_neg_inf = false;
  bool has_positive = false;     // finite terms > 0
  bool has_negative = false;     // finite terms < 0
  bool all_zero = true;          // every term is +-0.0 (true for no terms)
  bool all_negative_zero = true; // every term is -0.0 (meaningful when count > 0)

  long double exact() const { return reference + compensation; }
  // A bound on |exact() - the true sum|.
  long double reference_error() const;
};

// std::nullopt when `got` is an acceptable sum of the terms behind `facts`, otherwise what is
// wrong. Out is float or double.
template <class Out>
std::optional<std::string> judge_float_sum(const FloatSumFacts& facts, Out got, std::uint64_t accumulation_depth);

}  // namespace harness
