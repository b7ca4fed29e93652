// The guard-band logic: poison that changes every result, layouts that keep bands between
// inputs and vary alignment, and the detection of writes into bands and canaries.
#include "harness/guard_bands.hpp"
#include "harness/reduce_oracle.hpp"

#include <gtest/gtest.h>

#include <cmath>
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

TEST(GuardBands, PoisonChangesEveryResult) {
  for (Op op : kernels::kAllOps) {
    expect_poison_changes_result<int>(op, {1, -7, 3});
    expect_poison_changes_result<unsigned>(op, {1u, 70u, 3u});
    expect_poison_changes_result<long long>(op, {1, -7, 3});
    expect_poison_changes_result<float>(op, {1, -7, 3});
    expect_poison_changes_result<double>(op, {1, -7, 3});
  }
  // A sum poison is odd, so no count of copies below 2^32 wraps back to the clean sum.
  EXPECT_EQ(input_poison<int>(Op::sum) % 2, 1);
}

TEST(GuardBands, LayoutKeepsBandsAndVariesAlignment) {
  const std::vector<std::uint64_t> lengths{3, 0, 5, 1};
  const std::vector<unsigned> shifts{1, 2, 3, 0};
  const auto layout = harness::pack_layout<int>(lengths, shifts);
  ASSERT_EQ(layout.offsets.size(), lengths.size());
  std::size_t previous_end = 0;
  for (std::size_t k = 0; k < lengths.size(); ++k) {
    EXPECT_EQ(layout.offsets[k] % 4, shifts[k]) << "input " << k << " must start " << shifts[k] << " ints past 16 bytes";
    EXPECT_GE(layout.offsets[k] - previous_end, harness::kInputGuard) << "band before input " << k;
    previous_end = layout.offsets[k] + lengths[k];
  }
  EXPECT_EQ(layout.size - previous_end, harness::kInputGuard);
}

TEST(GuardBands, ImageHoldsInputsAmidPoison) {
  const std::vector<std::uint64_t> lengths{2, 3};
  const std::vector<unsigned> shifts{0, 1};
  const auto layout = harness::pack_layout<double>(lengths, shifts);
  const std::vector<double> a{1, 2}, b{3, 4, 5};
  const std::vector<std::span<const double>> inputs{a, b};
  const auto image = harness::pack_image<double>(layout, inputs, -1.0);
  EXPECT_EQ(image[layout.offsets[0]], 1);
  EXPECT_EQ(image[layout.offsets[1] + 2], 5);
  EXPECT_EQ(image[layout.offsets[0] + 2], -1);
  EXPECT_EQ(image[layout.offsets[1] - 1], -1);
  EXPECT_EQ(std::count(image.begin(), image.end(), -1.0), static_cast<long>(image.size() - 5));
}

TEST(GuardBands, DetectsWritesIntoReadOnlyMemory) {
  const std::vector<int> before{1, 2, 3, 4};
  std::vector<int> after = before;
  EXPECT_TRUE(harness::describe_changes<int>(before, after).empty());
  after[2] = 9;
  const auto changes = harness::describe_changes<int>(before, after);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_NE(changes[0].find("element 2"), std::string::npos);
}

TEST(GuardBands, DetectsDamagedOutputCanaries) {
  constexpr std::size_t slots = 3;
  std::vector<float> image(harness::output_image_size(slots), harness::output_poison<float>());
  for (std::size_t k = 0; k < slots; ++k) image[harness::output_slot(k)] = float(k);  // the runs' own writes
  EXPECT_TRUE(harness::damaged_canaries<float>(image, slots).empty());
  image[harness::output_slot(1) + 1] = 42;  // one past slot 1
  const auto damage = harness::damaged_canaries<float>(image, slots);
  ASSERT_EQ(damage.size(), 1u);
  EXPECT_NE(damage[0].find(std::to_string(harness::output_slot(1) + 1)), std::string::npos);
}

}  // namespace
