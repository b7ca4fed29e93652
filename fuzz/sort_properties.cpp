// RapidCheck properties of every sort variant, run on the GPU: the output is sorted under the
// total order and is a permutation of the input (multiset equality checked exactly, by
// comparing with a sorted copy, not by sums), sorting is idempotent, and the key-value form of
// a stable sort keeps equal keys in input order. Each property runs once per key type the
// variant declares (Skipped with none): integers from narrow and full ranges (many duplicates,
// then few), floats from every bit pattern (NaN payloads, infinities, subnormals, signed zeros);
// lengths are generated explicitly up to several blocks, within the variant's limit. Each case
// checks fuzz::kDrawsPerCase draws (draws.hpp). A failure prints the counterexample and, at
// exit, the RC_PARAMS="reproduce=..." line.
#include "draws.hpp"
#include "elements.hpp"
#include "harness/gtest/test_main.hpp"
#include "harness/sort/sort_oracle.hpp"

#include <kernels/registry.hpp>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace {

using fuzz::DrawCheck;
using harness::DeviceCalls;
using harness::total_order_less;
using kernels::SortForm;
using kernels::VariantInfo;

template <class K>
bool same_bits(const std::vector<K>& a, const std::vector<K>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(K)) == 0;
}

class SortProperties : public testing::TestWithParam<const VariantInfo*> {
 protected:
  const VariantInfo& variant() const { return *GetParam(); }
  std::string property(const std::string& what) const { return variant().id() + ": " + what; }

  template <class K>
  std::pair<int, std::vector<K>> generate_case(const fuzz::Element<K>& keys) const {
    std::vector<int> sizes = variant().block_sizes.all();
    sizes.push_back(0);  // the preferred size
    const int block = *rc::gen::elementOf(sizes);
    return {block, generate_keys(block, keys)};
  }
  // Keys of a length the variant takes with `block`, as generate_case draws them.
  template <class K>
  std::vector<K> generate_keys(int block, const fuzz::Element<K>& keys) const {
    const std::uint64_t limit = std::min<std::uint64_t>(100000, variant().max_length_with(block));
    const std::size_t drawn = *rc::gen::weightedOneOf<std::size_t>(
        {{2, rc::gen::inRange<std::size_t>(0, std::min<std::uint64_t>(limit, 3000) + 1)},
         {1, rc::gen::inRange<std::size_t>(0, limit + 1)}});
    const auto n = static_cast<std::size_t>(variant().accepted_length_at_most(drawn, block, kernels::type_key_v<K>));
    return fuzz::values(n, keys);
  }

  // Checks one property per key type the variant declares, each draw draw(calls, K{}); skips the
  // test when there is none.
  template <class Draw>
  void for_each_declared_key(const std::string& what, Draw draw) {
    bool ran = false;
    fuzz::for_each_element_type([&](auto key, auto) {
      using K = decltype(key);
      constexpr kernels::TypeKey type = kernels::type_key_v<K>;
      if (!variant().supports(type)) return;
      ran = true;
      EXPECT_TRUE(fuzz::check_draws(property(std::string(kernels::name(type)) + " keys: " + what),
                                    [&](DeviceCalls& calls) { return draw(calls, K{}); }));
    });
    if (!ran) GTEST_SKIP() << harness::kContractSkip << variant().id() << " declares no key type";
  }
};

TEST_P(SortProperties, OutputIsASortedPermutationOfTheInput) {
  for_each_declared_key("come out in totalOrder (NaN, inf, -0.0 included), as a permutation",
                        [this](DeviceCalls& calls, auto key) -> DrawCheck {
                          using K = decltype(key);
                          auto [block, values] = generate_case(fuzz::sort_keys<K>());
                          const std::vector<K>& got = calls.sort<K>(variant(), SortForm::keys, values, block).keys;
                          return [values = std::move(values), &got] {
                            RC_ASSERT(got.size() == values.size());
                            for (std::size_t i = 1; i < got.size(); ++i)
                              RC_ASSERT(!total_order_less(got[i], got[i - 1]));
                            std::vector<K> expected = values;
                            std::sort(expected.begin(), expected.end(), total_order_less<K>);
                            RC_ASSERT(same_bits(got, expected));
                          };
                        });
}

