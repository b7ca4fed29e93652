// GPU tests of every registered reduction variant for one element type: CMake compiles this file
// once per type key (KERNELS_TEST_TYPE), in parallel, into one executable, and each ctest entry
// runs one variant of every type.
#include "harness/gtest/family_test.hpp"
#include "harness/gtest/test_main.hpp"
#include "harness/gtest/tested_family.hpp"
#include "harness/input/random_bits.hpp"
#include "harness/input/run_seed.hpp"
#include "harness/numeric/element_traits.hpp"
#include "harness/reduce/reduce_oracle.hpp"

#include <kernels/registry.hpp>
#include <kernels/types.hpp>

#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

namespace {

using harness::Distribution;
using harness::TestInput;
using kernels::Op;
using kernels::TypeKey;
using kernels::VariantInfo;

constexpr TypeKey kType = TypeKey::KERNELS_TEST_TYPE;
using In = kernels::types_of<kType>::in;
using Out = kernels::types_of<kType>::out;

// Lengths that straddle powers of two and the grid and block boundaries of every variant.
constexpr std::uint64_t kStraddleLengths[] = {1023,  1024,           1025,           4095,           4097,     65535,
                                              65537, (1u << 20) - 1, (1u << 20) + 1, (1u << 24) + 1, 25u << 20};

#define Reduce HARNESS_TYPED(Reduce)
class Reduce : public harness::FamilyTest<harness::TestedFamily> {};

// Checks that the true sum of `values` leaves the input type's range (for `max`, integer sums
// other than the widening one must wrap), so that a test of such sums cannot pass vacuously.
template <class In, class Out>
void expect_sum_leaves_range(Distribution distribution, const std::vector<In>& values,
                             const harness::ReduceExpectation<Out>& expected) {
  if constexpr (std::is_integral_v<Out>) {
    long double true_sum = 0;
    for (In x : values) true_sum += static_cast<long double>(x);
    if constexpr (kernels::is_widening(kType)) {
      ASSERT_EQ(static_cast<long double>(expected.value), true_sum) << "the widening sum must be exact";
    } else if (distribution == Distribution::max) {
      ASSERT_NE(static_cast<long double>(expected.value), true_sum) << "these inputs must overflow";
    }
  } else {
    ASSERT_GE(expected.facts.abs_sum, harness::as_double(harness::limits<In>::max()))
        << "these inputs must be able to overflow the input type";
  }
}

TEST_P(Reduce, LengthsStraddlingPowersOfTwo) {
  std::vector<Wanted> inputs;
  for (std::uint64_t n : kStraddleLengths) inputs.push_back({Distribution::random, n, 1});
  check(every_block(inputs));
}

// Lengths drawn from the run seed: a different ragged set in every nightly run.
TEST_P(Reduce, RaggedRandomLengths) {
  std::vector<Wanted> inputs;
  for (std::uint64_t k = 0; k < 6; ++k) {
    inputs.push_back(
        {Distribution::random, 1 + harness::random_bits(harness::run_seed(), k) % (1u << 21), unsigned(k % 4)});
  }
  check(every_block(inputs));
}

// Every distribution the type admits (overflowing, extreme, IEEE special values, cancellation)
// at lengths from one element to several multi-pass levels.
TEST_P(Reduce, EveryDistribution) {
  constexpr std::uint64_t kLengths[] = {1, 2, 3, 31, 33, 1000, 65537, (1u << 20) + 1};
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

// Sums whose true value leaves the input type: integer sums wrap or stay exact (the widening
// sum); float sums overflow to infinity, or stay finite in the wider type (half and bfloat16
// into float: a kernel that accumulates in the input type overflows where float does not). The
// test first checks that its inputs really do leave the range, so it cannot pass vacuously.
TEST_P(Reduce, SumsLeavingTheTypesRange) {
  if (!variant().supports(kType, Op::sum)) {
    GTEST_SKIP() << harness::kContractSkip << variant().id() << " declares no sum of " << kernels::name(kType);
  }
  std::vector<Wanted> inputs;
  for (Distribution distribution : {Distribution::max, Distribution::alternating}) {
    const TestInput<In>& values = input(distribution, preferred_length(65537), 0);
    expect_sum_leaves_range(distribution, values.values(), harness::expect_reduce<In, Out>(Op::sum, values.values()));
    if (HasFatalFailure()) return;
    inputs.push_back({distribution, values.size(), 0});
  }
  check(every_block(inputs));
}

INSTANTIATE_TEST_SUITE_P(KERNELS_TEST_TYPE_NAME, Reduce,
                         testing::ValuesIn(harness::variants_where(kernels::Family::reduce, kType,
                                                                   [](const VariantInfo&) { return true; })),
                         harness::variant_param_name);

}  // namespace
