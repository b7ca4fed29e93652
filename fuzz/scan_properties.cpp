// RapidCheck properties of every scan variant, run on the GPU. The first holds for every type,
// kind and op the record declares: the scan is the oracle's (exact for integers, within the
// derived bound for floats). The others are exact relations between calls, over every integer
// scan type (int, unsigned, long long, unsigned long long), kind and op declared. Each draw is a
// declared op, a block size from the variant's set and a length up to several recursion levels
// (RapidCheck's size stops at 100), within the variant's limit; each case checks
// fuzz::kDrawsPerCase draws (draws.hpp). A property with nothing declared to run reports
// Skipped. A failure prints the shrunk counterexample and, at exit, the RC_PARAMS="reproduce=..."
// line that replays it.
#include "draws.hpp"
#include "elements.hpp"
#include "harness/gtest/test_main.hpp"
#include "harness/numeric/ordered_fold.hpp"
#include "harness/scan/scan_oracle.hpp"

#include <kernels/registry.hpp>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using fuzz::DrawCheck;
using harness::DeviceCalls;
using kernels::Op;
using kernels::ScanKind;
using kernels::TypeKey;
using kernels::VariantInfo;

// op(earlier, later) as the oracle computes it: a wrapping sum, or the op's reference step.
template <class T>
T combine(Op op, T earlier, T later) {
  if (op != Op::sum) return harness::reference_step<T>(op, earlier, later);
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(earlier) + static_cast<U>(later));
}

// The empty prefix: exclusive[0].
template <class T>
T empty_prefix(Op op) {
  return op == Op::sum ? T(0) : harness::reference_identity<T>(op);
}

class ScanProperties : public testing::TestWithParam<const VariantInfo*> {
 protected:
  const VariantInfo& variant() const { return *GetParam(); }
  std::string property(const std::string& what, TypeKey type) const {
    return variant().id() + " " + std::string(kernels::name(type)) + ": " + what;
  }

  // Checks one property per integer type the variant declares with all `kinds`, each draw
  // draw(calls, T{}); skips the test when there is none.
  template <class Draw>
  void for_each_integer_type(const std::vector<ScanKind>& kinds, const std::string& what, Draw draw) {
    bool ran = false;
    fuzz::for_each_scan_type([&](auto value, auto) {
      using T = decltype(value);
      constexpr TypeKey type = kernels::type_key_v<T>;
      if constexpr (std::is_integral_v<T>) {
        if (!variant().supports(type)) return;
        if (!std::all_of(kinds.begin(), kinds.end(), [&](ScanKind kind) { return variant().supports(kind); })) return;
        ran = true;
        EXPECT_TRUE(fuzz::check_draws(property(what, type), [&](DeviceCalls& calls) { return draw(calls, T{}); }));
      }
    });
    if (!ran) GTEST_SKIP() << harness::kContractSkip << variant().id() << " declares no integer scan of these kinds";
  }

  template <class T>
  Op any_op() const {
    return *rc::gen::elementOf(variant().ops(kernels::type_key_v<T>));
  }

  template <class T>
  struct Case {
    int block_size;
    std::vector<T> values;
  };
  // A block size, then values of a length the variant takes with it: mostly up to a few
  // thousand, a third of the time up to 300000, each drawn from `element`.
  template <class T>
  Case<T> generate_case(std::uint64_t longest = 300000, fuzz::Element<T> element = fuzz::any_value<T>()) const {
    const int block = draw_block();
    return {block, generate_values<T>(block, longest, element)};
  }
  // A declared block size, or 0 (the preferred one).
  int draw_block() const {
    std::vector<int> sizes = variant().block_sizes.all();
    sizes.push_back(0);
    return *rc::gen::elementOf(sizes);
  }
  // Values of a length the variant takes with `block`, as generate_case draws them.
  template <class T>
  std::vector<T> generate_values(int block, std::uint64_t longest = 300000,
                                 fuzz::Element<T> element = fuzz::any_value<T>()) const {
    constexpr TypeKey type = kernels::type_key_v<T>;
    const std::uint64_t limit = std::min<std::uint64_t>(longest, variant().max_length_with(block));
    const std::size_t drawn = *rc::gen::weightedOneOf<std::size_t>(
        {{2, rc::gen::inRange<std::size_t>(0, std::min<std::uint64_t>(limit, 5000) + 1)},
         {1, rc::gen::inRange<std::size_t>(0, limit + 1)}});
    const auto n = static_cast<std::size_t>(variant().accepted_length_at_most(drawn, block, type));
    return fuzz::values(n, element);
  }
};

