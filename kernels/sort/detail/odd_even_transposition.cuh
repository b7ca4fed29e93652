// Odd-even transposition sort of a shared-memory window: the block sort of odd_even_block (docs/kernels.md#sort).
#pragma once

#include <kernels/sort/detail/shared_window.cuh>

namespace kernels::detail {

// Sorts window[0, count), count <= 2 * blockDim.x; every thread calls it, after a barrier over the written window.
template <class Bits>
__device__ void odd_even_transposition_sort(Bits* window, unsigned count) {
  for (unsigned phase = 0; phase < count; ++phase) {
    const unsigned left = 2 * threadIdx.x + (phase & 1);
    if (left + 1 < count) compare_exchange(window, left, left + 1);
    __syncthreads();
  }
}

}  // namespace kernels::detail
