#include "harness/reduce/reduce_oracle.hpp"

#include "harness/numeric/element_traits.hpp"
#include "harness/numeric/ordered_fold.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace harness {
namespace {

using kernels::Op;

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
    Out best = op == Op::max ? limits<Out>::lowest() : limits<Out>::max();
    for (In x : values) best = op == Op::max ? std::max<Out>(best, x) : std::min<Out>(best, x);
    return best;
  } else if constexpr (std::is_same_v<In, Out>) {  // float max and min (the widening keys only sum)
    if (values.empty()) return op == Op::max ? limits<Out>::lowest() : limits<Out>::max();
    Out best = values[0];
    for (In x : values) {
      if (is_nan(x)) return x;
      const bool better = op == Op::max
                              ? (x > best || (x == best && cuda::std::signbit(best) && !cuda::std::signbit(x)))
                              : (x < best || (x == best && !cuda::std::signbit(best) && cuda::std::signbit(x)));
      if (better) best = x;
    }
    return best;
  } else {
    throw std::logic_error("a widening key has no exact fold");
  }
}

}  // namespace

template <class T>
std::string show_value(T value) {
  std::ostringstream text;
  if constexpr (is_float_v<T>) {
    text << std::setprecision(limits<T>::max_digits10) << as_double(value) << " (0x" << std::hex
         << std::setw(sizeof(T) * 2) << std::setfill('0') << +bits_of(value) << ')';
  } else {
    text << +value;
  }
  return text.str();
}

template <class In, class Out>
ReduceExpectation<Out> expect_reduce(Op op, std::span<const In> values) {
  ReduceExpectation<Out> expectation;
  if constexpr (is_float_v<Out>) {
    if (op == Op::sum && !values.empty()) {
      expectation.exact = false;
      for (In x : values) expectation.facts.add(as_double(x));
      return expectation;
    }
    if (op == Op::sum) return expectation;  // +0.0: the empty sum
  }
  expectation.value = exact_fold<In, Out>(op, values);
  return expectation;
}

template <class Out>
std::optional<std::string> judge_reduce(const ReduceExpectation<Out>& expected, Out got,
                                        std::uint64_t accumulation_depth, bool positive_zero) {
  if (!expected.exact) {
    if constexpr (is_float_v<Out>) return judge_float_sum(expected.facts, got, accumulation_depth, positive_zero);
  }
  if (same_value(got, expected.value)) return std::nullopt;
  return "expected " + show_value(expected.value) + ", got " + show_value(got);
}

#define HARNESS_INSTANTIATE_REDUCE_ORACLE(key, In, Out, label) \
  template ReduceExpectation<Out> expect_reduce<In, Out>(Op, std::span<const In>);
KERNELS_FOR_EACH_TYPE(HARNESS_INSTANTIATE_REDUCE_ORACLE)
#undef HARNESS_INSTANTIATE_REDUCE_ORACLE

#define HARNESS_INSTANTIATE_VALUE_FUNCTIONS(key, T, out, label)                                             \
  template std::optional<std::string> judge_reduce<T>(const ReduceExpectation<T>&, T, std::uint64_t, bool); \
  template std::string show_value<T>(T);
KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_INSTANTIATE_VALUE_FUNCTIONS)
#undef HARNESS_INSTANTIATE_VALUE_FUNCTIONS

}  // namespace harness