// Every declared type, kind and op: the oracle judges the whole output (floats by its bound).
TEST_P(ScanProperties, EveryDeclaredTypeKindAndOpScansAsTheOracleSays) {
  bool ran = false;
  const auto run = [&](auto value, auto element) {
    using T = decltype(value);
    constexpr TypeKey type = kernels::type_key_v<T>;
    if (!variant().supports(type)) return;
    ran = true;
    EXPECT_TRUE(fuzz::check_draws(property("the scan is the oracle's", type), [&](DeviceCalls& calls) -> DrawCheck {
      const ScanKind kind = *rc::gen::elementOf(variant().kinds);
      const Op op = any_op<T>();
      Case<T> c = generate_case<T>(300000, element);
      const std::vector<T>& scanned = calls.scan<T>(variant(), kind, op, c.values, c.block_size);
      const auto depth = variant().depth_with(c.values.size(), c.block_size);
      return [kind, op, values = std::move(c.values), &scanned, depth] {
        RC_ASSERT(harness::judge_scan<T>(kind, op, values, scanned, depth).count == 0u);
      };
    }));
  };
  fuzz::for_each_scan_type([&](auto value, auto) { run(value, fuzz::finite_value<decltype(value)>()); });
  if (!ran) GTEST_SKIP() << harness::kContractSkip << variant().id() << " declares no element type";
}

// A caller reuses a workspace, as CUB's temporary storage is meant to be: a drawn sequence of calls (other values,
// lengths, kinds and ops, one block size as one caller's) one after another through one workspace poisoned once,
// each the oracle's. A failing sequence shrinks from its end to the fewest calls that still fail.
TEST_P(ScanProperties, CallsInSequenceThroughOneWorkspace) {
  for_each_integer_type({}, "each of a sequence of calls through one workspace is the oracle's",
                        [this](DeviceCalls& calls, auto value) -> DrawCheck {
                          using T = decltype(value);
                          const int block = draw_block();
                          const auto count = *rc::gen::inRange<std::size_t>(2, 5);
                          struct Call {
                            ScanKind kind;
                            Op op;
                            std::vector<T> values;
                            const std::vector<T>* got;
                            std::uint64_t depth;
                          };
                          std::vector<Call> sequence;
                          calls.begin_sequence();
                          for (std::size_t k = 0; k < count; ++k) {
                            const ScanKind kind = *rc::gen::elementOf(variant().kinds);
                            const Op op = any_op<T>();
                            auto values = generate_values<T>(block);
                            const std::vector<T>& got = calls.scan<T>(variant(), kind, op, values, block);
                            const auto depth = variant().depth_with(values.size(), block);
                            sequence.push_back({kind, op, std::move(values), &got, depth});
                          }
                          calls.end_sequence();
                          return [sequence = std::move(sequence)] {
                            for (const Call& c : sequence)
                              RC_ASSERT(harness::judge_scan<T>(c.kind, c.op, c.values, *c.got, c.depth).count == 0u);
                          };
                        });
}

TEST_P(ScanProperties, EachInclusiveValueCombinesThePreviousWithItsInput) {
  for_each_integer_type(
      {ScanKind::inclusive}, "scan[i] == op(scan[i-1], in[i])", [this](DeviceCalls& calls, auto value) -> DrawCheck {
        using T = decltype(value);
        const Op op = any_op<T>();
        Case<T> c = generate_case<T>();
        const std::vector<T>& scanned = calls.scan<T>(variant(), ScanKind::inclusive, op, c.values, c.block_size);
        return [op, values = std::move(c.values), &scanned] {
          for (std::size_t i = 0; i < values.size(); ++i) {
            RC_ASSERT(scanned[i] == combine<T>(op, i == 0 ? empty_prefix<T>(op) : scanned[i - 1], values[i]));
          }
        };
      });
}

