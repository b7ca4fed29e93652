// LSD radix sort: stable, 8 bits per pass, offsets from the project's own scan.
//
// Keys are sorted by their encode_order() bits (IEEE totalOrder for floats), least significant
// digit first: 4 passes for 32-bit keys, 8 for 64-bit ones. Each pass is stable, so after pass
// p the keys are ordered by their low 8(p + 1) bits, equal keys in input order. One pass:
//   1. histogram: block b counts the digits of its chunk of keys (a contiguous run of whole
//      tiles) into counts[d * grid + b], a digit-major array;
//   2. offsets: an exclusive scan of that array with kernels::scan("decoupled_lookback") gives,
//      for digit d and block b, the number of keys with a smaller digit plus those with digit d
//      in blocks before b: where block b's first key with digit d goes;
//   3. scatter: block b walks its chunk tile by tile. In a tile, warp w takes a contiguous run of
//      32 x kItems keys, 32 at a time in order; __match_any_sync groups the lanes with the same
//      digit, and a key's rank is the count its warp saw before (kept per warp and digit in
//      shared memory) plus its peers in lower lanes. Per digit, an exclusive sum over warps
//      places each warp's keys after those of the warps before it. A key goes to
//      base[d] + warp offset + rank, and base[d] then advances by the tile's count of d.
//      Every key with digit d lands after every earlier key with digit d: the pass is stable.
// The passes ping-pong between keys_out and a workspace buffer (values likewise). Pass p
// writes keys_out when passes - 1 - p is even, so the last pass always lands in keys_out; with
// an even number of passes (4 or 8) the first pass reads keys_in (never written) and writes the
// workspace buffer. The destinations are scattered writes: no staging of a tile in shared
// memory for coalescing, which a faster sort (CUB) does.
//
// Grid: chunks of at least 4096 keys and at most 4096 blocks, so the scanned array stays small
// next to n (256 counters per block) at every block size; the shape depends on n and the block
// size only, not on the device.
#include <kernels/reduce/detail/multi_pass.cuh>  // ceil_div, align_up
#include <kernels/scan.hpp>
#include <kernels/sort/detail/make_sort_variant.cuh>
#include <kernels/sort/detail/total_order.cuh>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string_view>

