// The CPU oracle of the sort family, with its own statement of the order (not the kernels'
// encoding): integers by value, floats by IEEE 754 totalOrder,
//   -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN (NaNs by payload).
// totalOrder tells every bit pattern apart, so the sorted keys are unique and compared bit for
// bit: that checks order and the exact multiset at once. For the key-value form the values must
// be the keys' original indices in stable order.
#pragma once

#include "harness/diagnosis/mismatches.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace harness {

// a before b in totalOrder (a strict weak order; equal exactly when the bits are).
template <class K>
bool total_order_less(K a, K b);

// The oracle's answer for one input: its keys sorted, and their original indices in stable
// order (what the key-value form must return as values).
template <class K>
struct SortExpectation {
  std::vector<K> keys;
  std::vector<std::uint32_t> order;
};

template <class K>
SortExpectation<K> expect_sort(std::span<const K> keys);

// Mismatches of got_keys (and, when not empty, got_values) with the expectation.
template <class K>
Mismatches judge_sort(const SortExpectation<K>& expected, std::span<const K> got_keys,
                      std::span<const std::uint32_t> got_values);

// For tests of small inputs: expect_sort and judge_sort in one.
template <class K>
Mismatches judge_sort(std::span<const K> keys, std::span<const K> got_keys, std::span<const std::uint32_t> got_values) {
  return judge_sort(expect_sort(keys), got_keys, got_values);
}

}  // namespace harness
