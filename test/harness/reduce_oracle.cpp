#include "reduce_oracle.hpp"

#include <bit>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <type_traits>

namespace harness {
namespace {

using kernels::Op;

// Pairwise sums in long double: error O(log n * 2^-64 * sum|x|).
template <class In>
long double pairwise_sum(std::span<const In> values, bool absolute) {
  if (values.size() <= 8) {
    long double sum = 0;
    for (In x : values) {
      if (std::isfinite(x)) sum += absolute ? std::fabs(static_cast<long double>(x)) : static_cast<long double>(x);
    }
    return sum;
  }
  const std::size_t half = values.size() / 2;
  return pairwise_sum(values.first(half), absolute) + pairwise_sum(values.subspan(half), absolute);
}

long double gamma(long double depth, long double unit_roundoff) {
  const long double du = depth * unit_roundoff;
  return du >= 1 ? std::numeric_limits<long double>::infinity() : du / (1 - du);
}

template <class T>
bool same_bits(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);  // any NaN payload
    return std::signbit(a) == std::signbit(b) && a == b;
  } else {
    return a == b;
  }
}

template <class In, class Out>
Out exact_fold(Op op, std::span<const In> values) {
  if constexpr (std::is_integral_v<Out>) {
    using U = std::make_unsigned_t<Out>;
    if (op == Op::sum) {
      U sum = 0;
      for (In x : values) sum = static_cast<U>(sum + static_cast<U>(static_cast<Out>(x)));
      return static_cast<Out>(sum);
    }
    Out best = op == Op::max ? std::numeric_limits<Out>::lowest() : std::numeric_limits<Out>::max();
    for (In x : values) best = op == Op::max ? std::max<Out>(best, x) : std::min<Out>(best, x);
    return best;
  } else {
    if (values.empty()) return op == Op::max ? std::numeric_limits<Out>::lowest() : std::numeric_limits<Out>::max();
    Out best = values[0];
    for (In x : values) {
      if (std::isnan(x)) return x;
      const bool better = op == Op::max ? (x > best || (x == best && std::signbit(best) && !std::signbit(x)))
                                        : (x < best || (x == best && !std::signbit(best) && std::signbit(x)));
      if (better) best = x;
    }
    return best;
  }
}

template <class In>
FloatSumFacts float_sum_facts(std::span<const In> values) {
  FloatSumFacts facts;
  for (In x : values) {
    facts.has_nan |= std::isnan(x);
    facts.has_pos_inf |= std::isinf(x) && x > 0;
    facts.has_neg_inf |= std::isinf(x) && x < 0;
    facts.has_positive |= std::isfinite(x) && x > 0;
    facts.has_negative |= std::isfinite(x) && x < 0;
    facts.all_zero &= x == 0;
    facts.all_negative_zero &= x == 0 && std::signbit(x);
  }
  facts.reference = pairwise_sum(values, false);
  facts.abs_sum = pairwise_sum(values, true);
  const long double levels = std::ceil(std::log2(static_cast<long double>(values.size()) + 1)) + 1;
  facts.reference_error = gamma(levels, std::ldexp(1.0L, -std::numeric_limits<long double>::digits)) * facts.abs_sum;
  return facts;
}

