// Odd-even transposition sort of one window of keys in a block's shared memory: the block
// sort of odd_even_block.
//
// The window (detail/shared_window.cuh) holds up to 2 * blockDim.x keys as encode_order()
// bits. Thread t owns the pair (2t, 2t + 1) in even phases and (2t + 1, 2t + 2) in odd phases;
// a pair whose right index is past the window's end has no partner and is skipped (an
// odd-length window's last key in even phases, an even-length window's last key in odd
// phases). `count` phases sort `count` keys whatever the input (Habermann 1972; by the 0-1
// principle, the rightmost 1 starts moving by phase 2 and the k-th from the right by phase
// k + 1, then moves every phase until it is home). A pair is swapped only when its left key is
// strictly greater, so equal keys never pass each other: the sort is stable.
#pragma once

#include <kernels/sort/detail/shared_window.cuh>

namespace kernels::detail {

// Sorts window[0, count), count <= 2 * blockDim.x. Every thread of the block must call it
// (it synchronises the block), after the window has been written and made visible by a
// __syncthreads(); on return the sorted window is visible to all threads.
template <class Bits>
__device__ void odd_even_transposition_sort(Bits* window, unsigned count) {
  for (unsigned phase = 0; phase < count; ++phase) {
    const unsigned left = 2 * threadIdx.x + (phase & 1);
    if (left + 1 < count) compare_exchange(window, left, left + 1);
    __syncthreads();
  }
}

}  // namespace kernels::detail
