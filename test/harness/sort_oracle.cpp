#include "sort_oracle.hpp"

#include "reduce_oracle.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <type_traits>

namespace harness {
namespace {

// totalOrder as a signed integer comparison: negative floats have their magnitude bits reversed.
template <class K>
auto total_order_key(K key) {
  if constexpr (std::is_floating_point_v<K>) {
    using Signed = std::conditional_t<sizeof(K) == 4, std::int32_t, std::int64_t>;
    using Unsigned = std::make_unsigned_t<Signed>;
    const auto bits = std::bit_cast<Signed>(key);
    const Unsigned magnitude_mask = ~Unsigned(0) >> 1;
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
std::vector<std::uint32_t> stable_sort_order(std::span<const K> keys) {
  std::vector<std::uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return total_order_less(keys[a], keys[b]); });
  return order;
}

template <class K>
Mismatches judge_sort(std::span<const K> keys, std::span<const K> got_keys,
                          std::span<const std::uint32_t> got_values) {
  const std::vector<std::uint32_t> order = stable_sort_order(keys);
  Mismatches mismatches;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const K expected = keys[order[i]];
    if (std::memcmp(&expected, &got_keys[i], sizeof(K)) != 0) {
      mismatches.note(i, "expected key " + show_value(expected) + ", got " + show_value(got_keys[i]));
    } else if (!got_values.empty() && got_values[i] != order[i]) {
      mismatches.note(i, "key " + show_value(expected) + " carries value " + std::to_string(got_values[i]) +
                  ", expected " + std::to_string(order[i]) + " (stable order)");
    }
  }
  return mismatches;
}

#define HARNESS_INSTANTIATE_SORT_ORACLE(K)                                                                 \
  template bool total_order_less<K>(K, K);                                                                 \
  template std::vector<std::uint32_t> stable_sort_order<K>(std::span<const K>);                            \
  template Mismatches judge_sort<K>(std::span<const K>, std::span<const K>, std::span<const std::uint32_t>);
HARNESS_INSTANTIATE_SORT_ORACLE(int)
HARNESS_INSTANTIATE_SORT_ORACLE(unsigned)
HARNESS_INSTANTIATE_SORT_ORACLE(long long)
HARNESS_INSTANTIATE_SORT_ORACLE(float)
HARNESS_INSTANTIATE_SORT_ORACLE(double)
#undef HARNESS_INSTANTIATE_SORT_ORACLE

}  // namespace harness
