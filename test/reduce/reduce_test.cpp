// GPU tests of every registered reduction variant for one element type: CMake builds this file
// once per type key (KERNELS_TEST_TYPE), so the executables compile in parallel and each ctest
// entry runs one variant of one type.
#include "harness/core/random_bits.hpp"
#include "harness/core/run_seed.hpp"
#include "harness/gtest/batch_assertions.hpp"
#include "harness/gtest/test_main.hpp"
#include "harness/gtest/variant_test.hpp"
#include "harness/reduce/reduce_family.hpp"
#include "harness/reduce/reduce_oracle.hpp"

#include <kernels/registry.hpp>
#include <kernels/types.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <type_traits>
#include <vector>

namespace {

using harness::Distribution;
using harness::ReduceBatch;
using harness::TestInput;
using kernels::Op;
using kernels::TypeKey;
using kernels::VariantInfo;

constexpr TypeKey kType = TypeKey::KERNELS_TEST_TYPE;
using In = kernels::types_of<kType>::in;
using Out = kernels::types_of<kType>::out;

// Lengths that straddle powers of two and the grid and block boundaries of every variant.
constexpr std::uint64_t kStraddleLengths[] = {1023,    1024,    1025,          4095,          4097,
                                              65535,   65537,   (1u << 20) - 1, (1u << 20) + 1, (1u << 24) + 1,
                                              25u << 20};

class Reduce : public harness::VariantTest<kType> {
 protected:
  std::vector<Op> ops() const { return variant().ops(kType); }

  // Runs every (length, block size) pair the contract accepts for each op, one batch per op:
  // `inputs(block)` names the (distribution, length, offset) of each input for that block size.
  struct Wanted {
    Distribution distribution;
    std::uint64_t n;
    unsigned offset;
  };
  void check(const std::vector<Wanted>& wanted, const std::vector<int>& blocks) {
    for (Op op : ops()) {
      ReduceBatch<In, Out> batch(variant(), op);
      for (int block_size : blocks) {
        for (const Wanted& w : wanted) {
          const auto n = length_for(w.n, block_size);
          if (n) batch.add_run(batch.add_input(input(w.distribution, *n, w.offset)), block_size);
        }
      }
      EXPECT_TRUE(harness::all_passed(batch.run()));
    }
  }
};

// Every n from 0 to 2 * block + 1 for every block size: empty input, a partial first block, a
// full block, one more than a block, and the two-values-per-thread boundary. Inputs start at
// every alignment relative to a 16-byte boundary.
TEST_P(Reduce, EveryLengthUpToTwoBlocksPlusOne) {
  for (int block_size : block_sizes()) {
    std::vector<Wanted> wanted;
    for (std::uint64_t n = 0; n <= 2 * nominal_block(block_size) + 1; ++n) {
      wanted.push_back({Distribution::random, n, unsigned(n % 4)});
    }
    check(wanted, {block_size});
  }
}

TEST_P(Reduce, LengthsStraddlingPowersOfTwo) {
  for (std::uint64_t n : kStraddleLengths) check({{Distribution::random, n, 1}}, block_sizes());
}

// Lengths drawn from the run seed: a different ragged set in every nightly run.
TEST_P(Reduce, RaggedRandomLengths) {
  std::vector<Wanted> wanted;
  for (std::uint64_t k = 0; k < 6; ++k) {
    wanted.push_back({Distribution::random, 1 + harness::random_bits(harness::run_seed(), k) % (1u << 21), unsigned(k % 4)});
  }
  check(wanted, block_sizes());
}

// Every distribution the type admits (overflowing, extreme, IEEE special values, cancellation)
// at lengths from one element to several multi-pass levels.
TEST_P(Reduce, EveryDistribution) {
  constexpr std::uint64_t kLengths[] = {1, 2, 3, 31, 33, 1000, 65537, (1u << 20) + 1};
  for (Distribution distribution : harness::kAllDistributions) {
    if (!harness::applies_to(distribution, kType)) continue;
    std::vector<Wanted> wanted;
    for (std::uint64_t n : kLengths) wanted.push_back({distribution, n, unsigned(n % 4)});
    check(wanted, representative_block_sizes());
  }
}

// Sums whose true value leaves the type: integer sums wrap (int, unsigned, long long) or stay
// exact (the widening sum); float sums overflow to infinity. The test first checks that its
// inputs really do leave the range, so it cannot pass vacuously.
TEST_P(Reduce, SumsLeavingTheTypesRange) {
  if (!variant().supports(kType, Op::sum)) return;  // the variant declares no sum for this type
  for (Distribution distribution : {Distribution::max, Distribution::alternating}) {
    const TestInput<In>& values = input(distribution, preferred_length(65537), 0);
    const auto expected = harness::expect_reduce<In, Out>(Op::sum, values.values);
    if constexpr (std::is_integral_v<Out>) {
      long double true_sum = 0;
      for (In x : values.values) true_sum += static_cast<long double>(x);
      if constexpr (kernels::is_widening(kType)) {
        ASSERT_EQ(static_cast<long double>(expected.value), true_sum) << "the widening sum must be exact";
      } else if (distribution == Distribution::max) {
        ASSERT_NE(static_cast<long double>(expected.value), true_sum) << "these inputs must overflow";
      }
    } else {
      ASSERT_GE(expected.facts.abs_sum, static_cast<long double>(std::numeric_limits<Out>::max()))
          << "these inputs must be able to overflow";
    }
    check({{distribution, values.values.size(), 0}}, block_sizes());
  }
}

INSTANTIATE_TEST_SUITE_P(KERNELS_TEST_TYPE, Reduce,
                         testing::ValuesIn(harness::variants_where(kernels::Family::reduce, kType,
                                                                   [](const VariantInfo&) { return true; })),
                         harness::variant_param_name);

}  // namespace
