// Warp-shuffle tile scan: four consecutive values per thread.
//
// Each thread scans its values in registers, the threads' totals are scanned across the block
// (detail/warp_scan.cuh), and each thread adds its exclusive prefix: no shared-memory tree, two barriers in all.
// Registered alone (one block) and under scan-then-fan.
#include <kernels/scan/detail/make_scan_variant.cuh>
#include <kernels/scan/detail/warp_scan.cuh>
#include <kernels/variant/scan.cuh>

namespace kernels::detail {
namespace {

struct WarpShuffleTile {
  static constexpr unsigned items_per_thread = 4;

  template <class T>
  static std::size_t shared_bytes(int) {
    return 0;
  }
  // Serial over the thread's values, the warp and block levels, the prefix add.
  static std::uint64_t tile_depth(int block_size) { return items_per_thread + log2_exact(block_size) + 2; }

  template <ScanKind kind, class OpT, class T>
  __device__ static T scan_tile(const T* in, T* out, unsigned count) {
    const OpT op;
    const unsigned first = threadIdx.x * items_per_thread;
    T values[items_per_thread];
    T running = OpT::identity();
#pragma unroll
    for (unsigned j = 0; j < items_per_thread; ++j) {
      values[j] = first + j < count ? in[first + j] : OpT::identity();
      running = op(running, values[j]);
    }
    T total;
    T prefix = block_exclusive_scan<OpT>(running, &total);  // after its barriers every load is done
#pragma unroll
    for (unsigned j = 0; j < items_per_thread; ++j) {
      const T inclusive = op(prefix, values[j]);
      if (first + j < count) out[first + j] = kind == ScanKind::inclusive ? inclusive : prefix;
      prefix = inclusive;
    }
    return total;
  }
};

}  // namespace

const bool registered = register_variant(make_scan_variant<SingleBlock<WarpShuffleTile>>({
    .name = "warp_shuffle",
    .description = "warp-shuffle block scan, four values per thread, warp totals through shared memory; one block",
    .block_sizes = {32, 1024, 256},
    .deterministic = true,
    .in_place = true,
}));

const bool registered_under_fan = register_variant(make_scan_variant<ScanThenFan<WarpShuffleTile>>({
    .name = "scan_then_fan/warp_shuffle",
    .description = "scan-then-fan over warp-shuffle tiles, any length",
    .block_sizes = {32, 1024, 256},
    .deterministic = true,
    .in_place = true,
}));

}  // namespace kernels::detail
