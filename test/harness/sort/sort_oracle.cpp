#include "harness/sort/sort_oracle.hpp"

#include "harness/numeric/element_traits.hpp"
#include "harness/reduce/reduce_oracle.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>
#include <utility>

namespace harness {
namespace {

// totalOrder as a signed integer comparison: negative floats have their magnitude bits reversed.
template <class K>
auto total_order_key(K key) {
  if constexpr (is_float_v<K>) {
    using Signed = std::make_signed_t<bits_t<K>>;
    using Unsigned = std::make_unsigned_t<Signed>;
    const auto bits = std::bit_cast<Signed>(key);
    // Cast before the shift: a 16-bit ~0 would be promoted to the int -1, which shifts to -1.
    const auto magnitude_mask = static_cast<Unsigned>(static_cast<Unsigned>(~Unsigned(0)) >> 1);
    return bits < 0 ? static_cast<Signed>(static_cast<Unsigned>(bits) ^ magnitude_mask) : bits;
  } else {
    return key;
  }
}

}  // namespace

template <class K>
bool total_order_less(K a, K b) {
  return total_order_key(a) < total_order_key(b);
}

template <class K>
SortExpectation<K> expect_sort(std::span<const K> keys) {
  // Sorting (key, index) pairs by key, then index, is a stable sort of the keys.
  using Key = decltype(total_order_key(K{}));
  std::vector<std::pair<Key, std::uint32_t>> pairs(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) pairs[i] = {total_order_key(keys[i]), static_cast<std::uint32_t>(i)};
  std::sort(pairs.begin(), pairs.end());
  SortExpectation<K> expected;
  expected.keys.resize(keys.size());
  expected.order.resize(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    expected.order[i] = pairs[i].second;
    expected.keys[i] = keys[pairs[i].second];
  }
  return expected;
}

template <class K>
Mismatches judge_sort(const SortExpectation<K>& expected, std::span<const K> got_keys,
                      std::span<const std::uint32_t> got_values) {
  Mismatches mismatches;
  const auto wrong_key = [&](std::size_t i) { return std::memcmp(&expected.keys[i], &got_keys[i], sizeof(K)) != 0; };
  const auto problem = [&](std::size_t i) {
    if (wrong_key(i)) return "expected key " + show_value(expected.keys[i]) + ", got " + show_value(got_keys[i]);
    return "key " + show_value(expected.keys[i]) + " carries value " + std::to_string(got_values[i]) + ", expected " +
           std::to_string(expected.order[i]) + " (stable order)";
  };
  for (std::size_t i = 0; i < expected.keys.size(); ++i) {
    if (wrong_key(i) || (!got_values.empty() && got_values[i] != expected.order[i])) {
      mismatches.note(i, [&] { return problem(i); });
    }
  }
  mismatches.describe_last([&] { return problem(mismatches.last); });
  return mismatches;
}

#define HARNESS_INSTANTIATE_SORT_ORACLE(key, K, out, label)       \
  template bool total_order_less<K>(K, K);                        \
  template SortExpectation<K> expect_sort<K>(std::span<const K>); \
  template Mismatches judge_sort<K>(const SortExpectation<K>&, std::span<const K>, std::span<const std::uint32_t>);
KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_INSTANTIATE_SORT_ORACLE)
#undef HARNESS_INSTANTIATE_SORT_ORACLE

}  // namespace harness
