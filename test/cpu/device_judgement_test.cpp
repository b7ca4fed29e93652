// The device judges' checks, run on the host over planted wrong outputs (the GPU test
// test/device/judges/device_judges_test.cpp runs the same plants on the device), and the policy of what
// the CPU oracle still judges (runner/device_judgement.hpp).
#include "harness/runner/device_judgement.hpp"
#include "harness/input/distributions.hpp"
#include "harness/numeric/element_traits.hpp"
#include "harness/numeric/float_sum.hpp"
#include "harness/numeric/prefix_sum_facts.hpp"
#include "harness/scan/scan_device_judge.hpp"
#include "harness/scan/scan_oracle.hpp"
#include "harness/scan/serial_sums.hpp"
#include "harness/sort/sort_device_judge.hpp"
#include "harness/sort/sort_oracle.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace {

using harness::DeviceJudgement;
using harness::DeviceVerdict;
using kernels::Op;
using kernels::ScanKind;

// The positions of out that fail the scan check, found on the host.
template <class T>
std::vector<std::uint64_t> failing_scan_positions(Op op, ScanKind kind, const std::vector<T>& in,
                                                  const std::vector<T>& out) {
  std::vector<std::uint64_t> failing;
  harness::with_exact_step<T>(op, [&](auto step) {
    for (std::uint64_t i = 0; i < out.size(); ++i) {
      if (!harness::scan_output_holds(step, kind == ScanKind::inclusive, in.data(), out.data(), i))
        failing.push_back(i);
    }
  });
  return failing;
}

// The first of the failing positions, if any: a check that no longer fails gives a test failure,
// not a read of an empty vector.
std::optional<std::uint64_t> first(const std::vector<std::uint64_t>& failing) {
  if (failing.empty()) return std::nullopt;
  return failing.front();
}

// The oracle's own scan (a fold by reference, or the wrapping sum), as the kernel should write it.
template <class T>
std::vector<T> oracle_scan(Op op, ScanKind kind, const std::vector<T>& in) {
  std::vector<T> out(in.size());
  harness::with_exact_step<T>(op, [&](auto step) {
    T prefix = decltype(step)::identity();
    for (std::size_t i = 0; i < in.size(); ++i) {
      if (kind == ScanKind::inclusive) prefix = step(prefix, in[i]);
      out[i] = prefix;
      if (kind == ScanKind::exclusive) prefix = step(prefix, in[i]);
    }
  });
  // The check's steps are the kernels' combine(); the oracle folds by reference(): they agree.
  EXPECT_EQ(harness::judge_scan<T>(kind, op, in, out, 1).count, 0u);
  return out;
}

// The device's rule for a prefix of zeros is the oracle's, both ways: IEEE's -0.0 when every term
// is -0.0 by default, +0.0 where the variant declares it.
TEST(DeviceFloatScanRule, SumsOfNegativeZerosFollowTheDeclaredZero) {
  harness::PrefixSumFacts facts;
  facts.add(-0.0);
  facts.add(-0.0);
  const double gamma = harness::FloatSumJudge<float>(2).bound_factor();
  const double max_finite = harness::as_double(harness::limits<float>::max());
  EXPECT_TRUE(harness::prefix_sum_acceptable(facts, -0.0, gamma, max_finite));
  EXPECT_FALSE(harness::prefix_sum_acceptable(facts, 0.0, gamma, max_finite));
  EXPECT_TRUE(harness::prefix_sum_acceptable(facts, 0.0, gamma, max_finite, true));
  EXPECT_FALSE(harness::prefix_sum_acceptable(facts, -0.0, gamma, max_finite, true));
}
TEST(ScanDeviceJudge, PassesTheOraclesScanAndFindsTheFirstPlantedWrongOutput) {
  const std::vector<long long> in{5, 0, -3, 0, 0, 7, 1ll << 40, -2, 0, 9, 0, 4};
  for (Op op : {Op::sum, Op::last_nonzero, Op::unitriangular}) {
    for (ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
      std::vector<long long> out = oracle_scan(op, kind, in);
      EXPECT_TRUE(failing_scan_positions(op, kind, in, out).empty()) << kernels::name(op);
      out[6] ^= 1 << 3;  // one wrong output: it and the next fail the step
      EXPECT_EQ(first(failing_scan_positions(op, kind, in, out)), 6u) << kernels::name(op);
    }
  }
}

