// A window of keys in a block's shared memory, held as encode_order() bits so that one
// unsigned comparison gives the sort order (IEEE totalOrder for floats; the encoding is a
// bijection, so decoding gives back every key's exact bits). The block-local stages of the
// odd-even and bitonic sorts load a window, sort it there and store it back.
#pragma once

#include <kernels/detail/launch.cuh>
#include <kernels/sort/detail/total_order.cuh>

namespace kernels::detail {

// Loads keys[0, count) into window[0, count), encoded; reads nothing past count. Callers
// synchronise the block before using the window.
template <class K>
__device__ void load_window(const K* keys, unsigned count, ordered_bits_t<K>* window) {
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x) window[i] = encode_order(keys[i]);
}

// Writes window[0, count), decoded, to keys[0, count); writes nothing past count.
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

}  // namespace kernels::detail
