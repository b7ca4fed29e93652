// Blelloch's work-efficient scan with bank-conflict padding (GPU Gems 3, ch. 39).
//
// The tree of blelloch_plain, but value i lives in word i + i / 32: a pad word after every 32 values keeps the
// tree's power-of-two strides off a single bank. Registered alone (one block) and under scan-then-fan.
#include <kernels/scan/detail/blelloch_tile.cuh>
#include <kernels/scan/detail/make_scan_variant.cuh>
#include <kernels/variant/scan.cuh>

namespace kernels::detail {
namespace {

struct PaddedLayout {
  static constexpr unsigned kLogBanks = 5;
  __host__ __device__ static constexpr unsigned slot(unsigned i) { return i + (i >> kLogBanks); }
  __host__ __device__ static constexpr unsigned slots(unsigned capacity) { return slot(capacity - 1) + 1; }
};

using BlellochPadded = BlellochTile<PaddedLayout>;

}  // namespace

const bool registered = register_variant(make_scan_variant<SingleBlock<BlellochPadded>>({
    .name = "blelloch_padded",
    .description = "Blelloch up-sweep/down-sweep with one pad word per 32 against bank conflicts; one block",
    .block_sizes = {1, 1024, 256},
    .deterministic = true,
    .in_place = true,
}));

const bool registered_under_fan = register_variant(make_scan_variant<ScanThenFan<BlellochPadded>>({
    .name = "scan_then_fan/blelloch_padded",
    .description = "scan-then-fan over bank-conflict-padded Blelloch tiles, any length",
    .block_sizes = {1, 1024, 256},
    .deterministic = true,
    .in_place = true,
}));

}  // namespace kernels::detail
