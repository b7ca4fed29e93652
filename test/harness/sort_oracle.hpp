// The CPU oracle of the sort family, with its own statement of the order (not the kernels'
// encoding): integers by value, floats by IEEE 754 totalOrder,
//   -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN (NaNs by payload).
// totalOrder tells every bit pattern apart, so the sorted keys are unique and compared bit for
// bit: that checks order and the exact multiset at once. For the key-value form the values must
// be the keys' original indices in stable order.
#pragma once

#include "mismatches.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace harness {

// a before b in totalOrder (a strict weak order; equal exactly when the bits are).
template <class K>
bool total_order_less(K a, K b);

// Indices 0..n-1 of `keys` in stable sorted order.
template <class K>
std::vector<std::uint32_t> stable_sort_order(std::span<const K> keys);

// Mismatches of got_keys (and, when given, got_values against stable order) with the oracle.
template <class K>
Mismatches judge_sort(std::span<const K> keys, std::span<const K> got_keys,
                          std::span<const std::uint32_t> got_values);

}  // namespace harness
