// The generators: every distribution has the property its name promises, and a seed always
// regenerates the same input (what a printed reproduce line relies on).
#include "harness/input/distributions.hpp"
#include "harness/input/random_bits.hpp"
#include "harness/input/run_seed.hpp"
#include "harness/session/host_threads.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <set>

namespace {

using harness::Distribution;
using harness::generate;
using kernels::TypeKey;

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

template <class T>
void expect_reproducible(TypeKey type) {
  for (Distribution distribution : harness::kAllDistributions) {
    if (!harness::applies_to(distribution, type)) continue;
    for (std::uint64_t n : {0ull, 1ull, 2ull, 1000ull}) {
      const std::uint64_t seed = harness::case_seed(harness::kDefaultRunSeed, type, distribution, n);
      EXPECT_TRUE(same_bits(generate<T>(distribution, n, seed), generate<T>(distribution, n, seed)))
          << name(distribution) << " n=" << n;
    }
  }
}

TEST(Distributions, TheSameSeedRegeneratesTheSameInput) {
  expect_reproducible<int>(TypeKey::int32);
  expect_reproducible<unsigned>(TypeKey::uint32);
  expect_reproducible<long long>(TypeKey::int64);
  expect_reproducible<float>(TypeKey::float32);
  expect_reproducible<double>(TypeKey::float64);
}

// A value is a function of its index: a long input, made in pieces on several threads, begins
// with the values of a short one made in one piece on this thread (the first piece's end
// included), and the same seed regenerates it whole.
TEST(Distributions, ALongInputMadeInPiecesIsTheShortOnesExtended) {
  constexpr std::uint64_t kLong = (std::uint64_t(1) << 20) + 3;
  constexpr std::uint64_t kShort = harness::kValuesWorthSplitting;
  for (Distribution distribution :
       {Distribution::random, Distribution::ones, Distribution::alternating, Distribution::negative,
        Distribution::two_values, Distribution::duplicates, Distribution::every_digit}) {
    const std::uint64_t seed = harness::case_seed(harness::kDefaultRunSeed, TypeKey::int32, distribution, kLong);
    const std::vector<int> long_input = generate<int>(distribution, kLong, seed);
    const std::vector<int> short_input = generate<int>(distribution, kShort, seed);
    EXPECT_TRUE(std::equal(short_input.begin(), short_input.end(), long_input.begin())) << name(distribution);
    EXPECT_TRUE(same_bits(long_input, generate<int>(distribution, kLong, seed))) << name(distribution);
  }
  // Every value of a long random int input, against its definition: an int's random value is
  // the low bits of random_bits(seed, i).
  const std::uint64_t seed = 17;
  const std::vector<int> random_ints = generate<int>(Distribution::random, kLong, seed);
  std::uint64_t wrong = 0;
  for (std::uint64_t i = 0; i < kLong; ++i) wrong += random_ints[i] != static_cast<int>(harness::random_bits(seed, i));
  EXPECT_EQ(wrong, 0u);
  const std::vector<float> long_floats = generate<float>(Distribution::nan, kLong, seed);
  const std::vector<float> short_floats = generate<float>(Distribution::random, kShort, seed);
  std::size_t same = 0;
  for (std::uint64_t i = 0; i < kShort; ++i) same += std::memcmp(&long_floats[i], &short_floats[i], sizeof(float)) == 0;
  EXPECT_GT(same, kShort * 9 / 10) << "the NaNs are sprinkled over the random values";
}

// A long sorted input is sorted in pieces on several threads, then merged: the random values in
// std::sort's order, bit for bit (reverse in std::greater's).
TEST(Distributions, ALongSortedInputIsTheRandomOneSorted) {
  constexpr std::uint64_t kLong = 3 * harness::kValuesWorthSplitting + 5;
  const std::uint64_t seed = 23;
  std::vector<double> sorted = generate<double>(Distribution::random, kLong, seed);
  std::sort(sorted.begin(), sorted.end());
  EXPECT_TRUE(same_bits(generate<double>(Distribution::sorted, kLong, seed), sorted));
  std::vector<int> reverse = generate<int>(Distribution::random, kLong, seed);
  std::sort(reverse.begin(), reverse.end(), std::greater<int>());
  EXPECT_TRUE(same_bits(generate<int>(Distribution::reverse, kLong, seed), reverse));
}

TEST(Distributions, DifferentSeedsGiveDifferentInputs) {
  EXPECT_FALSE(same_bits(generate<int>(Distribution::random, 100, 1), generate<int>(Distribution::random, 100, 2)));
  EXPECT_FALSE(same_bits(generate<float>(Distribution::nan, 100, 1), generate<float>(Distribution::nan, 100, 2)));
}

TEST(Distributions, EachHasItsProperty) {
  const std::uint64_t n = 4096, seed = 7;
  const auto ones = generate<int>(Distribution::ones, n, seed);
  EXPECT_TRUE(std::all_of(ones.begin(), ones.end(), [](int x) { return x == 1; }));
  const auto max = generate<long long>(Distribution::max, n, seed);
  EXPECT_TRUE(std::all_of(max.begin(), max.end(), [](long long x) { return x == LLONG_MAX; }));
  const auto alternating = generate<int>(Distribution::alternating, n, seed);
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(alternating[i], i % 2 ? INT_MIN : INT_MAX);
  const auto negative = generate<int>(Distribution::negative, n, seed);
  EXPECT_TRUE(std::all_of(negative.begin(), negative.end(), [](int x) { return x < 0; }));
  const auto negative_floats = generate<float>(Distribution::negative, n, seed);
  EXPECT_TRUE(std::all_of(negative_floats.begin(), negative_floats.end(), [](float x) { return x < 0 && x >= -1; }));
  const auto sorted = generate<double>(Distribution::sorted, n, seed);
  EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end()));
  const auto reverse = generate<unsigned>(Distribution::reverse, n, seed);
  EXPECT_TRUE(std::is_sorted(reverse.rbegin(), reverse.rend()));
  const auto uniform = generate<float>(Distribution::random, n, seed);
  EXPECT_TRUE(std::all_of(uniform.begin(), uniform.end(), [](float x) { return x >= -1 && x < 1; }));
}

