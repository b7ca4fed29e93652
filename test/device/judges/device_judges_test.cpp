// The device judges find what the CPU oracle finds: each passes an output the oracle passes, and
// fails a planted wrong output at the position where the plant is, on the GPU (the float scan
// judge as many positions as the oracle); the reduction judge's fold is the oracle's, and
// differs from the fold of a planted wrong input; the comparison of repeats finds the first
// planted byte.
#include "harness/input/distributions.hpp"
#include "harness/memory/device_buffer.hpp"
#include "harness/memory/device_compare.hpp"
#include "harness/numeric/element_traits.hpp"
#include "harness/numeric/float_sum.hpp"
#include "harness/reduce/reduce_device_judge.hpp"
#include "harness/reduce/reduce_oracle.hpp"
#include "harness/scan/scan_device_judge.hpp"
#include "harness/scan/scan_oracle.hpp"
#include "harness/scan/serial_sums.hpp"
#include "harness/sort/sort_device_judge.hpp"
#include "harness/sort/sort_oracle.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <vector>

namespace {

using harness::DeviceBuffer;
using harness::DeviceVerdict;
using harness::kNoBadIndex;
using kernels::Op;
using kernels::ScanKind;

constexpr std::uint64_t kLength = 100003;  // several chunks, the last one partial

template <class T>
DeviceBuffer<T> on_device(const std::vector<T>& values) {
  return DeviceBuffer<T>(std::span<const T>(values));
}

// The inclusive scan by the oracle's own fold (checked against the oracle).
std::vector<long long> scanned(Op op, const std::vector<long long>& in) {
  std::vector<long long> out(in.size());
  harness::with_exact_step<long long>(op, [&](auto step) {
    long long prefix = decltype(step)::identity();
    for (std::size_t i = 0; i < in.size(); ++i) out[i] = prefix = step(prefix, in[i]);
  });
  EXPECT_EQ(harness::judge_scan<long long>(ScanKind::inclusive, op, in, out, 1).count, 0u);
  return out;
}

TEST(DeviceJudges, ScanPassesTheOraclesOutputAndFailsAtEachPlant) {
  const std::vector<long long> in = harness::generate<long long>(harness::Distribution::sparse, kLength, 7);
  for (Op op : {Op::sum, Op::last_nonzero, Op::unitriangular}) {
    const std::vector<long long> right = scanned(op, in);
    std::vector<long long> wrong_late = right, wrong_first = right;
    wrong_late[kLength - 3] += 1;
    wrong_first[0] ^= 1ll << 62;
    const auto d_in = on_device(in);
    const auto d_right = on_device(right), d_late = on_device(wrong_late), d_first = on_device(wrong_first);
    const std::vector<DeviceVerdict> verdicts =
        harness::judge_scans_on_device<long long>(ScanKind::inclusive, op,
                                                  {{d_in.data(), d_right.data(), kLength},
                                                   {d_in.data(), d_late.data(), kLength},
                                                   {d_in.data(), d_first.data(), kLength},
                                                   {d_in.data(), d_first.data(), 0}});
    EXPECT_EQ(verdicts[0].mismatches, 0u) << kernels::name(op);
    EXPECT_GE(verdicts[1].mismatches, 1u) << kernels::name(op);
    EXPECT_EQ(verdicts[1].first_bad, kLength - 3) << kernels::name(op);
    EXPECT_EQ(verdicts[2].first_bad, 0u) << kernels::name(op);
    EXPECT_EQ(verdicts[3].mismatches, 0u) << "an empty run";
    EXPECT_EQ(verdicts[3].first_bad, kNoBadIndex);
  }
}

// The oracle passes the serial sums at this depth (16 for the 16-bit floats, whose bound is
// unbounded at depth n); the device judge passes them too, and fails a plant of 4096 (far from
// every sum here) at the position of the plant, as many positions as the oracle.
template <class T>
void expect_float_scan_verdicts(harness::Distribution distribution) {
  const std::vector<T> in = harness::generate<T>(distribution, kLength, 13);
  const std::uint64_t depth = sizeof(T) == 2 ? 16 : kLength;
  const double gamma = harness::FloatSumJudge<T>(depth).bound_factor();
  for (ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
    const std::string what = std::to_string(sizeof(T)) + "-byte floats, " + std::string(harness::name(distribution)) +
                             ", " + std::string(kernels::name(kind));
    const std::vector<T> right = harness::serial_sums(kind, in);
    ASSERT_EQ(harness::judge_scan<T>(kind, Op::sum, in, right, depth).count, 0u) << what;
    std::vector<T> late = right, first_wrong = right;
    late[kLength - 3] = first_wrong[0] = harness::from_double<T>(4096.0);
    const auto d_in = on_device(in), d_right = on_device(right), d_late = on_device(late),
               d_first = on_device(first_wrong);
    const std::vector<DeviceVerdict> verdicts =
        harness::judge_float_scans_on_device<T>(kind, {{d_in.data(), d_right.data(), kLength, gamma},
                                                       {d_in.data(), d_late.data(), kLength, gamma},
                                                       {d_in.data(), d_first.data(), kLength, gamma},
                                                       {d_in.data(), d_first.data(), 0, gamma}});
    EXPECT_EQ(verdicts[0].mismatches, 0u) << what;
    EXPECT_EQ(verdicts[1].mismatches, harness::judge_scan<T>(kind, Op::sum, in, late, depth).count) << what;
    EXPECT_EQ(verdicts[1].first_bad, kLength - 3) << what;
    EXPECT_EQ(verdicts[2].first_bad, 0u) << what;
    EXPECT_EQ(verdicts[3].mismatches, 0u) << what << ": an empty run";
    for (const DeviceVerdict& verdict : verdicts) EXPECT_FALSE(verdict.undecided) << what;
  }
}

TEST(DeviceJudges, FloatScanPassesASerialScanAndFailsAtEachPlant) {
  expect_float_scan_verdicts<float>(harness::Distribution::random);
  expect_float_scan_verdicts<float>(harness::Distribution::specials);
  expect_float_scan_verdicts<double>(harness::Distribution::cancellation);
  expect_float_scan_verdicts<__half>(harness::Distribution::random);
  expect_float_scan_verdicts<__nv_bfloat16>(harness::Distribution::denormals);
}

// Sums of doubles near the largest finite value leave the doubles: the oracle judges them.
TEST(DeviceJudges, FloatScanLeavesSumsBeyondTheDoublesUndecided) {
  const std::vector<double> in = harness::generate<double>(harness::Distribution::max, kLength, 1);
  const std::vector<double> out = harness::serial_sums(ScanKind::inclusive, in);
  const auto d_in = on_device(in), d_out = on_device(out);
  const std::vector<DeviceVerdict> verdicts = harness::judge_float_scans_on_device<double>(
      ScanKind::inclusive,
      {{d_in.data(), d_out.data(), kLength, harness::FloatSumJudge<double>(kLength).bound_factor()},
       {d_in.data(), d_out.data(), 1, harness::FloatSumJudge<double>(1).bound_factor()}});
  EXPECT_TRUE(verdicts[0].undecided);
  EXPECT_FALSE(verdicts[1].undecided) << "one largest double is a double";
  EXPECT_EQ(verdicts[1].mismatches, 0u);
}

TEST(DeviceJudges, SortPassesTheOraclesOutputAndFailsAtEachPlant) {
  const std::vector<float> in = harness::generate<float>(harness::Distribution::specials, kLength, 9);
  const harness::SortExpectation<float> expected = harness::expect_sort<float>(in);
  std::vector<float> swapped = expected.keys;
  std::swap(swapped[500], swapped[kLength - 1]);  // the largest key at 500: out of order at 501
  std::vector<float> replaced = expected.keys;    // in order, but not the input's multiset
  replaced[kLength - 1] = expected.keys[kLength - 2];
  std::vector<std::uint32_t> unstable = expected.order;
  std::uint64_t tie = 1;
  while (std::memcmp(&expected.keys[tie], &expected.keys[tie - 1], sizeof(float)) != 0) ++tie;
  std::swap(unstable[tie - 1], unstable[tie]);
  const auto d_in = on_device(in), d_right = on_device(expected.keys), d_swapped = on_device(swapped),
             d_replaced = on_device(replaced);
  const auto d_order = on_device(expected.order), d_unstable = on_device(unstable);
  const std::vector<DeviceVerdict> verdicts = harness::judge_sorts_on_device<float>({
      {d_in.data(), d_right.data(), nullptr, kLength},
      {d_in.data(), d_right.data(), d_order.data(), kLength},
      {d_in.data(), d_swapped.data(), nullptr, kLength},
      {d_in.data(), d_replaced.data(), nullptr, kLength},
      {d_in.data(), d_right.data(), d_unstable.data(), kLength},
      {d_in.data(), d_replaced.data(), d_order.data(), kLength},
  });
  EXPECT_EQ(verdicts[0].mismatches, 0u);
  EXPECT_EQ(verdicts[1].mismatches, 0u);
  EXPECT_EQ(verdicts[2].first_bad, 501u) << "the first key smaller than the one before it";
  EXPECT_EQ(verdicts[3].mismatches, 1u) << "the fingerprint, with no position";
  EXPECT_EQ(verdicts[3].first_bad, kNoBadIndex);
  EXPECT_EQ(verdicts[4].first_bad, tie) << "equal keys out of their input order";
  EXPECT_EQ(verdicts[5].first_bad, kLength - 1) << "a value whose input key is not the output's";
}

// The exact fold of each input, on the device, as the oracle folds it: the widening sum, a sum
// that wraps in 8 bits, max, and the non-commutative ops, whose fold of the reversed input (what
// a fold that lost operand order would compute) differs.
template <class In, class Out>
void expect_device_folds_are_the_oracles(Op op, harness::Distribution distribution) {
  const std::vector<In> in = harness::generate<In>(distribution, kLength, 11);
  const std::vector<In> reversed(in.rbegin(), in.rend());
  // The last value made the type's largest (or lowest, if it was the largest): every op here sees it.
  const In last = in[kLength - 1];
  std::vector<In> planted(in.begin(), in.begin() + (kLength - 1));
  planted.push_back(last == std::numeric_limits<In>::max() ? std::numeric_limits<In>::lowest()
                                                           : std::numeric_limits<In>::max());
  const auto d_in = on_device(in), d_reversed = on_device(reversed), d_planted = on_device(planted);
  const std::vector<Out> folds = harness::exact_folds_on_device<In, Out>(
      op, {{d_in.data(), kLength}, {d_reversed.data(), kLength}, {d_planted.data(), kLength}, {d_in.data(), 0}});
  const std::string what = std::string(kernels::name(op)) + " over " + std::to_string(sizeof(In)) + "-byte values";
  const auto oracle = [&](const std::vector<In>& values) {
    return harness::expect_reduce<In, Out>(op, std::span<const In>(values)).value;
  };
  EXPECT_EQ(folds[0], oracle(in)) << what;
  EXPECT_EQ(folds[1], oracle(reversed)) << what;
  EXPECT_EQ(folds[2], oracle(planted)) << what;
  EXPECT_NE(folds[2], folds[0]) << what << ": a changed value changes the fold";
  EXPECT_EQ(folds[3], oracle({})) << what << ": an empty input folds to the identity";
  if (!kernels::is_commutative(op)) {
    EXPECT_NE(folds[1], folds[0]) << what << ": the fold keeps operand order";
  }
}

TEST(DeviceJudges, ReductionFoldsAreTheOraclesAndOrderKeeping) {
  expect_device_folds_are_the_oracles<int, long long>(Op::sum, harness::Distribution::random);
  expect_device_folds_are_the_oracles<std::int8_t, std::int8_t>(Op::sum, harness::Distribution::random);
  expect_device_folds_are_the_oracles<unsigned long long, unsigned long long>(Op::max, harness::Distribution::random);
  expect_device_folds_are_the_oracles<long long, long long>(Op::last_nonzero, harness::Distribution::sparse);
  expect_device_folds_are_the_oracles<long long, long long>(Op::unitriangular, harness::Distribution::random);
  EXPECT_FALSE((harness::folds_on_device<float, float>(Op::sum))) << "float sums are judged by their bound";
  EXPECT_FALSE((harness::folds_on_device<int, long long>(Op::max))) << "a widening reduction folds exactly as a sum";
}

// Float max and min fold on the device as the oracle folds them: the first NaN (its payload), and
// -0.0 below +0.0, whatever the order; the empty input's result is lowest() (max) or max() (min).
template <class T>
void expect_float_extremes_are_the_oracles(harness::Distribution distribution) {
  const std::vector<T> in = harness::generate<T>(distribution, kLength, 17);
  const std::vector<T> reversed(in.rbegin(), in.rend());
  const auto d_in = on_device(in), d_reversed = on_device(reversed);
  for (Op op : {Op::max, Op::min}) {
    const std::string what = std::string(kernels::name(op)) + " of " + std::to_string(sizeof(T)) + "-byte " +
                             std::string(harness::name(distribution));
    ASSERT_TRUE((harness::folds_on_device<T, T>(op))) << what;
    const std::vector<T> folds = harness::exact_folds_on_device<T, T>(
        op, {{d_in.data(), kLength}, {d_reversed.data(), kLength}, {d_in.data(), 0}});
    const auto oracle = [&](std::span<const T> values) { return harness::expect_reduce<T, T>(op, values).value; };
    EXPECT_TRUE(harness::same_value(folds[0], oracle(in))) << what;
    EXPECT_TRUE(harness::same_value(folds[1], oracle(reversed))) << what;
    EXPECT_TRUE(harness::same_value(folds[2], oracle({}))) << what << ": the empty input";
  }
}

TEST(DeviceJudges, FloatMaxAndMinFoldAsTheOracle) {
  expect_float_extremes_are_the_oracles<float>(harness::Distribution::specials);
  expect_float_extremes_are_the_oracles<float>(harness::Distribution::signed_zeros);
  expect_float_extremes_are_the_oracles<double>(harness::Distribution::nan);
  expect_float_extremes_are_the_oracles<__half>(harness::Distribution::specials);
  expect_float_extremes_are_the_oracles<__nv_bfloat16>(harness::Distribution::infinities);
}

// The facts of a float sum made on the device are the oracle's: the count and the special-value
// flags exactly, the sum within the reference error both allow, sum|x| within the oracle's own
// rounding allowance. (The verdicts the oracle's rules give with them are compared with the
// oracle's own in every batch's sampled run.)
template <class T>
void expect_sum_facts_are_the_oracles(harness::Distribution distribution) {
  const std::vector<T> in = harness::generate<T>(distribution, kLength, 19);
  const auto d_in = on_device(in);
  const harness::PrefixSumFacts device = harness::sum_facts_on_device<T>({{d_in.data(), kLength}})[0];
  const harness::FloatSumFacts host = harness::expect_reduce<T, T>(Op::sum, in).facts;
  const std::string what = std::to_string(sizeof(T)) + "-byte " + std::string(harness::name(distribution));
  ASSERT_FALSE(device.judged_by_oracle()) << what;
  EXPECT_EQ(device.count, host.count) << what;
  EXPECT_EQ((device.flags & harness::PrefixSumFacts::kNaN) != 0, host.has_nan) << what;
  EXPECT_EQ((device.flags & harness::PrefixSumFacts::kAllZero) != 0, host.all_zero) << what;
  EXPECT_EQ((device.flags & harness::PrefixSumFacts::kPositive) != 0, host.has_positive) << what;
  const long double difference = std::fabs(static_cast<long double>(device.high) + device.low - host.exact());
  EXPECT_LE(difference, 2 * host.reference_error()) << what;
  EXPECT_LE(std::fabs(device.abs_sum - host.abs_sum), static_cast<double>(host.abs_bound() - host.abs_sum)) << what;
}

TEST(DeviceJudges, FloatSumFactsAreTheOraclesWithinItsReferenceError) {
  expect_sum_facts_are_the_oracles<float>(harness::Distribution::random);
  expect_sum_facts_are_the_oracles<float>(harness::Distribution::specials);
  expect_sum_facts_are_the_oracles<double>(harness::Distribution::cancellation);
  expect_sum_facts_are_the_oracles<__half>(harness::Distribution::denormals);
  expect_sum_facts_are_the_oracles<__nv_bfloat16>(harness::Distribution::signed_zeros);
}

// The repeats' comparison finds the first differing byte of outputs of several regions at any
// alignment: nothing for the same bytes, the planted byte's offset within the concatenated
// regions otherwise, the first of two plants, and a difference in a later region past the sizes of
// the regions before it; and so for whole aligned buffers, compared by 16-byte words.
TEST(DeviceJudges, RepeatComparisonFindsTheFirstPlantedByte) {
  constexpr std::size_t kBytes = 300007;  // odd: neither region ends on a word
  std::vector<unsigned char> bytes(kBytes);
  for (std::size_t i = 0; i < kBytes; ++i) bytes[i] = static_cast<unsigned char>(i * 2654435761u >> 13);
  std::vector<unsigned char> late = bytes, twice = bytes;
  late[kBytes - 1] ^= 1;
  twice[70013] ^= 0x80;  // in the last 4 bytes of its 16-byte word
  twice[200003] ^= 0x01;
  const auto d_bytes = on_device(bytes), d_late = on_device(late), d_twice = on_device(twice);
  const auto d_copy = on_device(bytes);
  // Regions from byte 3 on (an odd alignment), split in two at byte 100003.
  const auto regions = [](const DeviceBuffer<unsigned char>& buffer) {
    return std::vector<harness::DeviceBytes>{{buffer.data() + 3, 100000}, {buffer.data() + 100003, kBytes - 100003}};
  };
  // Whole buffers (aligned: compared by 16-byte words, then the 7 bytes past the last word).
  const auto whole = [](const DeviceBuffer<unsigned char>& buffer) {
    return std::vector<harness::DeviceBytes>{{buffer.data(), kBytes}};
  };
  const std::vector<std::vector<harness::DeviceBytes>> firsts = {
      regions(d_bytes), regions(d_bytes), regions(d_bytes), {{d_bytes.data(), 0}},
      whole(d_bytes),   whole(d_bytes),   whole(d_bytes)};
  const std::vector<std::vector<harness::DeviceBytes>> seconds = {
      regions(d_bytes), regions(d_late), regions(d_twice), {{d_late.data(), 0}},
      whole(d_copy),    whole(d_late),   whole(d_twice)};
  const std::vector<std::optional<std::size_t>> found = harness::first_differences_on_device(firsts, seconds);
  ASSERT_EQ(found.size(), 7u);
  EXPECT_EQ(found[0], std::nullopt);
  EXPECT_EQ(found[1], std::optional<std::size_t>(kBytes - 1 - 3));
  EXPECT_EQ(found[2], std::optional<std::size_t>(70013 - 3));
  EXPECT_EQ(found[3], std::nullopt);
  EXPECT_EQ(found[4], std::nullopt);
  EXPECT_EQ(found[5], std::optional<std::size_t>(kBytes - 1));
  EXPECT_EQ(found[6], std::optional<std::size_t>(70013));
  // The inputs' guard check is one such pair.
  EXPECT_TRUE(harness::same_bytes_on_device(d_bytes.data(), d_copy.data(), kBytes));
  EXPECT_FALSE(harness::same_bytes_on_device(d_bytes.data(), d_twice.data(), kBytes));
  EXPECT_FALSE(harness::same_bytes_on_device(d_bytes.data(), d_late.data(), kBytes));
}

}  // namespace
