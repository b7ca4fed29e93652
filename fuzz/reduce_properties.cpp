// RapidCheck properties of every reduction variant, run on the GPU. Lengths are generated
// explicitly up to several passes of the smallest blocks (RapidCheck's size parameter stops at
// 100); block sizes are drawn from the variant's supported set. Each case checks
// fuzz::kDrawsPerCase draws (draws.hpp). A failure prints the shrunk counterexample and, at exit,
// the RC_PARAMS="reproduce=..." line that replays it.
#include "draws.hpp"
#include "elements.hpp"
#include "harness/gtest/test_main.hpp"
#include "harness/numeric/ordered_fold.hpp"
#include "harness/reduce/reduce_oracle.hpp"

#include <kernels/registry.hpp>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using fuzz::DrawCheck;
using harness::DeviceCalls;
using kernels::Op;
using kernels::TypeKey;
using kernels::VariantInfo;

// Lengths the variant accepts with the block size: mostly up to a few passes of small blocks,
// sometimes up to 300000, rounded down to the variant's declared multiple.
rc::Gen<std::size_t> lengths(const VariantInfo& variant, int block, kernels::TypeKey type) {
  const std::uint64_t limit = std::min<std::uint64_t>(300000, variant.max_length_with(block));
  const auto fit = [&variant, block, type](std::size_t n) {
    return static_cast<std::size_t>(variant.accepted_length_at_most(n, block, type));
  };
  return rc::gen::map(rc::gen::weightedOneOf<std::size_t>(
                          {{2, rc::gen::inRange<std::size_t>(0, std::min<std::uint64_t>(limit, 2100) + 1)},
                           {1, rc::gen::inRange<std::size_t>(0, limit + 1)}}),
                      fit);
}

// op(a, b) as the oracle computes it for an integer type: a wrapping sum, max, min, or the op's
// reference step.
template <class T>
T combine(Op op, T a, T b) {
  if (op == Op::sum)
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) + static_cast<std::make_unsigned_t<T>>(b));
  if (op == Op::max) return std::max(a, b);
  if (op == Op::min) return std::min(a, b);
  return harness::reference_step<T>(op, a, b);
}

class ReduceProperties : public testing::TestWithParam<const VariantInfo*> {
 protected:
  const VariantInfo& variant() const { return *GetParam(); }
  // The property's name, which RapidCheck's reproduce strings are keyed by.
  std::string property(const std::string& what) const { return variant().id() + ": " + what; }
  // A declared block size, or 0 (the preferred one).
  int block_size() const {
    std::vector<int> sizes = variant().block_sizes.all();
    sizes.push_back(0);
    return *rc::gen::elementOf(sizes);
  }
  // The ops of the type the variant declares, those among `among` if given.
  std::vector<Op> declared_ops(kernels::TypeKey type, std::optional<std::vector<Op>> among = std::nullopt) const {
    std::vector<Op> declared;
    for (Op o : variant().ops(type)) {
      if (!among || std::find(among->begin(), among->end(), o) != among->end()) declared.push_back(o);
    }
    return declared;
  }
  // Checks the property if the contract gives it something to run (`ops` not empty), and counts
  // it: each draw of an op of `ops` is draw(calls, op).
  template <class Draw>
  void check(const std::vector<Op>& ops, const std::string& what, Draw draw) {
    if (ops.empty()) return;
    ++checked_;
    EXPECT_TRUE(
        fuzz::check_draws(property(what), [&](DeviceCalls& calls) { return draw(calls, *rc::gen::elementOf(ops)); }));
  }
  // Ends a test whose properties had nothing declared to run as Skipped.
  void skip_if_nothing_checked() {
    if (checked_ == 0) GTEST_SKIP() << harness::kContractSkip << variant().id() << " declares nothing this test runs";
  }
  // Calls f.template operator()<T>() for every integer element type.
  template <class F>
  static void for_each_integer_type(F f) {
    fuzz::for_each_element_type([&](auto value, auto) {
      if constexpr (std::is_integral_v<decltype(value)>) f.template operator()<decltype(value)>();
    });
  }
  static std::string name(TypeKey type) { return std::string(kernels::name(type)); }
  template <class T>
  std::vector<T> inputs(const fuzz::Element<T>& element, int block, kernels::TypeKey type) const {
    return fuzz::values(*lengths(variant(), block, type), element);
  }

 private:
  int checked_ = 0;
};

// Every declared type and op: integers exactly, floats within the derived bound of the exact sum
// (max and min exactly).
TEST_P(ReduceProperties, EqualsTheOracle) {
  fuzz::for_each_type([this](auto in, auto out) {
    using In = decltype(in);
    using Out = decltype(out);
    constexpr TypeKey type = kernels::type_key_v<In, Out>;
    check(declared_ops(type), name(type) + " reduce is the oracle's", [this](DeviceCalls& calls, Op o) -> DrawCheck {
      const int block = block_size();
      auto values = inputs(fuzz::finite_value<In>(), block, type);
      const Out& got = calls.reduce<In, Out>(variant(), o, values, block);
      const auto depth = variant().depth_with(values.size(), block);
      return [o, values = std::move(values), &got, depth] {
        RC_ASSERT(!harness::judge_reduce(harness::expect_reduce<In, Out>(o, values), got, depth).has_value());
      };
    });
  });
  skip_if_nothing_checked();
}

