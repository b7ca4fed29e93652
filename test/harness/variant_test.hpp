// The fixture of the per-variant GPU tests of every family: the variant under test (the gtest
// parameter), its block sizes, the lengths it accepts, and a cache of generated inputs shared by
// every op, kind and block size within a test.
#pragma once

#include "run_seed.hpp"
#include "test_input.hpp"

#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <map>
#include <memory>
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

  std::vector<int> block_sizes() const { return variant().block_sizes.all(); }

  // The smallest and the preferred block size.
  std::vector<int> smallest_and_preferred_block_sizes() const {
    std::vector<int> chosen{block_sizes().front()};
    const int preferred = variant().resolve_block_size(0);
    if (preferred != chosen.front()) chosen.push_back(preferred);
    return chosen;
  }

  // The smallest, the preferred and the largest block size.
  std::vector<int> representative_block_sizes() const {
    std::vector<int> chosen = smallest_and_preferred_block_sizes();
    if (block_sizes().back() != chosen.back()) chosen.push_back(block_sizes().back());
    return chosen;
  }

  // Whether the variant takes n values with this block size (single-block and quadratic
  // variants have limits; tests cover lengths up to them and validation tests beyond them).
  bool accepts(std::uint64_t n, int block_size) const {
    return n <= variant().max_length(variant().resolve_block_size(block_size));
  }

  // The values one block takes at once: 2 * block for the exhaustive small lengths.
  static std::uint64_t nominal_block(int block_size) { return block_size == 0 ? 1024 : std::uint64_t(block_size); }

 private:
  std::map<std::tuple<Distribution, std::uint64_t, unsigned>, std::unique_ptr<TestInput<T>>> inputs_;
};

}  // namespace harness
