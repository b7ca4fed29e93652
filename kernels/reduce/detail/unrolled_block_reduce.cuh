// The completely unrolled block tree of Harris's steps 6 and 7: with the block size a template
// parameter, every loop bound and every `tid < s` test is a constant, and the compiler drops the
// branches that cannot apply to the block size.
#pragma once

#include <kernels/reduce/detail/last_warp.cuh>

#include <utility>

namespace kernels::detail {

// Reduces the block's values; on entry values[tid] == v for every thread, after a barrier.
// Returns the block's result in thread 0.
template <unsigned BlockSize, class OpT, class T>
__device__ T unrolled_block_reduce(T* values, T v, const OpT& op) {
  static_assert(BlockSize >= 32 && BlockSize <= 1024 && (BlockSize & (BlockSize - 1)) == 0);
  const unsigned tid = threadIdx.x;
  if constexpr (BlockSize >= 1024) {
    if (tid < 512) values[tid] = v = op(v, values[tid + 512]);
    __syncthreads();
  }
  if constexpr (BlockSize >= 512) {
    if (tid < 256) values[tid] = v = op(v, values[tid + 256]);
    __syncthreads();
  }
  if constexpr (BlockSize >= 256) {
    if (tid < 128) values[tid] = v = op(v, values[tid + 128]);
    __syncthreads();
  }
  if constexpr (BlockSize >= 128) {
    if (tid < 64) values[tid] = v = op(v, values[tid + 64]);
    __syncthreads();
  }
  if (tid < 32) {
    if constexpr (BlockSize >= 64) v = last_warp_step(values, v, 32, op);
    v = last_warp_step(values, v, 16, op);
    v = last_warp_step(values, v, 8, op);
    v = last_warp_step(values, v, 4, op);
    v = last_warp_step(values, v, 2, op);
    v = last_warp_step(values, v, 1, op);
  }
  return v;
}

// Calls f(std::integral_constant<unsigned, B>{}) for the run-time block size B (32 to 1024).
template <class F>
auto with_block_size(int block_size, F&& f) {
  switch (block_size) {
    case 32: return f(std::integral_constant<unsigned, 32>{});
    case 64: return f(std::integral_constant<unsigned, 64>{});
    case 128: return f(std::integral_constant<unsigned, 128>{});
    case 256: return f(std::integral_constant<unsigned, 256>{});
    case 512: return f(std::integral_constant<unsigned, 512>{});
    default: return f(std::integral_constant<unsigned, 1024>{});  // validated: 1024 is the only one left
  }
}

}  // namespace kernels::detail