// A caller reuses a workspace, as CUB's temporary storage is meant to be: a drawn sequence of calls (other values,
// lengths and ops, one block size as one caller's) one after another through one workspace poisoned once, each the
// oracle's. A failing sequence shrinks from its end to the fewest calls that still fail.
TEST_P(ReduceProperties, CallsInSequenceThroughOneWorkspace) {
  for_each_integer_type([this]<class T>() {
    constexpr TypeKey type = kernels::type_key_v<T>;
    const std::vector<Op> ops = declared_ops(type);
    check(ops, name(type) + ": each of a sequence of calls through one workspace is the oracle's",
          [this, &ops](DeviceCalls& calls, Op first) -> DrawCheck {
            const int block = block_size();
            const auto count = *rc::gen::inRange<std::size_t>(2, 5);
            struct Call {
              Op op;
              std::vector<T> values;
              const T* got;
              std::uint64_t depth;
            };
            std::vector<Call> sequence;
            calls.begin_sequence();
            for (std::size_t k = 0; k < count; ++k) {
              const Op o = k == 0 ? first : *rc::gen::elementOf(ops);
              auto values = inputs(fuzz::any_value<T>(), block, type);
              const T& got = calls.reduce<T, T>(variant(), o, values, block);
              const auto depth = variant().depth_with(values.size(), block);
              sequence.push_back({o, std::move(values), &got, depth});
            }
            calls.end_sequence();
            return [sequence = std::move(sequence)] {
              for (const Call& c : sequence)
                RC_ASSERT(
                    !harness::judge_reduce(harness::expect_reduce<T, T>(c.op, c.values), *c.got, c.depth).has_value());
            };
          });
  });
  skip_if_nothing_checked();
}

// Holds for every associative op, commutative or not: the parts are combined in their order.
TEST_P(ReduceProperties, ReduceOfAConcatenationCombinesTheParts) {
  for_each_integer_type([this]<class T>() {
    constexpr TypeKey type = kernels::type_key_v<T>;
    check(declared_ops(type), name(type) + ": reduce(a ++ b) == op(reduce(a), reduce(b))",
          [this](DeviceCalls& calls, Op o) -> DrawCheck {
            const int block = block_size();
            const auto a = inputs(fuzz::any_value<T>(), block, type);
            const auto b = inputs(fuzz::any_value<T>(), block, type);
            std::vector<T> joined = a;
            joined.insert(joined.end(), b.begin(), b.end());
            if (!variant().accepts_length(joined.size(), block, type)) return {};
            const T& whole = calls.reduce<T, T>(variant(), o, joined, block);
            const T& first = calls.reduce<T, T>(variant(), o, a, block);
            const T& second = calls.reduce<T, T>(variant(), o, b, block);
            return [o, &whole, &first, &second] { RC_ASSERT(whole == combine<T>(o, first, second)); };
          });
  });
  skip_if_nothing_checked();
}

TEST_P(ReduceProperties, InvariantUnderPermutation) {
  for_each_integer_type([this]<class T>() {
    constexpr TypeKey type = kernels::type_key_v<T>;
    check(declared_ops(type, std::vector<Op>{Op::sum, Op::max, Op::min}),
          name(type) + ": a commutative integer reduction ignores the order of its input",
          [this](DeviceCalls& calls, Op o) -> DrawCheck {
            const int block = block_size();
            const auto values = inputs(fuzz::any_value<T>(), block, type);
            std::vector<T> shuffled = values;
            std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(*rc::gen::arbitrary<std::uint64_t>()));
            const T& in_order = calls.reduce<T, T>(variant(), o, values, block);
            const T& reordered = calls.reduce<T, T>(variant(), o, shuffled, block);
            return [&in_order, &reordered] { RC_ASSERT(in_order == reordered); };
          });
  });
  skip_if_nothing_checked();
}

// Integers and finite floats (the IEEE rules for NaN and zeros are the unit tests').
TEST_P(ReduceProperties, MaxAndMinAreElementsThatBoundAllOthers) {
  fuzz::for_each_element_type([this](auto value, auto) {
    using T = decltype(value);
    constexpr TypeKey type = kernels::type_key_v<T>;
    check(
        declared_ops(type, std::vector<Op>{Op::max, Op::min}),
        name(type) + ": max/min is an element and no element lies beyond it",
        [this](DeviceCalls& calls, Op o) -> DrawCheck {
          const int block = block_size();
          auto values = inputs(fuzz::finite_value<T>(), block, type);
          if (values.empty()) return {};
          const T& extreme = calls.reduce<T, T>(variant(), o, values, block);
          return [o, values = std::move(values), &extreme] {
            RC_ASSERT(std::any_of(values.begin(), values.end(), [&](T x) { return harness::same_value(x, extreme); }));
            RC_ASSERT(std::all_of(values.begin(), values.end(),
                                  [&](T x) { return o == Op::max ? !(extreme < x) : !(x < extreme); }));
          };
        });
  });
  skip_if_nothing_checked();
}

INSTANTIATE_TEST_SUITE_P(property, ReduceProperties, testing::ValuesIn(kernels::variants_of(kernels::Family::reduce)),
                         harness::variant_param_name);

}  // namespace