TEST(ScanDeviceJudge, FindsOperandsSwappedAndAWrongFirstOutput) {
  const std::vector<long long> in{0, 3, 0, 0, 8, 0};
  std::vector<long long> kept_first{0, 3, 3, 3, 3, 3};  // op(b, a): the first non-zero value
  EXPECT_EQ(first(failing_scan_positions(Op::last_nonzero, ScanKind::inclusive, in, kept_first)), 4u);
  std::vector<int> sums{1, 3, 6};
  const std::vector<int> ones_to_three{1, 2, 3};
  EXPECT_TRUE(failing_scan_positions(Op::sum, ScanKind::inclusive, ones_to_three, sums).empty());
  sums[0] = 0;  // the first output skipped the identity's step
  EXPECT_EQ(first(failing_scan_positions(Op::sum, ScanKind::inclusive, ones_to_three, sums)), 0u);
  const std::vector<int> exclusive{1, 1, 3};  // should start with the identity 0
  EXPECT_EQ(first(failing_scan_positions(Op::sum, ScanKind::exclusive, ones_to_three, exclusive)), 0u);
}

std::vector<harness::JudgedRun> sizes(const std::vector<std::uint64_t>& lengths) {
  std::vector<harness::JudgedRun> runs;
  for (std::uint64_t n : lengths) runs.push_back({n, 32});
  return runs;
}

// The positions of a float sum scan's output that the device judge fails, its facts made as the
// kernels make them: each chunk's from those of its pieces (a thread's positions), each prefix
// from the chunks before it, the pieces before it in its chunk, and the positions before it; or
// nothing when a prefix leaves the doubles (the oracle judges such a run).
template <class T>
std::optional<std::vector<std::uint64_t>> failing_float_scan_positions(ScanKind kind, const std::vector<T>& in,
                                                                       const std::vector<T>& out, std::uint64_t depth) {
  using harness::PrefixSumFacts;
  constexpr std::size_t kChunk = 64, kPiece = 4;
  const double gamma = harness::FloatSumJudge<T>(depth).bound_factor();
  const double max_finite = harness::as_double(harness::limits<T>::max());
  const auto facts_of = [&](std::size_t begin, std::size_t end) {
    PrefixSumFacts facts;
    for (std::size_t i = begin; i < std::min(end, in.size()); ++i) facts.add(harness::as_double(in[i]));
    return facts;
  };
  std::vector<std::uint64_t> failing;
  PrefixSumFacts chunks_before;
  for (std::size_t chunk = 0; chunk < in.size(); chunk += kChunk) {
    PrefixSumFacts pieces_before;
    for (std::size_t piece = chunk; piece < std::min(chunk + kChunk, in.size()); piece += kPiece) {
      PrefixSumFacts facts = PrefixSumFacts::combine(chunks_before, pieces_before);
      for (std::size_t i = piece; i < std::min(piece + kPiece, in.size()); ++i) {
        if (kind == ScanKind::inclusive) facts.add(harness::as_double(in[i]));
        if (facts.judged_by_oracle()) return std::nullopt;
        if (!harness::prefix_sum_acceptable(facts, harness::as_double(out[i]), gamma, max_finite)) failing.push_back(i);
        if (kind == ScanKind::exclusive) facts.add(harness::as_double(in[i]));
      }
      pieces_before = PrefixSumFacts::combine(pieces_before, facts_of(piece, piece + kPiece));
    }
    chunks_before = PrefixSumFacts::combine(chunks_before, facts_of(chunk, chunk + kChunk));
  }
  return failing;
}

// The positions the oracle fails: its count and first must be the device judge's. Only sums of
// doubles near the largest finite value leave the doubles.
template <class T>
void expect_float_judges_agree(ScanKind kind, const std::vector<T>& in, const std::vector<T>& out, std::uint64_t depth,
                               const std::string& what, bool may_leave_doubles) {
  const harness::Mismatches oracle = harness::judge_scan<T>(kind, Op::sum, in, out, depth);
  const auto device = failing_float_scan_positions(kind, in, out, depth);
  if (!device) {
    EXPECT_TRUE(may_leave_doubles) << what;
    return;
  }
  EXPECT_EQ(device->size(), oracle.count) << what;
  if (oracle.count > 0) {
    EXPECT_EQ(first(*device), oracle.first) << what;
  }
}

template <class T>
void expect_float_judges_agree_on_plants() {
  using harness::Distribution;
  const std::string type = std::to_string(sizeof(T)) + "-byte float";
  for (Distribution distribution : harness::kAllDistributions) {
    if (!harness::applies_to(distribution, kernels::TypeKey::float32)) continue;
    const std::vector<T> in = harness::generate<T>(distribution, 1000, 5);
    for (ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
      const std::string what =
          type + ", " + std::string(harness::name(distribution)) + ", " + std::string(kernels::name(kind));
      const bool near_the_largest_double =
          sizeof(T) == 8 && (distribution == Distribution::max || distribution == Distribution::alternating ||
                             distribution == Distribution::two_values);
      const std::vector<T> right = harness::serial_sums(kind, in);
      expect_float_judges_agree(kind, in, right, in.size(), what, near_the_largest_double);
      expect_float_judges_agree(kind, in, right, 1, what + ", depth 1", near_the_largest_double);
      std::vector<T> planted = right;
      planted[0] = harness::from_double<T>(0.5);  // an exclusive scan starts with +0.0
      planted[700] = harness::limits<T>::quiet_NaN();
      planted[998] = harness::negated(planted[998]);
      planted[999] = harness::from_double<T>(harness::as_double(planted[999]) * 2 + 1);
      expect_float_judges_agree(kind, in, planted, in.size(), what + ", planted", near_the_largest_double);
    }
  }
}

