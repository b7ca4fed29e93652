// Blelloch's work-efficient tile scan, two values per thread (up-sweep, clear, down-sweep), over a shared-memory
// layout: Layout::slot(i) is where value i lives, Layout::slots(capacity) the words a tile takes
// (blelloch_plain.cu, blelloch_padded.cu).
#pragma once

#include <kernels/scan/detail/tile_scan.cuh>

namespace kernels::detail {

template <class Layout>
struct BlellochTile {
  static constexpr unsigned items_per_thread = 2;

  template <class T>
  static std::size_t shared_bytes(int block_size) {
    return std::size_t(Layout::slots(2 * block_size)) * sizeof(T);
  }
  // Up the tree and down again, one rounding per level each way, plus the inclusive add.
  static std::uint64_t tile_depth(int block_size) { return 2 * log2_exact(2 * block_size) + 1; }

  template <ScanKind kind, class OpT, class T>
  __device__ static T scan_tile(const T* in, T* out, unsigned count) {
    T* values = dynamic_shared<T>();
    const OpT op;
    const unsigned tid = threadIdx.x;
    const unsigned capacity = 2 * blockDim.x;
    const unsigned a = tid, b = tid + blockDim.x;  // the thread's two values, conflict-free loads
    const T x_a = a < count ? in[a] : OpT::identity();
    const T x_b = b < count ? in[b] : OpT::identity();
    values[Layout::slot(a)] = x_a;
    values[Layout::slot(b)] = x_b;

    // Up-sweep: partial sums in place, the tile total ends at the last slot.
    unsigned stride = 1;
    for (unsigned active = blockDim.x; active > 0; active /= 2, stride *= 2) {
      __syncthreads();
      if (tid < active) {
        const unsigned left = stride * (2 * tid + 1) - 1, right = stride * (2 * tid + 2) - 1;
        values[Layout::slot(right)] = op(values[Layout::slot(left)], values[Layout::slot(right)]);
      }
    }
    __syncthreads();
    const T total = values[Layout::slot(capacity - 1)];
    __syncthreads();
    if (tid == 0) values[Layout::slot(capacity - 1)] = OpT::identity();

    // Down-sweep: each node passes its prefix to the left child and prefix + left to the right.
    for (unsigned active = 1; active < capacity; active *= 2) {
      stride /= 2;
      __syncthreads();
      if (tid < active) {
        const unsigned left = stride * (2 * tid + 1) - 1, right = stride * (2 * tid + 2) - 1;
        const T left_sum = values[Layout::slot(left)];
        values[Layout::slot(left)] = values[Layout::slot(right)];
        values[Layout::slot(right)] = op(values[Layout::slot(right)], left_sum);
      }
    }
    __syncthreads();
    // values now hold the exclusive scan.
    if (a < count) out[a] = kind == ScanKind::inclusive ? op(values[Layout::slot(a)], x_a) : values[Layout::slot(a)];
    if (b < count) out[b] = kind == ScanKind::inclusive ? op(values[Layout::slot(b)], x_b) : values[Layout::slot(b)];
    return total;
  }
};

}  // namespace kernels::detail
