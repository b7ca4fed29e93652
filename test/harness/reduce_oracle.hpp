// The CPU oracle of the reduction family, written independently of the kernels' op functors.
//
// Integer results are exact (sums wrap modulo 2^bits; the widening sum is exact in long long);
// float max/min are exact (NaN propagates, -0.0 < +0.0). A float sum is judged against an
// extended-precision reference with the bound |got - exact| <= gamma(d) * sum|x| (Higham's
// gamma(d) = d*u / (1 - d*u), u the unit roundoff), where d is the variant's declared
// accumulation depth: the most roundings any term undergoes in that variant's order.
#pragma once

#include <kernels/types.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace harness {

// What is known about the exact sum of floats.
struct FloatSumFacts {
  long double reference = 0;        // the finite terms' sum, pairwise in extended precision
  long double reference_error = 0;  // a bound on the reference's own rounding error
  long double abs_sum = 0;          // sum of |x| over the finite terms
  bool has_nan = false;
  bool has_pos_inf = false;
  bool has_neg_inf = false;
  bool has_positive = false;        // finite terms > 0
  bool has_negative = false;        // finite terms < 0
  bool all_zero = true;             // every term is +-0.0
  bool all_negative_zero = true;    // every term is -0.0
};

template <class Out>
struct ReduceExpectation {
  bool exact = true;  // false: a rounded float sum, judged through `facts`
  Out value{};        // the exact result when `exact`
  FloatSumFacts facts;
};

template <class In, class Out>
ReduceExpectation<Out> expect_reduce(kernels::Op op, std::span<const In> values);

// std::nullopt when `got` is an acceptable result, otherwise what is wrong with it.
template <class Out>
std::optional<std::string> judge_reduce(const ReduceExpectation<Out>& expected, Out got,
                                        std::uint64_t accumulation_depth);

// A value as the reports print it: decimal with all digits, and its bit pattern for floats.
template <class T>
std::string show_value(T value);

}  // namespace harness