TEST(FloatScanDeviceJudge, AgreesWithTheOracleOnRightAndPlantedOutputsOfEveryDistribution) {
  expect_float_judges_agree_on_plants<float>();
  expect_float_judges_agree_on_plants<double>();
  expect_float_judges_agree_on_plants<__half>();
  expect_float_judges_agree_on_plants<__nv_bfloat16>();
}

// Under compute-sanitizer the oracle judges every run, and its verdicts are the batch's.
TEST(DeviceJudgement, ByTheOracleJudgesEveryRunOnTheHost) {
  const DeviceJudgement judgement = DeviceJudgement::by_the_oracle(sizes({3, 70001, 1}));
  EXPECT_FALSE(judgement.sampled().has_value());
  for (std::size_t r = 0; r < 3; ++r) EXPECT_TRUE(judgement.judged_on_host(r)) << r;
  EXPECT_EQ(judgement.agree(1, std::string("wrong at 5")), std::optional<std::string>("wrong at 5"));
  EXPECT_EQ(judgement.agree(2, std::nullopt), std::nullopt);
}

// An output no rounding reaches (accumulation depth 0, gamma 0: a one-thread block's scan) of the largest double is
// that double exactly; the judge once multiplied gamma 0 by its bound, overflowed to inf, and judged NaN (found by
// the scan template's variant at block size 1).
TEST(DeviceFloatScanRule, AnExactOutputOfTheLargestDoubleIsJudgedExactly) {
  harness::PrefixSumFacts facts;
  facts.add(harness::limits<double>::max());
  const double max_finite = harness::limits<double>::max();
  EXPECT_TRUE(harness::prefix_sum_acceptable(facts, harness::limits<double>::max(), 0.0, max_finite));
  EXPECT_FALSE(harness::prefix_sum_acceptable(facts, harness::limits<double>::max() / 2, 0.0, max_finite));
  EXPECT_FALSE(harness::prefix_sum_acceptable(facts, std::nextafter(max_finite, 0.0), 0.0, max_finite));
}

// Doubles whose sums leave the doubles are the oracle's to judge (it sums them in long double).
TEST(FloatScanDeviceJudge, LeavesSumsBeyondTheDoublesToTheOracle) {
  harness::PrefixSumFacts facts;
  facts.add(harness::limits<double>::max());
  EXPECT_FALSE(facts.judged_by_oracle());
  facts.add(harness::limits<double>::max());
  EXPECT_TRUE(facts.judged_by_oracle());
  harness::PrefixSumFacts one_max;
  one_max.add(harness::limits<double>::max());
  EXPECT_TRUE(harness::PrefixSumFacts::combine(one_max, one_max).judged_by_oracle());
  const DeviceJudgement judgement({{0, harness::kNoBadIndex, true}, {}}, sizes({10, 10}), 3, "a check");
  EXPECT_TRUE(judgement.judged_on_host(0));
  EXPECT_EQ(judgement.sampled(), std::optional<std::size_t>(1)) << "an undecided run is no sample";
  EXPECT_EQ(judgement.agree(0, std::string("wrong at 2")), std::optional<std::string>("wrong at 2"));
  EXPECT_EQ(judgement.agree(0, std::nullopt), std::nullopt);
}

// The positions of a sort's output that fail the per-position check, found on the host.
template <class K>
std::vector<std::uint64_t> failing_sort_positions(const std::vector<K>& in, const std::vector<K>& keys,
                                                  const std::vector<std::uint32_t>& values) {
  const harness::SortJudgeRun<K> run{in.data(), keys.data(), values.empty() ? nullptr : values.data(), in.size()};
  std::vector<std::uint64_t> failing;
  for (std::uint64_t i = 0; i < in.size(); ++i) {
    if (!harness::sort_position_holds(run, i)) failing.push_back(i);
  }
  return failing;
}

