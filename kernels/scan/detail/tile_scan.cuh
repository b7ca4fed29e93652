// What the block-level scan algorithms share, and the two drivers built on them: SingleBlock<Algo> (one tile)
// and ScanThenFan<Algo> (any length: scan the tiles, scan their totals recursively, add each tile's prefix).
// What an `Algo` provides: docs/kernels.md#scan.
#pragma once

#include <kernels/detail/device_query.hpp>
#include <kernels/detail/launch.cuh>
#include <kernels/detail/ops.cuh>
#include <kernels/detail/rounding.hpp>
#include <kernels/scan/detail/scan_variant.hpp>

#include <bit>
#include <cstdint>
#include <limits>

namespace kernels::detail {

// One block per tile. Element 0 of an exclusive scan is the empty prefix (empty_result: +0.0 for
// a float sum, whose identity -0.0 the algorithms put there to keep signs right elsewhere).
template <class Algo, ScanKind kind, class OpT, class T>
__global__ void scan_tiles_kernel(const T* in, T* out, std::uint64_t n, T* tile_totals) {
  const std::uint64_t capacity = std::uint64_t(blockDim.x) * Algo::items_per_thread;
  const std::uint64_t first = std::uint64_t(blockIdx.x) * capacity;
  const auto count = static_cast<unsigned>(n - first < capacity ? n - first : capacity);
  const T total = Algo::template scan_tile<kind, OpT>(in + first, out + first, count);
  __syncthreads();
  if (threadIdx.x == 0) {
    if (tile_totals != nullptr) tile_totals[blockIdx.x] = total;
    if (kind == ScanKind::exclusive && blockIdx.x == 0) out[0] = empty_result<OpT::kind, T>();
  }
}

// The fan: every element past the first tile gets the total of all earlier tiles, on its left.
template <class OpT, class T>
__global__ void add_tile_offsets_kernel(T* out, std::uint64_t n, std::uint64_t capacity, const T* tile_offsets) {
  const OpT op;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = capacity + std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = op(tile_offsets[i / capacity], out[i]);
  }
}

template <class Algo>
struct SingleBlock {
  static std::uint64_t tile_size(int block_size, TypeKey) { return std::uint64_t(block_size) * Algo::items_per_thread; }
  static std::uint64_t max_length(int block_size) { return std::uint64_t(block_size) * Algo::items_per_thread; }
  static std::uint64_t accumulation_depth(std::uint64_t, int block_size) { return Algo::tile_depth(block_size); }

  template <ScanKind kind, class OpT, class T>
  static std::size_t workspace_bytes(std::uint64_t, int) {
    return 0;
  }

  template <ScanKind kind, class OpT, class T>
  static void run(const T* in, T* out, const ScanCall& call) {
    const KernelLabel label{call.variant_id, type_key_v<T>, name(kind), "single tile"};
    launch_kernel(label, &scan_tiles_kernel<Algo, kind, OpT, T>, 1, call.block_size,
                  Algo::template shared_bytes<T>(call.block_size), call.stream, in, out, call.n,
                  static_cast<T*>(nullptr));
  }
};

template <class Algo>
struct ScanThenFan {
  static std::uint64_t capacity(int block_size) { return std::uint64_t(block_size) * Algo::items_per_thread; }
  static std::uint64_t tile_size(int block_size, TypeKey) { return capacity(block_size); }

  // The grid of one level is limited to 2^31 - 1 tiles.
  static std::uint64_t max_length(int block_size) {
    return std::uint64_t(std::numeric_limits<int>::max()) * capacity(block_size);
  }

  // Tile totals of every level: ceil(n / C), ceil(n / C^2), ... while more than one tile.
  template <ScanKind kind, class OpT, class T>
  static std::size_t workspace_bytes(std::uint64_t n, int block_size) {
    std::size_t bytes = 0;
    for (std::uint64_t count = n; count > capacity(block_size);) {
      count = ceil_div(count, capacity(block_size));
      bytes += align_up(count * sizeof(T));
    }
    return bytes;
  }

  template <ScanKind kind, class OpT, class T>
  static void run(const T* in, T* out, const ScanCall& call) {
    scan_level<kind, OpT>(in, out, call.n, static_cast<char*>(call.workspace.data), call, 0);
  }

  // An output passes through its tile's scan, then gets its tile's offset added: one more
  // rounding on top of the depth of the offsets, which are themselves a scan of tile totals.
  static std::uint64_t accumulation_depth(std::uint64_t n, int block_size) {
    const std::uint64_t tile = Algo::tile_depth(block_size);
    if (n <= capacity(block_size)) return tile;
    return tile + 1 + tile + accumulation_depth(ceil_div(n, capacity(block_size)), block_size);
  }

 private:
  template <ScanKind kind, class OpT, class T>
  static void scan_level(const T* in, T* out, std::uint64_t n, char* workspace, const ScanCall& call, int level) {
    const int block = call.block_size;
    const std::size_t shared = Algo::template shared_bytes<T>(block);
    const KernelLabel label{call.variant_id, type_key_v<T>, name(kind), level == 0 ? "tiles" : "tile totals"};
    if (n <= capacity(block)) {
      launch_kernel(label, &scan_tiles_kernel<Algo, kind, OpT, T>, 1, block, shared, call.stream, in, out, n,
                    static_cast<T*>(nullptr));
      return;
    }
    const std::uint64_t tiles = ceil_div(n, capacity(block));
    T* totals = reinterpret_cast<T*>(workspace);
    launch_kernel(label, &scan_tiles_kernel<Algo, kind, OpT, T>, static_cast<unsigned>(tiles), block, shared,
                  call.stream, in, out, n, totals);
    scan_level<ScanKind::exclusive, OpT>(totals, totals, tiles, workspace + align_up(tiles * sizeof(T)), call,
                                         level + 1);
    const KernelLabel fan{call.variant_id, type_key_v<T>, name(kind), "fan"};
    const std::uint64_t fan_blocks = ceil_div(n - capacity(block), 256);
    const auto grid =
        static_cast<unsigned>(fan_blocks < device_filling_grid(256) ? fan_blocks : device_filling_grid(256));
    launch_kernel(fan, &add_tile_offsets_kernel<OpT, T>, grid, 256, 0, call.stream, out, n, capacity(block),
                  static_cast<const T*>(totals));
  }
};

}  // namespace kernels::detail
