// RapidCheck properties of every reduction variant, run on the GPU. Lengths are generated
// explicitly up to several passes of the smallest blocks (RapidCheck's size parameter stops at
// 100); block sizes are drawn from the variant's supported set. A failure prints the shrunk
// counterexample and, at exit, the RC_PARAMS="reproduce=..." line that replays it.
#include "harness/gtest/test_main.hpp"
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
  switch (op) {
    case Op::sum: return static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b));
    case Op::max: return std::max(a, b);
    case Op::min: return std::min(a, b);
  }
  return 0;
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
  // A declared op of the type, among `among`; nullopt if the variant declares none of them.
  std::optional<Op> op(kernels::TypeKey type, std::vector<Op> among = {Op::sum, Op::max, Op::min}) const {
    std::vector<Op> declared;
    for (Op o : among) {
      if (variant().supports(type, o)) declared.push_back(o);
    }
    if (declared.empty()) return std::nullopt;
    return *rc::gen::elementOf(declared);
  }
  template <class T>
  std::vector<T> inputs(rc::Gen<T> element, int block, kernels::TypeKey type) const {
    return *rc::gen::container<std::vector<T>>(*lengths(variant(), block, type), element);
  }
};

TEST_P(ReduceProperties, EqualsTheCpuFold) {
  EXPECT_TRUE(rc::check(property("int reduce equals the CPU fold"), [this] {
    const auto declared = op(TypeKey::int32);
    if (!declared) return;  // nothing this variant declares
    const Op o = *declared;
    const int block = block_size();
    const auto values = inputs(rc::gen::arbitrary<int>(), block, TypeKey::int32);
    const int got = reduce_on_device<int, int>(variant(), o, values, block);
    const int expected = harness::expect_reduce<int, int>(o, values).value;
    RC_ASSERT(got == expected);
  }));
  EXPECT_TRUE(rc::check(property("widening sum equals the exact CPU sum"), [this] {
    if (!variant().supports(TypeKey::int32_to_int64, Op::sum)) return;
    const int block = block_size();
    const auto values = inputs(rc::gen::arbitrary<int>(), block, TypeKey::int32_to_int64);
    const long long got = reduce_on_device<int, long long>(variant(), Op::sum, values, block);
    const long long expected = harness::expect_reduce<int, long long>(Op::sum, values).value;
    RC_ASSERT(got == expected);
  }));
  EXPECT_TRUE(rc::check(property("float reduce is within the derived bound of the exact fold"), [this] {
    const auto declared = op(TypeKey::float32);
    if (!declared) return;
    const Op o = *declared;
    const int block = block_size();
    const auto values = inputs(finite_floats(), block, TypeKey::float32);
    const float got = reduce_on_device<float, float>(variant(), o, values, block);
    const auto problem = harness::judge_reduce(harness::expect_reduce<float, float>(o, values), got,
                                               variant().depth_with(values.size(), block));
    RC_ASSERT(!problem.has_value());
  }));
}

TEST_P(ReduceProperties, ReduceOfAConcatenationCombinesTheParts) {
  EXPECT_TRUE(rc::check(property("reduce(a ++ b) == op(reduce(a), reduce(b))"), [this] {
    const auto declared = op(TypeKey::int32);
    if (!declared) return;
    const Op o = *declared;
    const int block = block_size();
    const auto a = inputs(rc::gen::arbitrary<int>(), block, TypeKey::int32);
    const auto b = inputs(rc::gen::arbitrary<int>(), block, TypeKey::int32);
    std::vector<int> joined = a;
    joined.insert(joined.end(), b.begin(), b.end());
    RC_PRE(variant().accepts_length(joined.size(), block, TypeKey::int32));
    const int whole = reduce_on_device<int, int>(variant(), o, joined, block);
    RC_ASSERT(whole == combine(o, reduce_on_device<int, int>(variant(), o, a, block),
                               reduce_on_device<int, int>(variant(), o, b, block)));
  }));
}

TEST_P(ReduceProperties, InvariantUnderPermutation) {
  EXPECT_TRUE(rc::check(property("an integer reduction ignores the order of its input"), [this] {
    const auto declared = op(TypeKey::int32);
    if (!declared) return;
    const Op o = *declared;
    const int block = block_size();
    const auto values = inputs(rc::gen::arbitrary<int>(), block, TypeKey::int32);
    std::vector<int> shuffled = values;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(*rc::gen::arbitrary<std::uint64_t>()));
    const int in_order = reduce_on_device<int, int>(variant(), o, values, block);
    const int shuffled_order = reduce_on_device<int, int>(variant(), o, shuffled, block);
    RC_ASSERT(in_order == shuffled_order);
  }));
}

TEST_P(ReduceProperties, MaxAndMinAreElementsThatBoundAllOthers) {
  EXPECT_TRUE(rc::check(property("max/min of ints is an element and no element lies beyond it"), [this] {
    const auto declared = op(TypeKey::int32, {Op::max, Op::min});
    if (!declared) return;
    const Op o = *declared;
    const int block = block_size();
    const auto ints = inputs(rc::gen::arbitrary<int>(), block, TypeKey::int32);
    RC_PRE(!ints.empty());
    const int extreme = reduce_on_device<int, int>(variant(), o, ints, block);
    RC_ASSERT(std::find(ints.begin(), ints.end(), extreme) != ints.end());
    RC_ASSERT(std::all_of(ints.begin(), ints.end(), [&](int x) { return o == Op::max ? x <= extreme : x >= extreme; }));
  }));
  EXPECT_TRUE(rc::check(property("max/min of floats is an element and no element lies beyond it"), [this] {
    const auto declared = op(TypeKey::float32, {Op::max, Op::min});
    if (!declared) return;
    const Op o = *declared;
    const int block = block_size();
    const auto floats = inputs(finite_floats(), block, TypeKey::float32);
    RC_PRE(!floats.empty());
    const float float_extreme = reduce_on_device<float, float>(variant(), o, floats, block);
    RC_ASSERT(std::find(floats.begin(), floats.end(), float_extreme) != floats.end());
    RC_ASSERT(std::all_of(floats.begin(), floats.end(),
                          [&](float x) { return o == Op::max ? x <= float_extreme : x >= float_extreme; }));
  }));
}

INSTANTIATE_TEST_SUITE_P(property, ReduceProperties, testing::ValuesIn(kernels::variants_of(kernels::Family::reduce)),
                         harness::variant_param_name);

}  // namespace
