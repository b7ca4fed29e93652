// Compact cases of every variant of one family (SANITIZE_FAMILY), for the compute-sanitizer
// runs (ctest -L sanitize): the tools slow kernels down by one or two orders of magnitude, so
// these cover each variant's code paths (smallest, preferred and largest block; a partial
// block, an odd length past two blocks, a multi-tile length; 4- and 8-byte types; every op,
// kind and form; in-place where declared) with lengths of at most 70001 values (a 64th of
// the limit for quadratic variants), through the
// same batch runners, guard bands and oracles as the full tests.
#include "harness/batch_assertions.hpp"
#include "harness/reduce_runner.hpp"
#include "harness/scan_runner.hpp"
#include "harness/sort_runner.hpp"
#include "harness/test_main.hpp"
#include "harness/variant_test.hpp"

#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using harness::Distribution;
using harness::TestInput;
using kernels::Family;
using kernels::TypeKey;
using kernels::VariantInfo;

constexpr Family kFamily = Family::SANITIZE_FAMILY;

template <TypeKey Type>
class Cases : public harness::VariantTest<Type> {
 public:
  using T = typename kernels::types_of<Type>::in;
  using Out = typename kernels::types_of<Type>::out;

  void TestBody() override {}

  void run(const VariantInfo& variant) {
    for (int block_size : representative_block_sizes(variant)) {
      const std::uint64_t block = block_size == 0 ? 256 : std::uint64_t(block_size);
      // The long case stays well below the limit of quadratic variants (odd-even across blocks,
      // the naive scan), whose work under racecheck grows with its square (a 16th of the
      // odd-even limit took over 300 s under racecheck on the H100).
      const std::uint64_t limit = variant.max_length(variant.resolve_block_size(block_size));
      const std::uint64_t long_case = std::min<std::uint64_t>(70001, limit / 64 + 1);
      for (std::uint64_t n : {std::uint64_t(1), std::uint64_t(33), 2 * block + 1, long_case}) {
        if (n > limit) continue;
        const TestInput<T>& values = this->input(Distribution::random, n, unsigned(n % 4));
        if constexpr (kFamily == Family::reduce) {
          for (kernels::Op op : kernels::kAllOps) {
            if (!variant.supports(Type, op)) continue;
            harness::ReduceBatch<T, Out> batch(variant, op);
            batch.add_run(batch.add_input(values), block_size);
            EXPECT_TRUE(harness::all_passed(batch.run()));
          }
        } else if constexpr (kFamily == Family::scan) {
          for (kernels::ScanKind kind : kernels::kAllScanKinds) {
            harness::ScanBatch<T> batch(variant, kind);
            const std::size_t input = batch.add_input(values);
            batch.add_run(input, block_size);
            if (variant.in_place) batch.add_run(input, block_size, true);
            EXPECT_TRUE(harness::all_passed(batch.run()));
          }
        } else {
          for (kernels::SortForm form : kernels::kAllSortForms) {
            if (form == kernels::SortForm::pairs && !variant.sorts_pairs) continue;
            harness::SortBatch<T> batch(variant, form);
            batch.add_run(batch.add_input(values), block_size);
            EXPECT_TRUE(harness::all_passed(batch.run()));
          }
        }
      }
    }
  }

 private:
  static std::vector<int> representative_block_sizes(const VariantInfo& variant) {
    std::vector<int> sizes{variant.block_sizes.min, variant.resolve_block_size(0), variant.block_sizes.max};
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
  }
};

class Sanitize : public testing::TestWithParam<const VariantInfo*> {};

TEST_P(Sanitize, RepresentativeCasesOfFourAndEightByteTypes) {
  Cases<TypeKey::int32>().run(*GetParam());
  Cases<TypeKey::float64>().run(*GetParam());
  if constexpr (kFamily == Family::reduce) Cases<TypeKey::int32_to_int64>().run(*GetParam());
}

INSTANTIATE_TEST_SUITE_P(sanitize, Sanitize, testing::ValuesIn(kernels::variants_of(kFamily)),
                         harness::variant_param_name);

}  // namespace
