// The guard-band logic: poison that changes every result, layouts that keep bands between
// inputs and vary alignment, and the detection of writes into bands and canaries.
#include "harness/memory/guard_bands.hpp"
#include "harness/reduce/reduce_oracle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

namespace {

using harness::input_poison;
using kernels::Op;

// Reading one poison element past the end must change the oracle's answer.
template <class T>
void expect_poison_changes_result(Op op, std::vector<T> values) {
  const T poison = input_poison<T>(op);
  const auto clean = harness::expect_reduce<T, T>(op, values);
  values.push_back(poison);
  const auto polluted = harness::expect_reduce<T, T>(op, values);
  if constexpr (std::is_floating_point_v<T>) {
    EXPECT_TRUE(std::isnan(poison));
    if (op == Op::sum) {
      EXPECT_TRUE(polluted.facts.has_nan);
    } else {
      EXPECT_TRUE(std::isnan(polluted.value));
    }
  } else {
    EXPECT_NE(clean.value, polluted.value) << "op " << kernels::name(op);
  }
}

// Every operator on every type it takes.
TEST(GuardBands, PoisonChangesEveryResult) {
  for (Op op : kernels::all_ops()) {
    if (kernels::operator_takes(op, kernels::TypeKey::int32)) expect_poison_changes_result<int>(op, {1, -7, 3});
    if (kernels::operator_takes(op, kernels::TypeKey::uint32))
      expect_poison_changes_result<unsigned>(op, {1u, 70u, 3u});
    if (kernels::operator_takes(op, kernels::TypeKey::int64)) expect_poison_changes_result<long long>(op, {1, -7, 3});
    if (kernels::operator_takes(op, kernels::TypeKey::float32)) expect_poison_changes_result<float>(op, {1, -7, 3});
    if (kernels::operator_takes(op, kernels::TypeKey::float64)) expect_poison_changes_result<double>(op, {1, -7, 3});
  }
  // A sum poison is odd, so no count of copies below 2^32 wraps back to the clean sum.
  EXPECT_EQ(input_poison<int>(Op::sum) % 2, 1);
}

TEST(GuardBands, LayoutKeepsBandsAndVariesAlignment) {
  const std::vector<std::uint64_t> lengths{3, 0, 5, 1};
  const std::vector<unsigned> shifts{1, 2, 3, 0};
  const harness::GuardedImage<int> image(lengths, shifts, 100, -1);
  ASSERT_EQ(image.segments(), lengths.size());
  std::size_t previous_end = 0;
  for (std::size_t k = 0; k < lengths.size(); ++k) {
    EXPECT_EQ(image.offset(k) % 4, shifts[k])
        << "segment " << k << " must start " << shifts[k] << " ints past 16 bytes";
    EXPECT_GE(image.offset(k) - previous_end, 100u) << "band before segment " << k;
    previous_end = image.offset(k) + lengths[k];
  }
  EXPECT_EQ(image.image().size() - previous_end, 100u);
}

TEST(GuardBands, SegmentsSitAmidPoison) {
  const std::vector<std::uint64_t> lengths{2, 3};
  const std::vector<unsigned> shifts{0, 1};
  const std::vector<double> ones(2, 1.0), fives(3, 5.0);
  harness::GuardedImage<double> image(lengths, shifts, 16, -1.0);
  image.set_contents(0, ones);
  image.set_contents(1, fives);
  const std::vector<double> whole = image.image();
  ASSERT_EQ(whole.size(), image.size());
  EXPECT_EQ(whole[image.offset(0)], 1);
  EXPECT_EQ(whole[image.offset(1) + 2], 5);
  EXPECT_EQ(whole[image.offset(0) + 2], -1);
  EXPECT_EQ(whole[image.offset(1) - 1], -1);
  EXPECT_EQ(std::count(whole.begin(), whole.end(), -1.0), static_cast<long>(whole.size() - 5));
  // Any window of the image is that part of the whole: across a segment's start and end, in a band.
  for (const auto& [begin, end] :
       std::vector<std::pair<std::size_t, std::size_t>>{{0, whole.size()},
                                                        {image.offset(0) + 1, image.offset(1) + 1},
                                                        {image.offset(1) + 1, image.offset(1) + 2},
                                                        {3, 5}}) {
    const std::vector<double> part = image.image(begin, end);
    EXPECT_TRUE(std::equal(part.begin(), part.end(), whole.begin() + begin, whole.begin() + end))
        << begin << ".." << end;
  }
  EXPECT_THROW(image.set_contents(1, ones), std::logic_error) << "contents must be as long as their segment";
}

TEST(GuardBands, NamesWritesPastTheEndBeforeTheStartAndIntoReadOnlySegments) {
  const std::vector<std::uint64_t> lengths{4, 4};
  const std::vector<unsigned> shifts{0, 0};
  const std::vector<int> values{1, 2, 3, 4};
  harness::GuardedImage<int> image(lengths, shifts, 32, 7);
  image.set_contents(0, values);
  std::vector<int> after = image.image();
  EXPECT_TRUE(image.violations(after, true).empty());

  after[image.offset(0) + 1] = 9;  // inside segment 0, which held 2
  after[image.offset(1) + 3] = 9;  // inside segment 1, which held poison
  EXPECT_TRUE(image.violations(after, false).empty()) << "outputs may change inside their segments";
  auto found = image.violations(after, true);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].segment, 0u);
  EXPECT_NE(found[0].what.find("wrote element 1 of its read-only input: 2 became 9"), std::string::npos)
      << found[0].what;
  EXPECT_EQ(found[1].segment, 1u);
  EXPECT_NE(found[1].what.find("wrote element 3 of its read-only input: 7 became 9"), std::string::npos)
      << found[1].what;
  EXPECT_EQ(image.violations(after, true, 1).size(), 1u) << "at most the limit";

  after = image.image();
  after[image.offset(0) + 4] = 9;  // element n of segment 0
  found = image.violations(after, false);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].segment, 0u);
  EXPECT_NE(found[0].what.find("n + 0, past its end"), std::string::npos) << found[0].what;

  after = image.image();
  after[image.offset(1) - 2] = 9;  // two before segment 1
  found = image.violations(after, false);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].segment, 1u);
  EXPECT_NE(found[0].what.find("2 elements before its start"), std::string::npos) << found[0].what;

  after = image.image();
  after.back() = 9;   // the last band blames the last segment
  after.front() = 9;  // the first band the first
  found = image.violations(after, false);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].segment, 0u);
  EXPECT_NE(found[0].what.find("elements before its start"), std::string::npos) << found[0].what;
  EXPECT_EQ(found[1].segment, 1u);
  EXPECT_NE(found[1].what.find("past its end"), std::string::npos) << found[1].what;
}

}  // namespace