template <class Out>
std::optional<std::string> judge_float_sum(const FloatSumFacts& facts, Out got, std::uint64_t depth) {
  auto fail = [&](const std::string& expected) {
    return "expected " + expected + ", got " + show_value(got);
  };
  if (facts.has_nan || (facts.has_pos_inf && facts.has_neg_inf)) {
    return std::isnan(got) ? std::nullopt : std::optional(fail("NaN (NaN or +inf and -inf in the input)"));
  }
  if (facts.has_pos_inf || facts.has_neg_inf) {
    const Out inf = facts.has_pos_inf ? std::numeric_limits<Out>::infinity() : -std::numeric_limits<Out>::infinity();
    return same_bits(got, inf) ? std::nullopt : std::optional(fail(show_value(inf)));
  }
  if (facts.all_zero) {
    const Out zero = facts.all_negative_zero ? -Out(0) : Out(0);
    return same_bits(got, zero) ? std::nullopt : std::optional(fail(show_value(zero) + " (a sum of zeros)"));
  }
  const long double u = std::ldexp(1.0L, -std::numeric_limits<Out>::digits);
  const long double g = gamma(static_cast<long double>(depth), u);
  const long double bound = g * facts.abs_sum + facts.reference_error;
  // Partial sums stay below sum|x| * (1 + gamma); only beyond the largest finite value can the
  // order of evaluation overflow, to the sign of the terms (or, with both signs, to NaN).
  const bool may_overflow = facts.abs_sum * (1 + g) >= static_cast<long double>(std::numeric_limits<Out>::max());
  const bool mixed_signs = facts.has_positive && facts.has_negative;
  if (may_overflow && std::isnan(got) && mixed_signs) return std::nullopt;
  if (may_overflow && std::isinf(got) && (mixed_signs || (got > 0) == facts.has_positive)) return std::nullopt;
  const long double error = std::fabs(static_cast<long double>(got) - facts.reference);
  if (std::isfinite(got) && error <= bound) return std::nullopt;
  std::ostringstream expected;
  expected << std::setprecision(std::numeric_limits<long double>::max_digits10) << facts.reference << " +- "
           << std::setprecision(3) << bound << " (accumulation depth " << depth << ", sum|x| " << facts.abs_sum
           << (may_overflow ? ", may overflow" : "") << ")";
  if (std::isfinite(got)) expected << "; off by " << error;
  return fail(expected.str());
}

}  // namespace

template <class T>
std::string show_value(T value) {
  std::ostringstream text;
  if constexpr (std::is_floating_point_v<T>) {
    using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    text << std::setprecision(std::numeric_limits<T>::max_digits10) << value << " (0x" << std::hex
         << std::setw(sizeof(T) * 2) << std::setfill('0') << std::bit_cast<Bits>(value) << ')';
  } else {
    text << +value;
  }
  return text.str();
}

template <class In, class Out>
ReduceExpectation<Out> expect_reduce(Op op, std::span<const In> values) {
  ReduceExpectation<Out> expectation;
  if constexpr (std::is_floating_point_v<Out>) {
    if (op == Op::sum && !values.empty()) {
      expectation.exact = false;
      expectation.facts = float_sum_facts(values);
      return expectation;
    }
    if (op == Op::sum) return expectation;  // +0.0: the empty sum
  }
  expectation.value = exact_fold<In, Out>(op, values);
  return expectation;
}

template <class Out>
std::optional<std::string> judge_reduce(const ReduceExpectation<Out>& expected, Out got,
                                        std::uint64_t accumulation_depth) {
  if (!expected.exact) {
    if constexpr (std::is_floating_point_v<Out>) return judge_float_sum(expected.facts, got, accumulation_depth);
  }
  if (same_bits(got, expected.value)) return std::nullopt;
  return "expected " + show_value(expected.value) + ", got " + show_value(got);
}

#define HARNESS_INSTANTIATE_REDUCE_ORACLE(In, Out)                                                        \
  template ReduceExpectation<Out> expect_reduce<In, Out>(Op, std::span<const In>);
HARNESS_INSTANTIATE_REDUCE_ORACLE(int, int)
HARNESS_INSTANTIATE_REDUCE_ORACLE(unsigned, unsigned)
HARNESS_INSTANTIATE_REDUCE_ORACLE(long long, long long)
HARNESS_INSTANTIATE_REDUCE_ORACLE(float, float)
HARNESS_INSTANTIATE_REDUCE_ORACLE(double, double)
HARNESS_INSTANTIATE_REDUCE_ORACLE(int, long long)
#undef HARNESS_INSTANTIATE_REDUCE_ORACLE

template std::optional<std::string> judge_reduce<int>(const ReduceExpectation<int>&, int, std::uint64_t);
template std::optional<std::string> judge_reduce<unsigned>(const ReduceExpectation<unsigned>&, unsigned, std::uint64_t);
template std::optional<std::string> judge_reduce<long long>(const ReduceExpectation<long long>&, long long, std::uint64_t);
template std::optional<std::string> judge_reduce<float>(const ReduceExpectation<float>&, float, std::uint64_t);
template std::optional<std::string> judge_reduce<double>(const ReduceExpectation<double>&, double, std::uint64_t);

template std::string show_value<int>(int);
template std::string show_value<unsigned>(unsigned);
template std::string show_value<long long>(long long);
template std::string show_value<float>(float);
template std::string show_value<double>(double);

}  // namespace harness
