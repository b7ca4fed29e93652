// The fixture of the per-variant GPU tests of every family: the variant under test (the gtest
// parameter), its block sizes, the lengths it accepts, and a cache of generated inputs shared by
// every op, kind and block size within a test.
#pragma once

#include "harness/input/run_seed.hpp"
#include "harness/input/test_input.hpp"

#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

namespace harness {

template <kernels::TypeKey Type>
class VariantTest : public testing::TestWithParam<const kernels::VariantInfo*> {
 protected:
  using T = typename kernels::types_of<Type>::in;

  const kernels::VariantInfo& variant() const { return *GetParam(); }

  const TestInput<T>& input(Distribution distribution, std::uint64_t n, unsigned offset = 0) {
    auto& slot = inputs_[{distribution, n, offset}];
    if (!slot) {
      const std::uint64_t seed = case_seed(run_seed(), Type, distribution, n);
      slot = std::make_unique<TestInput<T>>(make_test_input<T>(distribution, n, seed, offset));
    }
    return *slot;
  }

  // The longest accepted length up to n with the preferred block size (the default config).
  std::uint64_t preferred_length(std::uint64_t n) const { return variant().accepted_length_at_most(n, 0, Type); }

  // Every block size the variant accepts, smallest first ({0} for a variant that picks its own).
  std::vector<int> block_sizes() const { return variant().block_sizes.all(); }

  // The smallest block size and 0, the variant's preferred one through the public API's default.
  std::vector<int> smallest_and_preferred_block_sizes() const { return distinct({block_sizes().front(), 0}); }

  // The smallest, the preferred (as 0) and the largest block size.
  std::vector<int> representative_block_sizes() const {
    return distinct({block_sizes().front(), 0, block_sizes().back()});
  }

  // The length a test asking for n values runs with this block size: n itself when the
  // contract accepts it, n rounded down to the declared multiple when the variant takes whole
  // blocks or tiles only, and nothing when n is beyond the variant's limit (single-block and
  // quadratic variants: validation tests cover those lengths).
  std::optional<std::uint64_t> length_for(std::uint64_t n, int block_size) const {
    if (n > variant().max_length_with(block_size)) return std::nullopt;
    return variant().accepted_length_at_most(n, block_size, Type);
  }

  // An input a test asks for, before the contract's length rule: generated only at the length
  // the variant accepts (a variant limited to 4096 values never generates 2^25).
  struct Wanted {
    Distribution distribution;
    std::uint64_t n;
    unsigned offset = 0;
  };

  // The input a test that wants `wanted` runs with this block size (see length_for): generated
  // at the accepted length, or nullptr when the variant's limit excludes it.
  const TestInput<T>* input_for(const Wanted& wanted, int block_size) {
    const auto n = length_for(wanted.n, block_size);
    if (!n) return nullptr;
    return &input(wanted.distribution, *n, wanted.offset);
  }

  // The values one block takes at once: 2 * block for the exhaustive small lengths.
  std::uint64_t nominal_block(int block_size) const {
    return block_size == 0 && variant().block_sizes.chosen_by_variant_itself()
               ? 1024
               : std::uint64_t(variant().resolve_block_size(block_size));
  }

 private:
  static std::vector<int> distinct(std::vector<int> sizes) {
    std::vector<int> kept;
    for (int size : sizes) {
      if (std::find(kept.begin(), kept.end(), size) == kept.end()) kept.push_back(size);
    }
    return kept;
  }

  std::map<std::tuple<Distribution, std::uint64_t, unsigned>, std::unique_ptr<TestInput<T>>> inputs_;
};

}  // namespace harness
