// Blelloch's work-efficient scan, two values per thread, plain shared-memory layout (detail/blelloch_tile.cuh).
//
// Value i lives in shared word i, so the tree's strides of 2, 4, 8, ... words make a warp's threads collide on
// banks; blelloch_padded.cu removes that. Registered alone (one block) and under scan-then-fan.
#include <kernels/scan/detail/blelloch_tile.cuh>
#include <kernels/scan/detail/make_scan_variant.cuh>
#include <kernels/variant/scan.cuh>

namespace kernels::detail {
namespace {

struct PlainLayout {
  __host__ __device__ static constexpr unsigned slot(unsigned i) { return i; }
  __host__ __device__ static constexpr unsigned slots(unsigned capacity) { return capacity; }
};

using BlellochPlain = BlellochTile<PlainLayout>;

}  // namespace

const bool registered = register_variant(make_scan_variant<SingleBlock<BlellochPlain>>({
    .name = "blelloch_plain",
    .description = "Blelloch up-sweep/down-sweep, two values per thread, unpadded (bank conflicts); one block",
    .block_sizes = {1, 1024, 256},
    .deterministic = true,
    .in_place = true,
}));

const bool registered_under_fan = register_variant(make_scan_variant<ScanThenFan<BlellochPlain>>({
    .name = "scan_then_fan/blelloch_plain",
    .description = "scan-then-fan over unpadded Blelloch tiles, any length",
    .block_sizes = {1, 1024, 256},
    .deterministic = true,
    .in_place = true,
}));

}  // namespace kernels::detail
