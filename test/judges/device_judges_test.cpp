// The device judges find what the CPU oracle finds: each passes an output the oracle passes, and
// fails a planted wrong output at the position where the plant is, on the GPU; the reduction
// judge's fold is the oracle's, and differs from the fold of a planted wrong input.
#include "harness/input/distributions.hpp"
#include "harness/memory/device_buffer.hpp"
#include "harness/reduce/reduce_device_judge.hpp"
#include "harness/reduce/reduce_oracle.hpp"
#include "harness/scan/scan_device_judge.hpp"
#include "harness/scan/scan_oracle.hpp"
#include "harness/sort/sort_device_judge.hpp"
#include "harness/sort/sort_oracle.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
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
  EXPECT_FALSE((harness::folds_on_device<float, float>(Op::sum))) << "float sums stay with the oracle's bound";
  EXPECT_FALSE((harness::folds_on_device<int, long long>(Op::max))) << "a widening reduction folds exactly as a sum";
}

}  // namespace
