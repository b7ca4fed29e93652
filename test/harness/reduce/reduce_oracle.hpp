// The CPU oracle of the reduction family, written independently of the kernels' op functors.
//
// Integer results are exact (sums wrap modulo 2^bits; the widening sum is exact in long long);
// float max/min are exact (NaN propagates, -0.0 < +0.0); float sums are judged by
// judge_float_sum (float_sum.hpp) with the variant's declared accumulation depth. Every other
// operator is exact, folded left to right by its reference (numeric/ordered_fold.hpp).
#pragma once

#include "harness/numeric/float_sum.hpp"

#include <kernels/types.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace harness {

template <class Out>
struct ReduceExpectation {
  bool exact = true;  // false: a rounded float sum, judged through `facts`
  Out value{};        // the exact result when `exact`
  FloatSumFacts facts;
};

template <class In, class Out>
ReduceExpectation<Out> expect_reduce(kernels::Op op, std::span<const In> values);

// std::nullopt when `got` is an acceptable result, otherwise what is wrong with it; positive_zero:
// the variant declares +0.0 for a float sum of zeros (kernels::ZeroSum::positive).
template <class Out>
std::optional<std::string> judge_reduce(const ReduceExpectation<Out>& expected, Out got,
                                        std::uint64_t accumulation_depth, bool positive_zero = false);

// A value as the reports print it: decimal with all digits, and its bit pattern for floats.
template <class T>
std::string show_value(T value);

}  // namespace harness
