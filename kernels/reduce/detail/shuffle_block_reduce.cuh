// Block reduction through warp shuffles: warps reduce in registers, their results meet in shared memory.
#pragma once

namespace kernels::detail {

template <class OpT, class T>
__device__ T warp_reduce_shuffle(T v, const OpT& op) {
  for (int offset = 16; offset > 0; offset /= 2) v = op(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}

// Needs blockDim.x a multiple of 32 (at most 1024). Returns the block's result in thread 0. A
// kernel calling it twice must place a __syncthreads() between the calls.
template <class OpT, class T>
__device__ T block_reduce_shuffle(T v, const OpT& op) {
  __shared__ T warp_results[32];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  v = warp_reduce_shuffle(v, op);
  if (lane == 0) warp_results[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_results[lane] : OpT::identity();
    v = warp_reduce_shuffle(v, op);
  }
  return v;
}

}  // namespace kernels::detail
