// GPU tests of every registered sort variant for one key type: CMake compiles this file once per
// type (KERNELS_TEST_TYPE) into one executable; each ctest entry runs one variant of every type.
// Every case is checked against the oracle's stable sort under IEEE totalOrder, the key-value
// form (where a variant offers it) with each key's original index, which makes stability visible.
#include "harness/gtest/family_test.hpp"
#include "harness/gtest/test_main.hpp"
#include "harness/gtest/tested_family.hpp"
#include "harness/input/random_bits.hpp"

#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

using harness::Distribution;
using kernels::TypeKey;
using kernels::VariantInfo;

constexpr TypeKey kType = TypeKey::KERNELS_TEST_TYPE;
using K = kernels::types_of<kType>::in;

// Up to 2^24 + 1: longer inputs are the large tests' (2^28 and 2^31 + 2^20 + 3 values), whose
// checks run on the device; here each costs seconds of host oracle under a parallel ctest.
constexpr std::uint64_t kStraddleLengths[] = {1023,  1024,  1025,           4095,           4097,
                                              65535, 65537, (1u << 20) - 1, (1u << 20) + 1, (1u << 24) + 1};

#define Sort HARNESS_TYPED(Sort)
class Sort : public harness::FamilyTest<harness::TestedFamily> {};

// The straddle list up to each variant's limit, with every block size up to 2^20 values and,
// beyond, the smallest (whose blocks then take several tiles each) and the preferred.
TEST_P(Sort, LengthsStraddlingPowersOfTwo) {
  std::vector<Run> runs;
  const std::vector<int> beyond_2_20 = smallest_and_preferred_block_sizes();
  for (std::uint64_t n : kStraddleLengths) {
    for (int block_size : n <= (1u << 20) ? block_sizes() : beyond_2_20)
      runs.push_back({{Distribution::random, n, 1}, block_size});
  }
  check(runs);
}

TEST_P(Sort, RaggedRandomLengths) {
  std::vector<Run> runs;
  for (std::uint64_t k = 0; k < 6; ++k) {
    const std::uint64_t n = 1 + harness::random_bits(harness::run_seed(), k) % (1u << 19);
    for (int block_size : representative_block_sizes())
      runs.push_back({{Distribution::random, n, unsigned(k % 4)}, block_size});
  }
  check(runs);
}

// Sorted, reverse, all equal, two values, many duplicates, the type's extremes, and for floats
// NaN / +-inf / +-0.0 / subnormal mixes: every distribution the type admits. In the key-value
// form the duplicates are where stability shows.
TEST_P(Sort, EveryDistribution) {
  constexpr std::uint64_t kLengths[] = {1, 2, 3, 31, 33, 1000, 4097, 65537};
  std::vector<Run> runs;
  for (Distribution distribution : harness::kAllDistributions) {
    if (!harness::applies_to(distribution, kType)) continue;
    for (std::uint64_t n : kLengths) {
      for (int block_size : representative_block_sizes())
        runs.push_back({{distribution, n, unsigned(n % 4)}, block_size});
    }
  }
  check(runs);
}

INSTANTIATE_TEST_SUITE_P(KERNELS_TEST_TYPE_NAME, Sort,
                         testing::ValuesIn(harness::variants_where(kernels::Family::sort, kType,
                                                                   [](const VariantInfo&) { return true; })),
                         harness::variant_param_name);

}  // namespace
