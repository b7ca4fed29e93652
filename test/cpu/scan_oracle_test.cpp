// The scan oracle against hand-computed cases, and its fast float path against its exact one.
#include "harness/scan/scan_oracle.hpp"
#include "harness/input/random_bits.hpp"
#include "harness/numeric/float_sum.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <limits>
#include <vector>

namespace {

using harness::judge_scan;
using kernels::Op;
using kernels::ScanKind;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

template <class T>
std::uint64_t wrong(ScanKind kind, std::vector<T> in, std::vector<T> got, std::uint64_t depth = 1) {
  return judge_scan<T>(kind, Op::sum, in, got, depth).count;
}

TEST(ScanOracle, IntegerScansWrap) {
  EXPECT_EQ(wrong<int>(ScanKind::inclusive, {INT_MAX, 1, 5}, {INT_MAX, INT_MIN, INT_MIN + 5}), 0u);
  EXPECT_EQ(wrong<int>(ScanKind::exclusive, {INT_MAX, 1, 5}, {0, INT_MAX, INT_MIN}), 0u);
  EXPECT_EQ(wrong<unsigned>(ScanKind::inclusive, {UINT_MAX, 2u}, {UINT_MAX, 1u}), 0u);
}

TEST(ScanOracle, CountsAndLocatesWrongOutputs) {
  const auto mismatches = judge_scan<int>(ScanKind::inclusive, Op::sum, std::vector<int>{1, 1, 1, 1, 1},
                                          std::vector<int>{1, 2, 4, 4, 6}, 1);
  EXPECT_EQ(mismatches.count, 2u);
  EXPECT_EQ(mismatches.first, 2u);
  EXPECT_EQ(mismatches.last, 4u);
  EXPECT_NE(mismatches.describe().find("first at 2: expected 3, got 4"), std::string::npos) << mismatches.describe();
}

// A wrong output costs a count: only the first and the last are described, so an entry whose
// every output is wrong stays as fast as a passing one.
TEST(ScanOracle, DescribesOnlyTheFirstAndTheLastWrongOutput) {
  harness::Mismatches mismatches;
  int described = 0;
  for (std::uint64_t i = 0; i < 1000; ++i) {
    mismatches.note(i, [&] { return "problem " + std::to_string(++described); });
  }
  mismatches.describe_last([&] { return "problem " + std::to_string(++described); });
  EXPECT_EQ(described, 2);
  EXPECT_EQ(mismatches.describe(), "1000 wrong outputs: first at 0: problem 1; last at 999: problem 2");
  const std::vector<float> ones(100000, 1.0f), zeros(100000, 0.0f);
  const auto all_wrong = judge_scan<float>(ScanKind::inclusive, Op::sum, ones, zeros, 1);
  EXPECT_EQ(all_wrong.count, 100000u);
  EXPECT_NE(all_wrong.describe().find("last at 99999: expected 100000 +- "), std::string::npos) << all_wrong.describe();
}

// Operators that are not commutative: folded left to right, exclusive[0] is the identity.
TEST(ScanOracle, OrderOperatorsFoldLeftToRightFromTheirIdentity) {
  const std::vector<int> sparse{0, 4, 0, 0, 9, 0};
  EXPECT_EQ(judge_scan<int>(ScanKind::inclusive, Op::last_nonzero, sparse, std::vector<int>{0, 4, 4, 4, 9, 9}, 0).count,
            0u);
  EXPECT_EQ(judge_scan<int>(ScanKind::exclusive, Op::last_nonzero, sparse, std::vector<int>{0, 0, 4, 4, 4, 9}, 0).count,
            0u);
  // A kernel that keeps the first non-zero value instead (op(b, a)) differs from 9 on.
  EXPECT_EQ(judge_scan<int>(ScanKind::inclusive, Op::last_nonzero, sparse, std::vector<int>{0, 4, 4, 4, 4, 4}, 0).count,
            2u);
  // Unitriangular words x = a 1, y = b 1: x then y gives c = 1; y then x gives c = 0.
  const std::vector<long long> words{1, 1ll << 22};
  const long long in_order = (1ll << 43) | (1ll << 22) | 1, swapped = (1ll << 22) | 1;
  EXPECT_EQ(judge_scan<long long>(ScanKind::inclusive, Op::unitriangular, words, std::vector<long long>{1, in_order}, 0)
                .count,
            0u);
  EXPECT_EQ(
      judge_scan<long long>(ScanKind::inclusive, Op::unitriangular, words, std::vector<long long>{1, swapped}, 0).count,
      1u);
  const auto matrix = kernels::parse_op("matrix2x2_mod16");  // registered by a fixture
  ASSERT_TRUE(matrix.has_value());
  EXPECT_EQ(
      judge_scan<long long>(ScanKind::exclusive, *matrix, words, std::vector<long long>{1ll | 1ll << 48, 1}, 0).count,
      0u);
}

TEST(ScanOracle, ExclusiveStartsFromPositiveZeroAndFollowsTheInclusiveSigns) {
  EXPECT_EQ(wrong<float>(ScanKind::exclusive, {-0.0f, -0.0f}, {0.0f, -0.0f}), 0u);
  EXPECT_EQ(wrong<float>(ScanKind::exclusive, {-0.0f, -0.0f}, {-0.0f, -0.0f}), 1u);  // element 0 is +0.0
  EXPECT_EQ(wrong<float>(ScanKind::exclusive, {-0.0f, -0.0f}, {0.0f, 0.0f}), 1u);    // element 1 sums {-0.0}
  EXPECT_EQ(wrong<float>(ScanKind::inclusive, {-0.0f, -0.0f, 0.0f}, {-0.0f, -0.0f, 0.0f}), 0u);
  EXPECT_EQ(wrong<float>(ScanKind::inclusive, {-0.0f, 0.0f}, {-0.0f, -0.0f}), 1u);
}

// A variant that declares +0.0 for sums of zeros (an accumulator started at +0.0, as CUB's) is
// held to exactly that, and IEEE's signs then fail it.
TEST(ScanOracle, ADeclaredPositiveZeroSumIsHeldToPositiveZeros) {
  const std::vector<float> zeros{-0.0f, -0.0f};
  const auto wrong_positive = [&](ScanKind kind, std::vector<float> got) {
    return judge_scan<float>(kind, Op::sum, zeros, got, 1, true).count;
  };
  EXPECT_EQ(wrong_positive(ScanKind::inclusive, {0.0f, 0.0f}), 0u);
  EXPECT_EQ(wrong_positive(ScanKind::inclusive, {-0.0f, -0.0f}), 2u);
  EXPECT_EQ(wrong_positive(ScanKind::exclusive, {0.0f, 0.0f}), 0u);
  EXPECT_EQ(wrong_positive(ScanKind::exclusive, {0.0f, -0.0f}), 1u);
}

TEST(ScanOracle, NaNPropagatesFromItsPosition) {
  EXPECT_EQ(wrong<float>(ScanKind::inclusive, {1, kNaN, 2}, {1, kNaN, kNaN}), 0u);
  EXPECT_EQ(wrong<float>(ScanKind::exclusive, {1, kNaN, 2}, {0, 1, kNaN}), 0u);
  EXPECT_EQ(wrong<float>(ScanKind::inclusive, {1, kNaN, 2}, {1, kNaN, 3}), 1u);
}

TEST(ScanOracle, FloatBoundFollowsThePrefixOfAbsoluteValues) {
  // Prefix sums 1e8, 1e8 + 1, 1; the last may be off by gamma(1) * (2e8 + 1), about 12.
  EXPECT_EQ(wrong<float>(ScanKind::inclusive, {1e8f, 1, -1e8f}, {1e8f, 1e8f, 0}, 1), 0u);
  EXPECT_EQ(wrong<float>(ScanKind::inclusive, {1e8f, 1, -1e8f}, {1e8f, 1e8f, 20}, 1), 1u);
  EXPECT_EQ(wrong<float>(ScanKind::inclusive, {1e8f, 1, -1e8f}, {1e8f, 1e8f, 0}, 0), 2u);  // 1e8 + 1 and 1 are exact
}

// The judge's fast path may only accept what its exact path accepts, for float and double.
template <class T>
void expect_fast_path_never_looser() {
  std::uint64_t accepted = 0;
  for (std::uint64_t trial = 0; trial < 20000; ++trial) {
    harness::FloatSumFacts facts;
    const std::uint64_t terms = 1 + harness::random_bits(1, trial) % 50;
    for (std::uint64_t k = 0; k < terms; ++k) {
      facts.add(static_cast<T>(static_cast<double>(harness::random_bits(trial, k) % 2001) - 1000) / T(7));
    }
    const std::uint64_t depth = 1 + trial % 40;
    const harness::FloatSumJudge<T> judge(depth);
    // Candidates around the edge of the bound.
    const long double bound =
        std::ldexp(static_cast<long double>(depth), -std::numeric_limits<T>::digits) * facts.abs_sum;
    for (long double scale : {0.5L, 0.999L, 1.0L, 1.001L, 2.0L}) {
      for (long double sign : {-1.0L, 1.0L}) {
        const T got = static_cast<T>(facts.exact() + sign * scale * bound);
        if (judge.accepts(facts, got)) {
          ++accepted;
          EXPECT_FALSE(judge.judge(facts, got).has_value()) << "fast path accepted what the exact one rejects";
        }
      }
    }
  }
  EXPECT_GT(accepted, 1000u) << "the fast path must actually be taken";
}

TEST(FloatSumJudge, FastPathIsNeverLooserThanTheExactOne) {
  expect_fast_path_never_looser<float>();
  expect_fast_path_never_looser<double>();
}

}  // namespace
