// Warp and block scans through register shuffles, for the warp-shuffle tile scan and decoupled look-back.
#pragma once

#include <kernels/scan/detail/tile_scan.cuh>

namespace kernels::detail {

// Inclusive scan of one value per lane (__shfl_up_sync, log2(32) steps).
template <class OpT, class T>
__device__ T warp_inclusive_scan(T v) {
  const OpT op;
  const unsigned lane = threadIdx.x % 32;
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    const T left = __shfl_up_sync(0xffffffffu, v, offset);
    if (lane >= offset) v = op(left, v);
  }
  return v;
}

// Exclusive scan of one value per thread over the block (blockDim a multiple of 32); returns the thread's
// prefix, and *block_total receives the block's total in every thread.
template <class OpT, class T>
__device__ T block_exclusive_scan(T v, T* block_total) {
  __shared__ T warp_totals[32];
  const OpT op;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const T inclusive = warp_inclusive_scan<OpT>(v);
  if (lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    const T total = lane < warps ? warp_totals[lane] : OpT::identity();
    warp_totals[lane] = warp_inclusive_scan<OpT>(total);
  }
  __syncthreads();
  const T warp_prefix = warp == 0 ? OpT::identity() : warp_totals[warp - 1];
  const T lane_prefix = __shfl_up_sync(0xffffffffu, inclusive, 1);
  *block_total = warp_totals[warps - 1];
  const T prefix = lane == 0 ? warp_prefix : op(warp_prefix, lane_prefix);
  __syncthreads();  // warp_totals may be reused by the caller's next scan
  return prefix;
}

}  // namespace kernels::detail