namespace kernels::detail {
namespace {

constexpr unsigned kDigitBits = 8;
constexpr unsigned kDigits = 1u << kDigitBits;
constexpr unsigned kWarp = 32;
constexpr unsigned kItems = 4;  // keys per thread per tile
constexpr std::uint64_t kMinChunk = 4096;
constexpr std::uint64_t kMaxGrid = 4096;
constexpr std::string_view kOffsetScan = "decoupled_lookback";

template <class K>
__device__ unsigned digit_of(K key, unsigned shift) {
  return static_cast<unsigned>(encode_order(key) >> shift) & (kDigits - 1);
}

// Block b's chunk: [b * chunk, min((b + 1) * chunk, n)), never empty.
template <class K>
__global__ void histogram_kernel(const K* keys, std::uint64_t n, std::uint64_t chunk, unsigned shift,
                                 unsigned* counts) {
  __shared__ unsigned histogram[kDigits];
  for (unsigned d = threadIdx.x; d < kDigits; d += blockDim.x) histogram[d] = 0;
  __syncthreads();
  const std::uint64_t begin = blockIdx.x * chunk;
  const std::uint64_t end = n - begin < chunk ? n : begin + chunk;
  for (std::uint64_t i = begin + threadIdx.x; i < end; i += blockDim.x) {
    atomicAdd(&histogram[digit_of(keys[i], shift)], 1u);
  }
  __syncthreads();
  for (unsigned d = threadIdx.x; d < kDigits; d += blockDim.x) {
    counts[std::uint64_t(d) * gridDim.x + blockIdx.x] = histogram[d];
  }
}

// Block b moves its chunk's keys (and values, for Pairs) to their places in `*_out`, given the
// scanned digit-major counts. Shared memory: one counter per warp and digit (dynamic), and per
// digit the block's next destination and the current tile's count.
template <bool Pairs, class K>
__global__ void __launch_bounds__(1024) scatter_kernel(const K* keys_in, K* keys_out, const std::uint32_t* values_in,
                                                       std::uint32_t* values_out, std::uint64_t n,
                                                       std::uint64_t chunk, unsigned shift,
                                                       const unsigned* offsets) {
  __shared__ unsigned base[kDigits];
  __shared__ unsigned tile_count[kDigits];
  unsigned* const warp_counts = dynamic_shared<unsigned>();  // [warp][digit]
  const unsigned warps = blockDim.x / kWarp, warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  const unsigned lanes_below = (1u << lane) - 1;
  unsigned* const my_counts = warp_counts + warp * kDigits;

  // Thread t owns digits t, t + B, ...: their base and their column of warp counters.
  for (unsigned d = threadIdx.x; d < kDigits; d += blockDim.x) {
    base[d] = offsets[std::uint64_t(d) * gridDim.x + blockIdx.x];
    for (unsigned w = 0; w < warps; ++w) warp_counts[w * kDigits + d] = 0;
  }
  __syncthreads();

  const std::uint64_t tile = std::uint64_t(blockDim.x) * kItems;
  const std::uint64_t begin = blockIdx.x * chunk;
  const std::uint64_t end = n - begin < chunk ? n : begin + chunk;
  for (std::uint64_t tile_begin = begin; tile_begin < end; tile_begin += tile) {  // the same trip count in every thread
    K keys[kItems] = {};
    std::uint32_t values[kItems] = {};
    unsigned digits[kItems], ranks[kItems];
#pragma unroll
    for (unsigned r = 0; r < kItems; ++r) {
      const std::uint64_t i = tile_begin + (std::uint64_t(warp) * kItems + r) * kWarp + lane;
      unsigned digit = kDigits;  // past the end: groups only with other lanes past the end
      if (i < end) {
        keys[r] = keys_in[i];
        if constexpr (Pairs) values[r] = values_in[i];
        digit = digit_of(keys[r], shift);
      }
      const unsigned peers = __match_any_sync(0xffffffffu, digit);
      const unsigned leader = __ffs(peers) - 1;
      const bool leads = lane == leader && digit < kDigits;  // reads and advances the peers' counter
      unsigned before = leads ? my_counts[digit] : 0;
      before = __shfl_sync(0xffffffffu, before, leader);
      ranks[r] = before + __popc(peers & lanes_below);
      if (leads) my_counts[digit] = before + __popc(peers);
      __syncwarp();
      digits[r] = digit;
    }
    __syncthreads();

    // Per digit: each warp's counter becomes the number of keys with that digit in the warps
    // before it; the tile's count is kept for advancing base.
    for (unsigned d = threadIdx.x; d < kDigits; d += blockDim.x) {
      unsigned sum = 0;
      for (unsigned w = 0; w < warps; ++w) {
        const unsigned count = warp_counts[w * kDigits + d];
        warp_counts[w * kDigits + d] = sum;
        sum += count;
      }
      tile_count[d] = sum;
    }
    __syncthreads();

#pragma unroll
    for (unsigned r = 0; r < kItems; ++r) {
      const unsigned digit = digits[r];
      if (digit < kDigits) {
        const std::uint64_t destination = std::uint64_t(base[digit]) + my_counts[digit] + ranks[r];
        keys_out[destination] = keys[r];
        if constexpr (Pairs) values_out[destination] = values[r];
      }
    }
    __syncthreads();

    for (unsigned d = threadIdx.x; d < kDigits; d += blockDim.x) {
      base[d] += tile_count[d];
      for (unsigned w = 0; w < warps; ++w) warp_counts[w * kDigits + d] = 0;
    }
    __syncthreads();
  }
}

// The launch shape of every pass: tiles of B x kItems keys, whole tiles per block.
struct RadixShape {
  std::uint64_t chunk;  // keys per block
  unsigned grid;
  std::uint64_t counters() const { return std::uint64_t(kDigits) * grid; }
};

RadixShape radix_shape(std::uint64_t n, int block_size) {
  const std::uint64_t tile = std::uint64_t(block_size) * kItems;
  const std::uint64_t tiles = ceil_div(n, tile);
  const std::uint64_t tiles_per_block = std::max(ceil_div(kMinChunk, tile), ceil_div(tiles, kMaxGrid));
  return {tiles_per_block * tile, static_cast<unsigned>(ceil_div(tiles, tiles_per_block))};
}

// Workspace, each part 256-byte aligned: the other key buffer (n keys), the other value buffer
// (n values, pairs only), the counts and the offsets (256 x grid each), the scan's workspace.
struct RadixLayout {
  RadixShape shape;
  std::size_t values_at, counts_at, offsets_at, scan_at, scan_bytes;
  std::size_t total() const { return scan_at + scan_bytes; }
};

template <SortForm form, class K>
RadixLayout radix_layout(std::uint64_t n, int block_size) {
  RadixLayout layout{radix_shape(n, block_size), 0, 0, 0, 0, 0};
  const std::size_t counter_bytes = align_up(layout.shape.counters() * sizeof(unsigned));
  layout.values_at = align_up(n * sizeof(K));
  layout.counts_at = layout.values_at + (form == SortForm::pairs ? align_up(n * sizeof(std::uint32_t)) : 0);
  layout.offsets_at = layout.counts_at + counter_bytes;
  layout.scan_at = layout.offsets_at + counter_bytes;
  layout.scan_bytes =
      kernels::scan_workspace_bytes<unsigned>(kOffsetScan, ScanKind::exclusive, layout.shape.counters());
  return layout;
}

struct RadixLsd {
  static constexpr bool sorts_pairs = true;

