// The warp-synchronous tail of Harris's steps 5 to 7: once 64 or fewer values remain, the first
// warp finishes the tree without __syncthreads().
//
// Since Volta, lanes of a warp are scheduled independently and are not in lockstep, so the
// classic version (bare `volatile` shared memory, no synchronisation) races: a lane may
// overwrite its value before its neighbour has read it. Each step here separates every lane's
// read of its partner from its own write with __syncwarp(), and the write from the next read.
#pragma once

namespace kernels::detail {

// Combines the value of each lane below `offset` with the one `offset` lanes up, and publishes
// every lane's value. Called by all 32 lanes of the block's first warp; values[lane] holds `v`
// on entry. Only the lanes below `offset` feed the result, and only they read: the classic
// version lets every lane read, which runs past a 32-value array.
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
