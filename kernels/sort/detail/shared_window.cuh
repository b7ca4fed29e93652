// A window of keys in shared memory as encode_order() bits: one unsigned comparison gives the sort order.
#pragma once

#include <kernels/detail/launch.cuh>
#include <kernels/sort/detail/total_order.cuh>

namespace kernels::variant {

// Loads keys[0, count) encoded, reading nothing past count; callers synchronise before using the window.
template <class K>
__device__ void load_window(const K* keys, unsigned count, ordered_bits_t<K>* window) {
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x) window[i] = encode_order(keys[i]);
}

template <class K>
__device__ void store_window(const ordered_bits_t<K>* window, unsigned count, K* keys) {
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x) keys[i] = decode_order<K>(window[i]);
}

// Orders window[i] <= window[j] (i < j): the one comparator of every network here.
template <class Bits>
__device__ void compare_exchange(Bits* window, unsigned i, unsigned j) {
  const Bits a = window[i], b = window[j];
  if (a > b) {
    window[i] = b;
    window[j] = a;
  }
}

}  // namespace kernels::variant
