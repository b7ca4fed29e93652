// The sort oracle: its own statement of totalOrder, against hand-placed keys, and its judgement
// of order, multiset and stability.
#include "harness/sort/sort_oracle.hpp"
#include "harness/numeric/element_traits.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace {

using harness::judge_sort;
using harness::total_order_less;

// Every float type, half and bfloat16 included (whose 16-bit keys are where a promoted mask
// goes wrong).
template <class T>
class FloatTotalOrder : public testing::Test {};
using FloatTypes = testing::Types<__half, __nv_bfloat16, float, double>;
TYPED_TEST_SUITE(FloatTotalOrder, FloatTypes);

TYPED_TEST(FloatTotalOrder, RunsFromNegativeToPositiveNaN) {
  using T = TypeParam;
  using harness::limits;
  const auto value = [](double x) { return harness::from_double<T>(x); };
  const std::vector<T> ascending{harness::negated(limits<T>::quiet_NaN()),
                                 -limits<T>::infinity(),
                                 value(-1.0),
                                 -limits<T>::denorm_min(),
                                 value(-0.0),
                                 value(0.0),
                                 limits<T>::denorm_min(),
                                 value(1.0),
                                 limits<T>::infinity(),
                                 limits<T>::quiet_NaN()};
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    for (std::size_t j = 0; j < ascending.size(); ++j) {
      EXPECT_EQ(total_order_less(ascending[i], ascending[j]), i < j) << i << " vs " << j;
    }
  }
}

TEST(SortOracle, IntegerOrder) {
  EXPECT_TRUE(total_order_less(INT_MIN, -1));
  EXPECT_TRUE(total_order_less<signed char>(-128, -1));
  EXPECT_TRUE(total_order_less<signed char>(-1, 0));
  EXPECT_TRUE(total_order_less<unsigned char>(127, 128));
  EXPECT_TRUE(total_order_less<short>(-32768, 32767));
  EXPECT_TRUE(total_order_less(-1, 0));
  EXPECT_TRUE(total_order_less(0u, UINT_MAX));
  EXPECT_TRUE(total_order_less(LLONG_MIN, LLONG_MAX));
}

TEST(SortOracle, ChecksOrderAndTheExactMultiset) {
  const std::vector<int> keys{3, 1, 2, 1};
  EXPECT_EQ(judge_sort<int>(keys, std::vector<int>{1, 1, 2, 3}, {}).count, 0u);
  EXPECT_EQ(judge_sort<int>(keys, std::vector<int>{1, 2, 1, 3}, {}).count, 2u);  // unsorted
  EXPECT_EQ(judge_sort<int>(keys, std::vector<int>{1, 2, 2, 3}, {}).count, 1u);  // a key duplicated, one lost
}

TEST(SortOracle, DistinguishesSignedZerosAndNaNs) {
  const std::vector<float> keys{0.0f, -0.0f};
  EXPECT_EQ(judge_sort<float>(keys, std::vector<float>{-0.0f, 0.0f}, {}).count, 0u);
  EXPECT_EQ(judge_sort<float>(keys, std::vector<float>{0.0f, -0.0f}, {}).count, 2u);
  EXPECT_EQ(judge_sort<float>(keys, std::vector<float>{0.0f, 0.0f}, {}).count, 1u);
}

TEST(SortOracle, KeyValueFormRequiresStableOrder) {
  const std::vector<int> keys{5, 1, 5, 1};
  EXPECT_EQ(judge_sort<int>(keys, std::vector<int>{1, 1, 5, 5}, std::vector<std::uint32_t>{1, 3, 0, 2}).count, 0u);
  const auto unstable = judge_sort<int>(keys, std::vector<int>{1, 1, 5, 5}, std::vector<std::uint32_t>{3, 1, 0, 2});
  EXPECT_EQ(unstable.count, 2u);
  EXPECT_NE(unstable.describe().find("stable order"), std::string::npos);
}

}  // namespace
