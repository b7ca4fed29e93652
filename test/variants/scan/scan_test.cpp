// GPU tests of every registered scan variant for one element type: CMake compiles this file once
// per type (KERNELS_TEST_TYPE) into one executable; each ctest entry runs one variant of every
// type.
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
using T = kernels::types_of<kType>::in;

// Up to 2^24 + 1: longer inputs are the large tests' (2^28 and 2^31 + 2^20 + 3 values), whose
// checks run on the device; here each costs seconds of host oracle under a parallel ctest.
constexpr std::uint64_t kStraddleLengths[] = {1023,  1024,  1025,           4095,           4097,
                                              65535, 65537, (1u << 20) - 1, (1u << 20) + 1, (1u << 24) + 1};
// Inputs above this many values are left out of the recursion tests (the straddle list goes on).
constexpr std::uint64_t kLongest = std::uint64_t(1) << 25;

#define Scan HARNESS_TYPED(Scan)
class Scan : public harness::FamilyTest<harness::TestedFamily> {
 protected:
  std::uint64_t tile(int block_size) const {
    return variant().tile_size(variant().resolve_block_size(block_size), kType);
  }
};

// The straddle list with every block size; beyond 2^22 values with the preferred one (the
// recursion boundaries cover every block size's levels, and the 2^24-value levels of the
// smallest blocks).
TEST_P(Scan, LengthsStraddlingPowersOfTwo) {
  std::vector<Run> runs;
  for (std::uint64_t n : kStraddleLengths) {
    const Wanted values{Distribution::random, n, 1};
    for (const Run& run : n <= (1u << 22) ? every_block({values}) : std::vector<Run>{{values, 0}}) runs.push_back(run);
  }
  check(runs);
}

// Around every level of a recursive scan: B, B +- 1, 2B + 1, B^2 +- 1, B^3 +- 1 for the tile
// size B of every block size, so that small blocks reach three and four levels.
TEST_P(Scan, RecursionBoundaries) {
  std::vector<Run> runs;
  for (int block_size : block_sizes()) {
    const std::uint64_t b = tile(block_size);
    for (std::uint64_t n : {b - 1, b, b + 1, 2 * b + 1, b * b - 1, b * b, b * b + 1, b * b * b - 1, b * b * b + 1}) {
      if (n <= kLongest) runs.push_back({{Distribution::random, n, unsigned(n % 4)}, block_size});
    }
  }
  check(runs);
}

TEST_P(Scan, RaggedRandomLengths) {
  std::vector<Wanted> inputs;
  for (std::uint64_t k = 0; k < 6; ++k) {
    const std::uint64_t n = 1 + harness::random_bits(harness::run_seed(), k) % (1u << 18);
    inputs.push_back({Distribution::random, n, unsigned(k % 4)});
  }
  check(every_block(inputs));
}

TEST_P(Scan, EveryDistribution) {
  constexpr std::uint64_t kLengths[] = {1, 2, 3, 31, 33, 1000, 65537, 262147};
  std::vector<Run> runs;
  for (Distribution distribution : harness::kAllDistributions) {
    if (!harness::applies_to(distribution, kType)) continue;
    for (std::uint64_t n : kLengths) {
      for (int block_size : representative_block_sizes()) {
        runs.push_back({{distribution, n, unsigned(n % 4)}, block_size});
      }
    }
  }
  check(runs);
}

// In-place scans (out == in), for the variants that declare them.
#define InPlaceScan HARNESS_TYPED(InPlaceScan)
class InPlaceScan : public Scan {};

TEST_P(InPlaceScan, EveryLengthUpToTwoBlocksPlusOneAndStraddlingUpTo2To22) {
  std::vector<Run> runs;
  for (std::uint64_t n = 0; n <= 2 * nominal_block(0) + 1; ++n) {
    runs.push_back({{Distribution::random, n, unsigned(n % 4)}, 0});
  }
  for (std::uint64_t n : kStraddleLengths) {
    if (n <= (1u << 22)) runs.push_back({{Distribution::random, n, 1}, 0});
  }
  check(runs, true);
}

std::vector<const VariantInfo*> scan_variants_where(bool (*keep)(const VariantInfo&)) {
  return harness::variants_where(kernels::Family::scan, kType, keep);
}

INSTANTIATE_TEST_SUITE_P(KERNELS_TEST_TYPE_NAME, Scan,
                         testing::ValuesIn(scan_variants_where([](const VariantInfo&) { return true; })),
                         harness::variant_param_name);
INSTANTIATE_TEST_SUITE_P(KERNELS_TEST_TYPE_NAME, InPlaceScan,
                         testing::ValuesIn(scan_variants_where([](const VariantInfo& v) { return v.in_place; })),
                         harness::variant_param_name);

}  // namespace