TEST(SortDeviceJudge, PassesTheOraclesSortAndFindsEachPlantedBreach) {
  const std::vector<int> in{3, -1, 3, 7, -1, 0, 3};
  const harness::SortExpectation<int> expected = harness::expect_sort<int>(in);
  EXPECT_TRUE(failing_sort_positions(in, expected.keys, expected.order).empty());
  EXPECT_TRUE(failing_sort_positions(in, expected.keys, {}).empty());

  std::vector<int> out_of_order = expected.keys;
  std::swap(out_of_order[1], out_of_order[2]);
  EXPECT_EQ(first(failing_sort_positions(in, out_of_order, {})), 2u);

  std::vector<std::uint32_t> unstable = expected.order;  // the two -1s: input indices 1, 4
  std::swap(unstable[0], unstable[1]);
  EXPECT_EQ(first(failing_sort_positions(in, expected.keys, unstable)), 1u);

  std::vector<std::uint32_t> wrong_index = expected.order;
  wrong_index[3] = 3;  // names the key 7 where the output holds 3
  EXPECT_EQ(first(failing_sort_positions(in, expected.keys, wrong_index)), 3u);

  std::vector<std::uint32_t> past_the_end = expected.order;
  past_the_end[6] = 7;
  EXPECT_EQ(first(failing_sort_positions(in, expected.keys, past_the_end)), 6u);
}

TEST(SortDeviceJudge, OrdersFloatsByTotalOrder) {
  using harness::limits;
  const std::vector<float> in{0.0f, -0.0f, limits<float>::quiet_NaN(), -limits<float>::quiet_NaN(), 1.0f};
  const harness::SortExpectation<float> expected = harness::expect_sort<float>(in);
  EXPECT_TRUE(failing_sort_positions(in, expected.keys, expected.order).empty());
  std::vector<float> zeros_swapped = expected.keys;  // -NaN, -0.0, +0.0, 1, +NaN
  std::swap(zeros_swapped[1], zeros_swapped[2]);
  EXPECT_EQ(first(failing_sort_positions(in, zeros_swapped, {})), 2u);
}

TEST(DeviceJudgement, TheHostJudgesOneSampledShortRunAndTheSmallestFailures) {
  const std::vector<std::uint64_t> lengths{1u << 24, 9, 1u << 22, 5, 7, 3, 11, 1u << 21};
  std::vector<DeviceVerdict> verdicts(lengths.size());
  for (std::size_t r : {0u, 1u, 3u, 4u, 6u, 7u}) verdicts[r] = {2, 0};
  const DeviceJudgement judgement(verdicts, sizes(lengths), 42, "a check");
  ASSERT_TRUE(judgement.sampled().has_value());
  EXPECT_LE(lengths[*judgement.sampled()], harness::kLongestSampled);
  std::vector<std::size_t> on_host;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    if (judgement.judged_on_host(r) && r != judgement.sampled()) on_host.push_back(r);
  }
  // The four shortest failing runs: n = 5, 7, 9, 11 (the sample may be one of them).
  for (std::size_t r : {1u, 3u, 4u, 6u}) EXPECT_TRUE(judgement.judged_on_host(r)) << r;
  EXPECT_FALSE(judgement.judged_on_host(0));
  EXPECT_LE(on_host.size(), harness::kDescribedOnHost);
  ASSERT_TRUE(judgement.verdict(0).has_value());
  EXPECT_NE(judgement.verdict(0)->find("2 outputs fail the device judge's check (a check), the first at 0"),
            std::string::npos);
  EXPECT_FALSE(judgement.verdict(2).has_value());
}

// A batch of long runs only (a test's longest lengths) is the device's alone, unless one fails.
TEST(DeviceJudgement, ABatchOfLongRunsOnlyHasNoSample) {
  const std::vector<std::uint64_t> lengths{(1u << 24) + 1, harness::kLongestSampled + 1};
  const DeviceJudgement passing({{}, {}}, sizes(lengths), 7, "a check");
  EXPECT_FALSE(passing.sampled().has_value());
  EXPECT_FALSE(passing.judged_on_host(0));
  EXPECT_FALSE(passing.judged_on_host(1));
  const DeviceJudgement failing({{}, {3, 1}}, sizes(lengths), 7, "a check");
  EXPECT_FALSE(failing.judged_on_host(0));
  EXPECT_TRUE(failing.judged_on_host(1));
}

TEST(DeviceJudgement, AJudgeThatDisagreesWithTheOracleFailsTheRun) {
  const DeviceJudgement judgement({{0, harness::kNoBadIndex}, {1, 4}}, sizes({10, 10}), 1, "a check");
  EXPECT_EQ(judgement.agree(0, std::nullopt), std::nullopt);
  EXPECT_EQ(judgement.agree(1, std::string("wrong at 4")), std::optional<std::string>("wrong at 4"));
  ASSERT_TRUE(judgement.agree(0, std::string("wrong at 4")).has_value());
  EXPECT_NE(
      judgement.agree(0, std::string("wrong at 4"))->find("the device judge passed what the CPU oracle finds wrong"),
      std::string::npos);
  ASSERT_TRUE(judgement.agree(1, std::nullopt).has_value());
  EXPECT_NE(judgement.agree(1, std::nullopt)->find("the CPU oracle passed what the device judge finds wrong"),
            std::string::npos);
}

}  // namespace
