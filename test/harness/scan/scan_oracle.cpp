#include "harness/scan/scan_oracle.hpp"

#include "harness/numeric/float_sum.hpp"
#include "harness/numeric/ordered_fold.hpp"
#include "harness/reduce/reduce_oracle.hpp"

#include <optional>
#include <type_traits>

namespace harness {
template <class T>
Mismatches judge_scan(kernels::ScanKind kind, kernels::Op op, std::span<const T> input, std::span<const T> got,
                      std::uint64_t depth, bool positive_zero) {
  Mismatches mismatches;
  const bool inclusive = kind == kernels::ScanKind::inclusive;
  // The last wrong output's expectation, kept as values: it is described once, after the loop.
  T last_expected{}, last_got{};
  const auto expect = [&](std::size_t i, T expected) {
    if (got[i] == expected) return;
    mismatches.note(i, [&] { return "expected " + show_value(expected) + ", got " + show_value(got[i]); });
    last_expected = expected;
    last_got = got[i];
  };
  if constexpr (std::is_integral_v<T>) {
    if (folds_by_reference(op)) {
      T prefix = reference_identity<T>(op);
      for (std::size_t i = 0; i < input.size(); ++i) {
        if (inclusive) prefix = reference_step<T>(op, prefix, input[i]);
        expect(i, prefix);
        if (!inclusive) prefix = reference_step<T>(op, prefix, input[i]);
      }
    } else {
      using U = std::make_unsigned_t<T>;
      U sum = 0;
      for (std::size_t i = 0; i < input.size(); ++i) {
        if (inclusive) sum = static_cast<U>(sum + static_cast<U>(input[i]));
        expect(i, static_cast<T>(sum));
        if (!inclusive) sum = static_cast<U>(sum + static_cast<U>(input[i]));
      }
    }
    mismatches.describe_last([&] { return "expected " + show_value(last_expected) + ", got " + show_value(last_got); });
  } else {
    const FloatSumJudge<T> judge(depth, positive_zero);
    FloatSumFacts prefix, last_prefix;
    for (std::size_t i = 0; i < input.size(); ++i) {
      if (inclusive) prefix.add(as_double(input[i]));
      if (judge.wrong(prefix, got[i])) {
        mismatches.note(i, [&] { return judge.judge(prefix, got[i]).value_or(""); });
        last_prefix = prefix;
        last_got = got[i];
      }
      if (!inclusive) prefix.add(as_double(input[i]));
    }
    mismatches.describe_last([&] { return judge.judge(last_prefix, last_got).value_or(""); });
  }
  return mismatches;
}

#define HARNESS_INSTANTIATE_SCAN_ORACLE(key, T, out, label)                                                 \
  template Mismatches judge_scan<T>(kernels::ScanKind, kernels::Op, std::span<const T>, std::span<const T>, \
                                    std::uint64_t, bool);
KERNELS_FOR_EACH_SCAN_TYPE(HARNESS_INSTANTIATE_SCAN_ORACLE)
#undef HARNESS_INSTANTIATE_SCAN_ORACLE

}  // namespace harness