  // Counts, offsets and destinations are 32-bit: the largest offset is below n.
  static std::uint64_t max_length(int) { return std::numeric_limits<std::uint32_t>::max(); }

  template <SortForm form, class K>
  static std::size_t workspace_bytes(std::uint64_t n, int block_size) {
    return radix_layout<form, K>(n, block_size).total();
  }

  template <SortForm form, class K>
  static void run(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                  const SortCall& call) {
    constexpr bool pairs = form == SortForm::pairs;
    constexpr int passes = sizeof(K) * 8 / kDigitBits;
    const RadixLayout layout = radix_layout<form, K>(call.n, call.block_size);
    const RadixShape shape = layout.shape;
    auto* const workspace = static_cast<char*>(call.workspace.data);
    K* const other_keys = reinterpret_cast<K*>(workspace);
    auto* const other_values = pairs ? reinterpret_cast<std::uint32_t*>(workspace + layout.values_at) : nullptr;
    auto* const counts = reinterpret_cast<unsigned*>(workspace + layout.counts_at);
    auto* const offsets = reinterpret_cast<unsigned*>(workspace + layout.offsets_at);
    const Workspace scan_workspace{workspace + layout.scan_at, call.workspace.bytes - layout.scan_at};
    const std::size_t scatter_shared = std::size_t(call.block_size / kWarp) * kDigits * sizeof(unsigned);
    const KernelLabel histogram_label{call.variant_id, type_key_v<K>, name(form), "histogram"};
    const KernelLabel scatter_label{call.variant_id, type_key_v<K>, name(form), "scatter"};

    const K* source_keys = keys_in;
    const std::uint32_t* source_values = values_in;
    for (int pass = 0; pass < passes; ++pass) {
      const bool to_output = (passes - 1 - pass) % 2 == 0;
      K* const target_keys = to_output ? keys_out : other_keys;
      std::uint32_t* const target_values = to_output ? values_out : other_values;
      const unsigned shift = static_cast<unsigned>(pass) * kDigitBits;
      launch_kernel(histogram_label, &histogram_kernel<K>, shape.grid, call.block_size, 0, call.stream, source_keys,
                    call.n, shape.chunk, shift, counts);
      kernels::scan<unsigned>(kOffsetScan, ScanKind::exclusive, counts, shape.counters(), offsets, scan_workspace, {},
                              call.stream);
      launch_kernel(scatter_label, &scatter_kernel<pairs, K>, shape.grid, call.block_size, scatter_shared,
                    call.stream, source_keys, target_keys, source_values, target_values, call.n, shape.chunk, shift,
                    offsets);
      source_keys = target_keys;
      source_values = target_values;
    }
  }
};

}  // namespace

const SortVariant& sort_radix_lsd() {
  static const SortVariant variant = make_sort_variant<RadixLsd>({
      .name = "radix_lsd",
      .description = "stable LSD radix sort, 8-bit digits: block histograms, project scan, warp-match scatter",
      .block_sizes = {32, 1024, 256},
      .deterministic = true,
      .stable = true,
  });
  return variant;
}

}  // namespace kernels::detail
