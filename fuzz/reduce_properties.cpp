// RapidCheck properties of every reduction variant, run on the GPU. Lengths are generated
// explicitly up to several passes of the smallest blocks (RapidCheck's size parameter stops at
// 100); block sizes are drawn from the variant's supported set. A failure prints the shrunk
// counterexample and, at exit, the RC_PARAMS="reproduce=..." line that replays it.
#include "harness/gtest/test_main.hpp"
#include "harness/numeric/ordered_fold.hpp"
#include "harness/reduce/reduce_oracle.hpp"
#include "harness/runner/device_calls.hpp"

#include <kernels/registry.hpp>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <optional>
#include <random>
#include <string>

namespace {

using harness::reduce_on_device;
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

rc::Gen<float> finite_floats() {
  return rc::gen::suchThat(rc::gen::arbitrary<float>(), [](float x) { return std::isfinite(x); });
}

int combine(Op op, int a, int b) {
  if (op == Op::sum) return static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b));
  if (op == Op::max) return std::max(a, b);
  if (op == Op::min) return std::min(a, b);
  return harness::reference_step<int>(op, a, b);
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
  // Runs the property if the contract gives it something to run (`ops` not empty), and counts it.
  template <class Property>
  void check(const std::vector<Op>& ops, const std::string& what, Property property) {
    if (ops.empty()) return;
    ++checked_;
    EXPECT_TRUE(rc::check(this->property(what), [&] { property(*rc::gen::elementOf(ops)); }));
  }
  // Ends a test whose properties had nothing declared to run as Skipped.
  void skip_if_nothing_checked() {
    if (checked_ == 0) GTEST_SKIP() << harness::kContractSkip << variant().id() << " declares nothing this test runs";
  }
  template <class T>
  std::vector<T> inputs(rc::Gen<T> element, int block, kernels::TypeKey type) const {
    return *rc::gen::container<std::vector<T>>(*lengths(variant(), block, type), element);
  }

 private:
  int checked_ = 0;
};

TEST_P(ReduceProperties, EqualsTheCpuFold) {
  check(declared_ops(TypeKey::int32), "int reduce equals the CPU fold", [this](Op o) {
    const int block = block_size();
    const auto values = inputs(rc::gen::arbitrary<int>(), block, TypeKey::int32);
    const int got = reduce_on_device<int, int>(variant(), o, values, block);
    const int expected = harness::expect_reduce<int, int>(o, values).value;
    RC_ASSERT(got == expected);
  });
  check(declared_ops(TypeKey::int64), "long long reduce equals the CPU fold", [this](Op o) {
    const int block = block_size();
    const auto values = inputs(rc::gen::arbitrary<long long>(), block, TypeKey::int64);
    const long long got = reduce_on_device<long long, long long>(variant(), o, values, block);
    const long long expected = harness::expect_reduce<long long, long long>(o, values).value;
    RC_ASSERT(got == expected);
  });
  check(declared_ops(TypeKey::int32_to_int64), "widening sum equals the exact CPU sum", [this](Op o) {
    const int block = block_size();
    const auto values = inputs(rc::gen::arbitrary<int>(), block, TypeKey::int32_to_int64);
    const long long got = reduce_on_device<int, long long>(variant(), o, values, block);
    const long long expected = harness::expect_reduce<int, long long>(o, values).value;
    RC_ASSERT(got == expected);
  });
  check(declared_ops(TypeKey::float32), "float reduce is within the derived bound of the exact fold", [this](Op o) {
    const int block = block_size();
    const auto values = inputs(finite_floats(), block, TypeKey::float32);
    const float got = reduce_on_device<float, float>(variant(), o, values, block);
    const auto problem = harness::judge_reduce(harness::expect_reduce<float, float>(o, values), got,
                                               variant().depth_with(values.size(), block));
    RC_ASSERT(!problem.has_value());
  });
  skip_if_nothing_checked();
}

// Holds for every associative op, commutative or not: the parts are combined in their order.
TEST_P(ReduceProperties, ReduceOfAConcatenationCombinesTheParts) {
  check(declared_ops(TypeKey::int32), "reduce(a ++ b) == op(reduce(a), reduce(b))", [this](Op o) {
    const int block = block_size();
    const auto a = inputs(rc::gen::arbitrary<int>(), block, TypeKey::int32);
    const auto b = inputs(rc::gen::arbitrary<int>(), block, TypeKey::int32);
    std::vector<int> joined = a;
    joined.insert(joined.end(), b.begin(), b.end());
    RC_PRE(variant().accepts_length(joined.size(), block, TypeKey::int32));
    const int whole = reduce_on_device<int, int>(variant(), o, joined, block);
    RC_ASSERT(whole == combine(o, reduce_on_device<int, int>(variant(), o, a, block),
                               reduce_on_device<int, int>(variant(), o, b, block)));
  });
  skip_if_nothing_checked();
}

TEST_P(ReduceProperties, InvariantUnderPermutation) {
  check(declared_ops(TypeKey::int32, std::vector<Op>{Op::sum, Op::max, Op::min}),
        "a commutative integer reduction ignores the order of its input", [this](Op o) {
          const int block = block_size();
          const auto values = inputs(rc::gen::arbitrary<int>(), block, TypeKey::int32);
          std::vector<int> shuffled = values;
          std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(*rc::gen::arbitrary<std::uint64_t>()));
          const int in_order = reduce_on_device<int, int>(variant(), o, values, block);
          const int shuffled_order = reduce_on_device<int, int>(variant(), o, shuffled, block);
          RC_ASSERT(in_order == shuffled_order);
        });
  skip_if_nothing_checked();
}

TEST_P(ReduceProperties, MaxAndMinAreElementsThatBoundAllOthers) {
  check(declared_ops(TypeKey::int32, std::vector<Op>{Op::max, Op::min}),
        "max/min of ints is an element and no element lies beyond it", [this](Op o) {
          const int block = block_size();
          const auto ints = inputs(rc::gen::arbitrary<int>(), block, TypeKey::int32);
          RC_PRE(!ints.empty());
          const int extreme = reduce_on_device<int, int>(variant(), o, ints, block);
          RC_ASSERT(std::find(ints.begin(), ints.end(), extreme) != ints.end());
          RC_ASSERT(
              std::all_of(ints.begin(), ints.end(), [&](int x) { return o == Op::max ? x <= extreme : x >= extreme; }));
        });
  check(declared_ops(TypeKey::float32, std::vector<Op>{Op::max, Op::min}),
        "max/min of floats is an element and no element lies beyond it", [this](Op o) {
          const int block = block_size();
          const auto floats = inputs(finite_floats(), block, TypeKey::float32);
          RC_PRE(!floats.empty());
          const float extreme = reduce_on_device<float, float>(variant(), o, floats, block);
          RC_ASSERT(std::find(floats.begin(), floats.end(), extreme) != floats.end());
          RC_ASSERT(std::all_of(floats.begin(), floats.end(),
                                [&](float x) { return o == Op::max ? x <= extreme : x >= extreme; }));
        });
  skip_if_nothing_checked();
}

INSTANTIATE_TEST_SUITE_P(property, ReduceProperties, testing::ValuesIn(kernels::variants_of(kernels::Family::reduce)),
                         harness::variant_param_name);

}  // namespace
