// Harris 5-7's warp-synchronous tail: lanes are not in lockstep since Volta, so __syncwarp() orders their accesses.
#pragma once

namespace kernels::detail {

// Called by all 32 lanes of the first warp; only lanes below `offset` read, so 32 values suffice.
template <class OpT, class T>
__device__ T last_warp_step(T* values, T v, unsigned offset, const OpT& op) {
  const unsigned lane = threadIdx.x;
  if (lane < offset) v = op(v, values[lane + offset]);
  __syncwarp();
  values[lane] = v;
  __syncwarp();
  return v;
}

}  // namespace kernels::detail
