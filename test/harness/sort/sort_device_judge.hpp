// The device judge of sorts, every key type (the order is exact for floats too). Each output
// position must be in order after the one before it (sort/total_order.hpp). For the key-value
// form, whose values are the keys' original indices, position i's value v must name an input
// key bit for bit equal to the output key, and equal keys must carry increasing v (stability).
// Then no two positions carry the same v (they would hold equal keys, so lie in one run of equal
// keys, whose values increase), so the values are a permutation: together the oracle's check,
// exactly. For the keys
// form, the multiset of keys is compared by two 64-bit fingerprints (sums of two hashes of each
// key's bits) of the input and of the output: a change of the multiset goes unseen only if both
// sums collide.
#pragma once

#include "harness/runner/device_verdict.hpp"
#include "harness/sort/total_order.hpp"

#include <cuda/std/bit>

#include <cstdint>
#include <vector>

namespace harness {

template <class K>
struct SortJudgeRun {
  const K* keys_in;
  const K* keys_out;
  const std::uint32_t* values_out;  // nullptr for the keys form
  std::uint64_t n;
};

template <class K>
HARNESS_HOST_DEVICE bool same_bits(K a, K b) {
  return cuda::std::bit_cast<bits_t<K>>(a) == cuda::std::bit_cast<bits_t<K>>(b);
}

// Whether position i of a run holds the checks above (the fingerprints aside).
template <class K>
HARNESS_HOST_DEVICE bool sort_position_holds(const SortJudgeRun<K>& run, std::uint64_t i) {
  const K key = run.keys_out[i];
  if (i > 0 && total_order_key(key) < total_order_key(run.keys_out[i - 1])) return false;
  if (run.values_out == nullptr) return true;
  const std::uint32_t v = run.values_out[i];
  if (v >= run.n || !same_bits(key, run.keys_in[v])) return false;
  return i == 0 || !same_bits(key, run.keys_out[i - 1]) || run.values_out[i - 1] < v;
}

// One verdict per run, from one pass on the tests' stream. A fingerprint that differs counts one
// mismatch with no position.
template <class K>
std::vector<DeviceVerdict> judge_sorts_on_device(const std::vector<SortJudgeRun<K>>& runs);

}  // namespace harness
