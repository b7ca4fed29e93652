#include "harness/sort/sort_oracle.hpp"

#include "harness/numeric/element_traits.hpp"
#include "harness/reduce/reduce_oracle.hpp"
#include "harness/sort/total_order.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace harness {

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