// A caller reuses a workspace, as CUB's temporary storage is meant to be: a drawn sequence of sorts (other keys and
// lengths, one block size as one caller's) one after another through one workspace poisoned once, each a sorted
// permutation of its keys. A failing sequence shrinks from its end to the fewest sorts that still fail.
TEST_P(SortProperties, CallsInSequenceThroughOneWorkspace) {
  for_each_declared_key(
      "each of a sequence of sorts through one workspace is sorted", [this](DeviceCalls& calls, auto key) -> DrawCheck {
        using K = decltype(key);
        auto [block, first] = generate_case(fuzz::sort_keys<K>());
        const auto count = *rc::gen::inRange<std::size_t>(2, 5);
        std::vector<std::pair<std::vector<K>, const std::vector<K>*>> sequence;
        calls.begin_sequence();
        for (std::size_t k = 0; k < count; ++k) {
          std::vector<K> keys = k == 0 ? std::move(first) : generate_keys(block, fuzz::sort_keys<K>());
          const std::vector<K>& got = calls.sort<K>(variant(), SortForm::keys, keys, block).keys;
          sequence.emplace_back(std::move(keys), &got);
        }
        calls.end_sequence();
        return [sequence = std::move(sequence)] {
          for (const auto& [keys, got] : sequence) {
            std::vector<K> expected = keys;
            std::sort(expected.begin(), expected.end(), total_order_less<K>);
            RC_ASSERT(same_bits(*got, expected));
          }
        };
      });
}

TEST_P(SortProperties, SortingIsIdempotent) {
  for_each_declared_key("sort(sort(x)) == sort(x)", [this](DeviceCalls& calls, auto key) -> DrawCheck {
    using K = decltype(key);
    const auto [block, values] = generate_case(fuzz::sort_keys<K>());
    const harness::SortedOnDevice<K>& once = calls.sort<K>(variant(), SortForm::keys, values, block);
    const harness::SortedOnDevice<K>& twice = calls.sort_again(once);
    return [&once, &twice] { RC_ASSERT(same_bits(once.keys, twice.keys)); };
  });
}

// Variants with the key-value form (all of them stable).
class StableSortProperties : public SortProperties {};

TEST_P(StableSortProperties, EqualKeysKeepTheirInputOrder) {
  for_each_declared_key("equal keys keep their input order (values are original indices)",
                        [this](DeviceCalls& calls, auto key) -> DrawCheck {
                          using K = decltype(key);
                          auto [block, values] = generate_case(fuzz::sort_keys<K>());
                          const harness::SortedOnDevice<K>& got =
                              calls.sort<K>(variant(), SortForm::pairs, values, block);
                          return [values = std::move(values), &got] {
                            const auto& [keys, indices] = got;
                            for (std::size_t i = 0; i < keys.size(); ++i)
                              RC_ASSERT(harness::bits_of(values[indices[i]]) == harness::bits_of(keys[i]));
                            for (std::size_t i = 1; i < keys.size(); ++i) {
                              if (harness::bits_of(keys[i]) == harness::bits_of(keys[i - 1]))
                                RC_ASSERT(indices[i - 1] < indices[i]);
                            }
                          };
                        });
}

std::vector<const VariantInfo*> pair_sorts() {
  std::vector<const VariantInfo*> chosen;
  for (const VariantInfo* variant : kernels::variants_of(kernels::Family::sort)) {
    if (variant->supports(SortForm::pairs)) chosen.push_back(variant);
  }
  return chosen;
}

INSTANTIATE_TEST_SUITE_P(property, SortProperties, testing::ValuesIn(kernels::variants_of(kernels::Family::sort)),
                         harness::variant_param_name);
INSTANTIATE_TEST_SUITE_P(property, StableSortProperties, testing::ValuesIn(pair_sorts()), harness::variant_param_name);

}  // namespace