TEST(Distributions, FloatSpecialValues) {
  const std::uint64_t n = 4096, seed = 11;
  const auto nans = generate<float>(Distribution::nan, n, seed);
  EXPECT_GE(std::count_if(nans.begin(), nans.end(), [](float x) { return std::isnan(x); }), 1);
  EXPECT_TRUE(std::isnan(generate<float>(Distribution::nan, 1, seed)[0]));  // at least one, even for n = 1
  const auto infinities = generate<double>(Distribution::infinities, n, seed);
  EXPECT_GE(std::count_if(infinities.begin(), infinities.end(), [](double x) { return std::isinf(x) && x > 0; }), 1);
  EXPECT_GE(std::count_if(infinities.begin(), infinities.end(), [](double x) { return std::isinf(x) && x < 0; }), 1);
  const auto zeros = generate<float>(Distribution::signed_zeros, n, seed);
  EXPECT_TRUE(std::all_of(zeros.begin(), zeros.end(), [](float x) { return x == 0; }));
  EXPECT_GE(std::count_if(zeros.begin(), zeros.end(), [](float x) { return std::signbit(x); }), 1);
  EXPECT_GE(std::count_if(zeros.begin(), zeros.end(), [](float x) { return !std::signbit(x); }), 1);
  const auto negative_zeros = generate<double>(Distribution::negative_zeros, n, seed);
  EXPECT_TRUE(std::all_of(negative_zeros.begin(), negative_zeros.end(),
                          [](double x) { return x == 0 && std::signbit(x); }));  // IEEE's sum of these is -0.0
  const auto denormals = generate<float>(Distribution::denormals, n, seed);
  EXPECT_TRUE(
      std::all_of(denormals.begin(), denormals.end(), [](float x) { return std::fpclassify(x) == FP_SUBNORMAL; }));
  const auto cancelling = generate<float>(Distribution::cancellation, n, seed);
  for (std::size_t i = 0; i + 1 < n; i += 2) {
    EXPECT_GE(std::fabs(cancelling[i]), 1 << 20);
    EXPECT_LE(std::fabs(cancelling[i] + cancelling[i + 1]), 1.5f);
  }
}

TEST(Distributions, SortOrientedOnes) {
  const std::uint64_t n = 4096, seed = 13;
  const auto two = generate<long long>(Distribution::two_values, n, seed);
  EXPECT_EQ(std::set<long long>(two.begin(), two.end()), (std::set<long long>{LLONG_MIN, LLONG_MAX}));
  const auto duplicates = generate<int>(Distribution::duplicates, n, seed);
  const std::set<int> distinct(duplicates.begin(), duplicates.end());
  EXPECT_LE(distinct.size(), 16u);
  EXPECT_GE(distinct.size(), 8u);
  const auto specials = generate<float>(Distribution::specials, n, seed);
  for (auto is : std::vector<bool (*)(float)>{
           [](float x) { return std::isnan(x) && std::signbit(x); },
           [](float x) { return std::isnan(x) && !std::signbit(x); }, [](float x) { return std::isinf(x) && x < 0; },
           [](float x) { return std::isinf(x) && x > 0; }, [](float x) { return x == 0 && std::signbit(x); },
           [](float x) { return x == 0 && !std::signbit(x); },
           [](float x) { return std::fpclassify(x) == FP_SUBNORMAL; }, [](float x) { return std::isnormal(x); }}) {
    EXPECT_GE(std::count_if(specials.begin(), specials.end(), is), 1);
  }
}

TEST(Distributions, ApplyOnlyWhereTheyMakeSense) {
  EXPECT_FALSE(harness::applies_to(Distribution::nan, TypeKey::int32));
  EXPECT_FALSE(harness::applies_to(Distribution::denormals, TypeKey::int32_to_int64));
  EXPECT_TRUE(harness::applies_to(Distribution::denormals, TypeKey::float64));
  EXPECT_FALSE(harness::applies_to(Distribution::negative, TypeKey::uint32));
  EXPECT_TRUE(harness::applies_to(Distribution::negative, TypeKey::int64));
  EXPECT_THROW(generate<int>(Distribution::nan, 4, 1), std::invalid_argument);
}

TEST(Distributions, NamesRoundTrip) {
  for (Distribution distribution : harness::kAllDistributions) {
    EXPECT_EQ(harness::parse_distribution(harness::name(distribution)), distribution);
  }
  EXPECT_FALSE(harness::parse_distribution("gaussian").has_value());
}

}  // namespace
