// The reduction oracle against hand-computed cases: wrapping, widening, IEEE special values,
// and the float bound's dependence on the accumulation depth.
#include "harness/reduce/reduce_oracle.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <limits>
#include <vector>

namespace {

using harness::expect_reduce;
using harness::judge_reduce;
using kernels::Op;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kFloatMax = std::numeric_limits<float>::max();

template <class In, class Out = In>
Out exact(Op op, std::vector<In> values) {
  const auto expectation = expect_reduce<In, Out>(op, values);
  EXPECT_TRUE(expectation.exact);
  return expectation.value;
}

bool accepts(std::vector<float> values, float got, std::uint64_t depth) {
  return !judge_reduce(expect_reduce<float, float>(Op::sum, values), got, depth).has_value();
}

TEST(ReduceOracle, IntegerSumsWrap) {
  EXPECT_EQ(exact<int>(Op::sum, {INT_MAX, 1}), INT_MIN);
  EXPECT_EQ(exact<int>(Op::sum, {INT_MIN, -1}), INT_MAX);
  EXPECT_EQ(exact<unsigned>(Op::sum, {UINT_MAX, 2u}), 1u);
  EXPECT_EQ(exact<long long>(Op::sum, {LLONG_MAX, LLONG_MAX}), -2LL);
  EXPECT_EQ(exact<int>(Op::sum, {3, -5, 7}), 5);
}

// Operators that are not commutative fold left to right from their identity, which an empty
// input returns.
TEST(ReduceOracle, OrderOperatorsFoldLeftToRight) {
  EXPECT_EQ(exact<int>(Op::last_nonzero, {0, 4, 0, 9, 0, 0}), 9);
  EXPECT_EQ(exact<int>(Op::last_nonzero, {}), 0);
  const long long x = 1, y = 1ll << 22;  // unitriangular (a 1) and (b 1): c counts a-before-b pairs
  EXPECT_EQ(exact<long long>(Op::unitriangular, {x, y}), (1ll << 43) | (1ll << 22) | 1);
  EXPECT_EQ(exact<long long>(Op::unitriangular, {y, x}), (1ll << 22) | 1);
  const auto matrix = kernels::parse_op("matrix2x2_mod16");  // registered by a fixture
  ASSERT_TRUE(matrix.has_value());
  EXPECT_EQ(exact<long long>(*matrix, {}), 1ll | 1ll << 48);
}

TEST(ReduceOracle, WideningSumIsExact) {
  EXPECT_EQ((exact<int, long long>(Op::sum, {INT_MAX, INT_MAX, INT_MAX})), 6442450941LL);
  EXPECT_EQ((exact<int, long long>(Op::sum, {INT_MIN, INT_MIN})), -4294967296LL);
}

TEST(ReduceOracle, EmptyInputGivesTheDocumentedIdentity) {
  EXPECT_EQ(exact<int>(Op::sum, {}), 0);
  EXPECT_EQ(exact<int>(Op::max, {}), INT_MIN);
  EXPECT_EQ(exact<int>(Op::min, {}), INT_MAX);
  EXPECT_EQ(exact<float>(Op::max, {}), -kFloatMax);
  EXPECT_EQ(exact<float>(Op::min, {}), kFloatMax);
  const auto empty_sum = expect_reduce<float, float>(Op::sum, {});
  EXPECT_TRUE(empty_sum.exact);
  EXPECT_EQ(empty_sum.value, 0.0f);
  EXPECT_FALSE(std::signbit(empty_sum.value));
}

TEST(ReduceOracle, IntegerMaxAndMin) {
  EXPECT_EQ(exact<int>(Op::max, {-5, 3, 2}), 3);
  EXPECT_EQ(exact<int>(Op::min, {-5, 3, 2}), -5);
  EXPECT_EQ(exact<unsigned>(Op::max, {1u, UINT_MAX, 0u}), UINT_MAX);
}

TEST(ReduceOracle, FloatMaxAndMinOrderSignedZerosAndPropagateNaN) {
  EXPECT_FALSE(std::signbit(exact<float>(Op::max, {-0.0f, 0.0f})));
  EXPECT_FALSE(std::signbit(exact<float>(Op::max, {0.0f, -0.0f})));
  EXPECT_TRUE(std::signbit(exact<float>(Op::min, {0.0f, -0.0f})));
  EXPECT_TRUE(std::signbit(exact<float>(Op::min, {-0.0f, 0.0f})));
  EXPECT_TRUE(std::isnan(exact<float>(Op::max, {1.0f, kNaN, 2.0f})));
  EXPECT_TRUE(std::isnan(exact<float>(Op::min, {kNaN, 1.0f})));
  EXPECT_EQ(exact<float>(Op::max, {-kInf}), -kInf);
  EXPECT_EQ(exact<float>(Op::min, {kInf, 3.0f}), 3.0f);
}

TEST(ReduceOracle, FloatSumBoundGrowsWithAccumulationDepth) {
  // 1 + 2 + 3 with depth 2: bound gamma(2) * 6, about 7.2e-7.
  EXPECT_TRUE(accepts({1, 2, 3}, 6.0f, 2));
  EXPECT_TRUE(accepts({1, 2, 3}, std::nextafter(6.0f, 7.0f), 2));
  EXPECT_FALSE(accepts({1, 2, 3}, 6.0001f, 2));
  // 1e8 + 1 - 1e8: the exact sum is 1, sum|x| is 2e8 + 1.
  EXPECT_TRUE(accepts({1e8f, 1, -1e8f}, 0.0f, 1));    // within gamma(1) * 2e8 ~ 12
  EXPECT_FALSE(accepts({1e8f, 1, -1e8f}, 20.0f, 1));  // beyond it
  EXPECT_FALSE(accepts({1e8f, 1, -1e8f}, 0.0f, 0));   // depth 0 allows no rounding at all
  EXPECT_TRUE(accepts({1e8f, 1, -1e8f}, 1.0f, 0));
}

TEST(ReduceOracle, FloatSumSpecialValues) {
  EXPECT_TRUE(accepts({kInf, -kInf}, kNaN, 1));
  EXPECT_FALSE(accepts({kInf, -kInf}, kInf, 1));
  EXPECT_TRUE(accepts({kInf, 1}, kInf, 1));
  EXPECT_FALSE(accepts({kInf, 1}, kNaN, 1));
  EXPECT_TRUE(accepts({1, kNaN}, kNaN, 1));
  EXPECT_FALSE(accepts({1, kNaN}, 1.0f, 1));
  EXPECT_TRUE(accepts({-0.0f, -0.0f}, -0.0f, 1));
  EXPECT_FALSE(accepts({-0.0f, -0.0f}, 0.0f, 1));
  EXPECT_TRUE(accepts({-0.0f, 0.0f}, 0.0f, 1));
  EXPECT_FALSE(accepts({-0.0f, 0.0f}, -0.0f, 1));
}

// A variant that declares +0.0 for sums of zeros (kernels::ZeroSum::positive, as
// cub::DeviceReduce::Sum) is held to exactly that; the default stays IEEE's (above).
TEST(ReduceOracle, ADeclaredPositiveZeroSumIsHeldToPositiveZero) {
  const auto positive_accepts = [](std::vector<float> values, float got) {
    return !judge_reduce(expect_reduce<float, float>(Op::sum, values), got, 1, true).has_value();
  };
  EXPECT_TRUE(positive_accepts({-0.0f, -0.0f}, 0.0f));
  EXPECT_FALSE(positive_accepts({-0.0f, -0.0f}, -0.0f));
  EXPECT_TRUE(positive_accepts({-0.0f, 0.0f}, 0.0f));
  EXPECT_TRUE(positive_accepts({}, 0.0f));
  EXPECT_TRUE(positive_accepts({1.0f, -0.0f}, 1.0f));
}

TEST(ReduceOracle, FloatSumOverflow) {
  // Terms of one sign: only +inf is right once the exact sum leaves the range.
  EXPECT_TRUE(accepts({kFloatMax, kFloatMax}, kInf, 1));
  EXPECT_FALSE(accepts({kFloatMax, kFloatMax}, -kInf, 1));
  EXPECT_FALSE(accepts({kFloatMax, kFloatMax}, kNaN, 1));
  EXPECT_FALSE(accepts({kFloatMax, kFloatMax}, kFloatMax, 1));
  // Both signs: the order decides between the exact value, an infinity and NaN.
  EXPECT_TRUE(accepts({kFloatMax, -kFloatMax, kFloatMax}, kFloatMax, 2));
  EXPECT_TRUE(accepts({kFloatMax, -kFloatMax, kFloatMax}, kInf, 2));
  EXPECT_TRUE(accepts({kFloatMax, -kFloatMax, kFloatMax}, kNaN, 2));
  EXPECT_FALSE(accepts({kFloatMax, -kFloatMax, kFloatMax}, 0.0f, 2));
}

TEST(ReduceOracle, DoubleSumsBeyondTheDoubleRangeKeepAnExactReference) {
  // Partial sums leave the double range; the exact sum, -max, does not.
  constexpr double kMax = std::numeric_limits<double>::max();
  const std::vector<double> values{-kMax, kMax, -kMax, kMax, -kMax};
  const auto expectation = expect_reduce<double, double>(Op::sum, values);
  EXPECT_EQ(expectation.facts.exact(), -static_cast<long double>(kMax));
  EXPECT_FALSE(judge_reduce(expectation, -kMax, 4).has_value());
  EXPECT_FALSE(
      judge_reduce(expectation, std::numeric_limits<double>::quiet_NaN(), 4).has_value());  // an order that overflows
  EXPECT_TRUE(judge_reduce(expectation, 0.0, 4).has_value());
  EXPECT_TRUE(judge_reduce(expectation, kMax, 4).has_value());
}

TEST(ReduceOracle, DoubleSumsUseAnExtendedReference) {
  // 2^53 + 1 + 1 - 2^53: double sequential gives 0, the exact answer is 2.
  const std::vector<double> values{9007199254740992.0, 1, 1, -9007199254740992.0};
  const auto expectation = expect_reduce<double, double>(Op::sum, values);
  EXPECT_EQ(expectation.facts.exact(), 2.0L);
  EXPECT_FALSE(judge_reduce(expectation, 2.0, 0).has_value());
  EXPECT_TRUE(judge_reduce(expectation, 0.0, 0).has_value());
}

TEST(ReduceOracle, ShowsFloatBits) {
  EXPECT_EQ(harness::show_value(1.5f), "1.5 (0x3fc00000)");
  EXPECT_EQ(harness::show_value(-7), "-7");
}

}  // namespace
