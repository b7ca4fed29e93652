#include "harness/reduce/reduce_oracle.hpp"

#include "harness/numeric/ordered_fold.hpp"

#include <bit>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <type_traits>

namespace harness {
namespace {

using kernels::Op;

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
  if (folds_by_reference(op)) {
    if constexpr (std::is_same_v<In, Out>) {
      Out folded = reference_identity<Out>(op);
      for (In x : values) folded = reference_step<Out>(op, folded, x);
      return folded;
    }
  }
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
      for (In x : values) expectation.facts.add(x);
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

#define HARNESS_INSTANTIATE_REDUCE_ORACLE(In, Out) \
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
template std::optional<std::string> judge_reduce<long long>(const ReduceExpectation<long long>&, long long,
                                                            std::uint64_t);
template std::optional<std::string> judge_reduce<float>(const ReduceExpectation<float>&, float, std::uint64_t);
template std::optional<std::string> judge_reduce<double>(const ReduceExpectation<double>&, double, std::uint64_t);

template std::string show_value<int>(int);
template std::string show_value<unsigned>(unsigned);
template std::string show_value<long long>(long long);
template std::string show_value<float>(float);
template std::string show_value<double>(double);

}  // namespace harness