TEST_P(ScanProperties, ExclusiveIsTheInclusiveShiftedByOne) {
  for_each_integer_type(
      {ScanKind::inclusive, ScanKind::exclusive}, "exclusive[0] is the empty prefix and exclusive[i] == inclusive[i-1]",
      [this](DeviceCalls& calls, auto value) -> DrawCheck {
        using T = decltype(value);
        const Op op = any_op<T>();
        const Case<T> c = generate_case<T>();
        const std::vector<T>& inclusive = calls.scan<T>(variant(), ScanKind::inclusive, op, c.values, c.block_size);
        const std::vector<T>& exclusive = calls.scan<T>(variant(), ScanKind::exclusive, op, c.values, c.block_size);
        return [op, n = c.values.size(), &inclusive, &exclusive] {
          for (std::size_t i = 0; i < n; ++i)
            RC_ASSERT(exclusive[i] == (i == 0 ? empty_prefix<T>(op) : inclusive[i - 1]));
        };
      });
}

// Against an independent reduction: CUB's for commutative ops, the first registered reduction
// that keeps operand order for the others.
TEST_P(ScanProperties, TheLastInclusiveValueIsTheReduction) {
  for_each_integer_type(
      {ScanKind::inclusive}, "inclusive.back() == reduce(in)", [this](DeviceCalls& calls, auto value) -> DrawCheck {
        using T = decltype(value);
        constexpr TypeKey type = kernels::type_key_v<T>;
        const Op op = any_op<T>();
        const auto reductions = harness::variants_where(kernels::Family::reduce, type, [&](const VariantInfo& v) {
          return v.supports(type, op) && v.accepts_length(300000, 0, type);
        });
        if (reductions.empty()) return {};
        const auto cub = std::find_if(reductions.begin(), reductions.end(), [](auto* v) { return v->name == "cub"; });
        const VariantInfo& reduction = cub != reductions.end() ? **cub : *reductions.front();
        const Case<T> c = generate_case<T>();
        if (c.values.empty()) return {};
        const std::vector<T>& inclusive = calls.scan<T>(variant(), ScanKind::inclusive, op, c.values, c.block_size);
        const T& total = calls.reduce<T, T>(reduction, op, c.values, 0);
        return [&inclusive, &total] { RC_ASSERT(inclusive.back() == total); };
      });
}

TEST_P(ScanProperties, ScanOfAConcatenationContinuesFromTheFirstPartsTotal) {
  for_each_integer_type(
      {ScanKind::inclusive}, "scan(a ++ b) == scan(a) ++ op(total(a), scan(b))",
      [this](DeviceCalls& calls, auto value) -> DrawCheck {
        using T = decltype(value);
        constexpr TypeKey type = kernels::type_key_v<T>;
        const Op op = any_op<T>();
        const Case<T> a = generate_case<T>(150000);
        const auto b_length = static_cast<std::size_t>(variant().accepted_length_at_most(
            *rc::gen::inRange<std::size_t>(0, a.values.size() + 1), a.block_size, type));
        const std::vector<T> b = fuzz::values(b_length, fuzz::any_value<T>());
        if (!variant().accepts_length(a.values.size() + b.size(), a.block_size, type)) return {};
        std::vector<T> joined = a.values;
        joined.insert(joined.end(), b.begin(), b.end());
        const std::vector<T>& whole = calls.scan<T>(variant(), ScanKind::inclusive, op, joined, a.block_size);
        const std::vector<T>& first = calls.scan<T>(variant(), ScanKind::inclusive, op, a.values, a.block_size);
        const std::vector<T>& second = calls.scan<T>(variant(), ScanKind::inclusive, op, b, a.block_size);
        return [op, &whole, &first, &second] {
          const T total = first.empty() ? empty_prefix<T>(op) : first.back();
          for (std::size_t i = 0; i < first.size(); ++i) RC_ASSERT(whole[i] == first[i]);
          for (std::size_t i = 0; i < second.size(); ++i)
            RC_ASSERT(whole[first.size() + i] == combine<T>(op, total, second[i]));
        };
      });
}

INSTANTIATE_TEST_SUITE_P(property, ScanProperties, testing::ValuesIn(kernels::variants_of(kernels::Family::scan)),
                         harness::variant_param_name);

}  // namespace
