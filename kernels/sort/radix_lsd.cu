// LSD radix sort: stable, 8 bits per pass, digit offsets from the project's own scan (Satish, Harris and Garland
// 2009; Merrill's upsweep / scan / downsweep). Per pass: an upsweep counts each block's digits, an exclusive scan
// with kernels::scan("decoupled_lookback") gives every block's digit offsets, and a downsweep ranks each tile's
// keys, sorts them locally in shared memory and stores them along each digit's run. The steps, traffic and grid:
// docs/kernels.md#sort.
#include <kernels/detail/launch.cuh>
#include <kernels/detail/rounding.hpp>
#include <kernels/scan.hpp>
#include <kernels/sort/detail/make_sort_variant.cuh>
#include <kernels/sort/detail/radix_digits.cuh>
#include <kernels/sort/detail/total_order.cuh>
#include <kernels/variant/sort.cuh>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string_view>

namespace kernels::detail {
namespace {

constexpr unsigned kMaxBlock = 1024;
constexpr std::uint64_t kMaxGrid = 8192;
constexpr std::string_view kOffsetScan = "decoupled_lookback";

// Keys per thread per tile: 64 bytes of keys (16 for 4-byte keys, 8 for 8-byte ones), at most 16
// (1- and 2-byte keys: 64 of them, with their values, would not fit a thread's registers).
template <class K>
constexpr unsigned kItems = sizeof(K) >= 4 ? 64 / sizeof(K) : 16;

// The scatter's counters: one per digit and warp, in digit-major order (index d * warps + w),
// with one padding word after every 32 so that the scan's reads (thread t: indices 8t to
// 8t + 7) are free of bank conflicts. There are 256 x warps counters and B threads: exactly 8
// per thread at every block size.
constexpr unsigned kCountersPerThread = kDigits / kWarp;
static_assert(kWarp % kCountersPerThread == 0, "a thread's counters share one padding group");
__host__ __device__ constexpr unsigned padded(unsigned i) { return i + i / kWarp; }
constexpr std::size_t counter_words(unsigned warps) { return padded(kDigits * warps); }

// Block b's chunk: [b * chunk, min((b + 1) * chunk, n)), never empty.
template <class K>
__global__ void __launch_bounds__(kMaxBlock)
    histogram_kernel(const K* keys, std::uint64_t n, std::uint64_t chunk, unsigned bit, unsigned* counts) {
  constexpr unsigned items = kItems<K>;
  __shared__ unsigned histogram[kDigits];
  for (unsigned d = threadIdx.x; d < kDigits; d += blockDim.x) histogram[d] = 0;
  __syncthreads();

  const unsigned lane = threadIdx.x % kWarp;
  const std::uint64_t tile = std::uint64_t(blockDim.x) * items;
  const std::uint64_t begin = blockIdx.x * chunk;
  const std::uint64_t end = n - begin < chunk ? n : begin + chunk;
  for (std::uint64_t tile_begin = begin; tile_begin < end; tile_begin += tile) {  // the same trip count in every thread
    ordered_bits_t<K> tile_keys[items];
#pragma unroll
    for (unsigned r = 0; r < items; ++r) {
      const std::uint64_t i = tile_begin + std::uint64_t(r) * blockDim.x + threadIdx.x;
      if (i < end) tile_keys[r] = encode_order(keys[i]);
    }
#pragma unroll
    for (unsigned r = 0; r < items; ++r) {
      const bool valid = tile_begin + std::uint64_t(r) * blockDim.x + threadIdx.x < end;
      const unsigned digit = valid ? digit_at(tile_keys[r], bit) : 0;
      const unsigned peers = match_peers(digit, valid);
      if (valid && lane == unsigned(__ffs(peers)) - 1) atomicAdd(&histogram[digit], unsigned(__popc(peers)));
    }
  }
  __syncthreads();
  for (unsigned d = threadIdx.x; d < kDigits; d += blockDim.x) {
    counts[std::uint64_t(d) * gridDim.x + blockIdx.x] = histogram[d];
  }
}

// Dynamic shared memory of the scatter: the staged tile (keys, then values for Pairs), then
// the padded counters.
template <bool Pairs, class K>
constexpr std::size_t scatter_shared_bytes(unsigned block_size) {
  const std::size_t tile = std::size_t(block_size) * kItems<K>;
  return tile * (sizeof(K) + (Pairs ? sizeof(std::uint32_t) : 0)) +
         counter_words(block_size / kWarp) * sizeof(unsigned);
}

// Block b moves its chunk's keys (and values, for Pairs) to their places in `*_out`, given the
// scanned digit-major counts (see the header for the steps).
template <bool Pairs, class K>
__global__ void __launch_bounds__(kMaxBlock)
    scatter_kernel(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                   std::uint64_t n, std::uint64_t chunk, unsigned bit, const unsigned* offsets) {
  using Bits = ordered_bits_t<K>;  // keys travel through the kernel encoded
  constexpr unsigned items = kItems<K>;
  __shared__ unsigned base[kDigits];                 // where the block's next key of digit d goes
  __shared__ std::int64_t to_global[kDigits];        // the current tile's place p of digit d goes to to_global[d] + p
  __shared__ unsigned warp_sums[kMaxBlock / kWarp];  // the counter scan's per-warp totals
  const unsigned tile = blockDim.x * items;
  Bits* const staged_keys = dynamic_shared<Bits>();
  std::uint32_t* const staged_values = reinterpret_cast<std::uint32_t*>(staged_keys + tile);
  unsigned* const counters = reinterpret_cast<unsigned*>(staged_keys + tile) + (Pairs ? tile : 0);
  const unsigned warps = blockDim.x / kWarp, warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  const unsigned lanes_below = (1u << lane) - 1;
  unsigned* const my_counters = counters + padded(kCountersPerThread * threadIdx.x);  // this thread's 8, in the scan

  // Thread t owns digits t, t + B, ...: their base and to_global.
  for (unsigned d = threadIdx.x; d < kDigits; d += blockDim.x) {
    base[d] = offsets[std::uint64_t(d) * gridDim.x + blockIdx.x];
  }

  const std::uint64_t begin = blockIdx.x * chunk;
  const std::uint64_t end = n - begin < chunk ? n : begin + chunk;
  for (std::uint64_t tile_begin = begin; tile_begin < end; tile_begin += tile) {  // the same trip count in every thread
    const unsigned tile_size = end - tile_begin < tile ? static_cast<unsigned>(end - tile_begin) : tile;
    // a. Item r of this thread: the tile's key warp x 32 x items + 32r + lane.
    const unsigned warp_first = warp * kWarp * items + lane;
    Bits keys[items];
#pragma unroll
    for (unsigned r = 0; r < items; ++r) {
      const unsigned place = warp_first + r * kWarp;
      if (place < tile_size) keys[r] = encode_order(keys_in[tile_begin + place]);
    }
#pragma unroll
    for (unsigned j = 0; j < kCountersPerThread; ++j) my_counters[j] = 0;
    __syncthreads();

    // b. Ranks within the warp, item by item: the group's leader reads and advances the
    // warp's counter of the digit.
    unsigned ranks[items / 2] = {};  // two per register: a rank is below 32 x items <= 2^9
#pragma unroll
    for (unsigned r = 0; r < items; ++r) {
      const bool valid = warp_first + r * kWarp < tile_size;
      const unsigned digit = valid ? digit_at(keys[r], bit) : 0;
      const unsigned peers = match_peers(digit, valid);
      const unsigned leader = valid ? __ffs(peers) - 1 : 0;
      unsigned* const counter = counters + padded(digit * warps + warp);
      unsigned before = valid && lane == leader ? *counter : 0;
      before = __shfl_sync(kFullWarp, before, leader);
      ranks[r / 2] |= (before + __popc(peers & lanes_below)) << (r % 2 * 16);
      if (valid && lane == leader) *counter = before + __popc(peers);
      __syncwarp();
    }
    __syncthreads();

    // c. Exclusive scan of the counters in (digit, warp) order: each thread its 8, a warp scan
    // of the threads' sums, then the sums of the warps before.
    unsigned mine[kCountersPerThread];
    unsigned sum = 0;
#pragma unroll
    for (unsigned j = 0; j < kCountersPerThread; ++j) {
      mine[j] = my_counters[j];
      sum += mine[j];
    }
    unsigned inclusive = sum;
#pragma unroll
    for (unsigned offset = 1; offset < kWarp; offset *= 2) {
      const unsigned up = __shfl_up_sync(kFullWarp, inclusive, offset);
      if (lane >= offset) inclusive += up;
    }
    if (lane == kWarp - 1) warp_sums[warp] = inclusive;
    __syncthreads();
    unsigned running = __reduce_add_sync(kFullWarp, lane < warp ? warp_sums[lane] : 0) + inclusive - sum;
#pragma unroll
    for (unsigned j = 0; j < kCountersPerThread; ++j) {
      my_counters[j] = running;
      running += mine[j];
    }
    __syncthreads();

    // d. Digit d's keys take places [start, next) of the staged tile; stage every key at its
    // place (values are loaded only now, to spare registers during the ranking).
    for (unsigned d = threadIdx.x; d < kDigits; d += blockDim.x) {
      const unsigned start = counters[padded(d * warps)];
      const unsigned next = d + 1 < kDigits ? counters[padded((d + 1) * warps)] : tile_size;
      to_global[d] = std::int64_t(base[d]) - start;
      base[d] += next - start;
    }
#pragma unroll
    for (unsigned r = 0; r < items; ++r) {
      const unsigned input_place = warp_first + r * kWarp;
      if (input_place < tile_size) {
        const unsigned rank = ranks[r / 2] >> (r % 2 * 16) & 0xffffu;
        const unsigned place = counters[padded(digit_at(keys[r], bit) * warps + warp)] + rank;
        staged_keys[place] = keys[r];
        if constexpr (Pairs) staged_values[place] = values_in[tile_begin + input_place];
      }
    }
    __syncthreads();

    // e. Store: consecutive threads, consecutive places, consecutive addresses within a digit.
#pragma unroll
    for (unsigned r = 0; r < items; ++r) {
      const unsigned place = r * blockDim.x + threadIdx.x;
      if (place < tile_size) {
        const Bits key = staged_keys[place];
        const std::uint64_t destination = to_global[digit_at(key, bit)] + place;
        keys_out[destination] = decode_order<K>(key);
        if constexpr (Pairs) values_out[destination] = staged_values[place];
      }
    }
  }
}

// Allows the scatter the dynamic shared memory of the largest block (above the 48 KB
// default), once per kernel.
template <bool Pairs, class K>
void allow_scatter_shared() {
  static const bool allowed = [] {
    check_cuda(cudaFuncSetAttribute(&scatter_kernel<Pairs, K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(scatter_shared_bytes<Pairs, K>(kMaxBlock))),
               "cudaFuncSetAttribute (radix scatter shared memory)");
    return true;
  }();
  (void)allowed;
}

// The launch shape of every pass: tiles of B x kItems keys, whole tiles per block.
struct RadixShape {
  std::uint64_t chunk;  // keys per block
  unsigned grid;
  std::uint64_t counters() const { return std::uint64_t(kDigits) * grid; }
};

template <class K>
RadixShape radix_shape(std::uint64_t n, int block_size) {
  const std::uint64_t tile = std::uint64_t(block_size) * kItems<K>;
  const std::uint64_t tiles = ceil_div(n, tile);
  const std::uint64_t tiles_per_block = ceil_div(tiles, kMaxGrid);
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
  RadixLayout layout{radix_shape<K>(n, block_size), 0, 0, 0, 0, 0};
  const std::size_t counter_bytes = align_up(layout.shape.counters() * sizeof(unsigned));
  layout.values_at = align_up(n * sizeof(K));
  layout.counts_at = layout.values_at + (form == SortForm::pairs ? align_up(n * sizeof(std::uint32_t)) : 0);
  layout.offsets_at = layout.counts_at + counter_bytes;
  layout.scan_at = layout.offsets_at + counter_bytes;
  layout.scan_bytes =
      kernels::scan_workspace_bytes<unsigned>(kOffsetScan, ScanKind::exclusive, Op::sum, layout.shape.counters());
  return layout;
}

struct RadixLsd {
  static constexpr bool kSortsPairs = true;

  // Counts, offsets and places are 32-bit: the largest offset is below n.
  static std::uint64_t max_length(int) { return std::numeric_limits<std::uint32_t>::max(); }

  template <SortForm form, class K>
  static std::size_t workspace_bytes(std::uint64_t n, int block_size) {
    return radix_layout<form, K>(n, block_size).total();
  }

  template <SortForm form, class K>
  static void run(const K* keys_in, K* keys_out, const SortCall& call) {
    const std::uint32_t* values_in = call.values_in;
    std::uint32_t* values_out = call.values_out;
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
    const std::size_t scatter_shared = scatter_shared_bytes<pairs, K>(static_cast<unsigned>(call.block_size));
    const KernelLabel histogram_label{call.variant_id, type_key_v<K>, name(form), "histogram"};
    const KernelLabel scatter_label{call.variant_id, type_key_v<K>, name(form), "scatter"};
    allow_scatter_shared<pairs, K>();

    const K* source_keys = keys_in;
    const std::uint32_t* source_values = values_in;
    for (int pass = 0; pass < passes; ++pass) {
      const bool to_output = (passes - 1 - pass) % 2 == 0;
      K* const target_keys = to_output ? keys_out : other_keys;
      std::uint32_t* const target_values = to_output ? values_out : other_values;
      const unsigned bit = static_cast<unsigned>(pass) * kDigitBits;
      launch_kernel(histogram_label, &histogram_kernel<K>, shape.grid, call.block_size, 0, call.stream, source_keys,
                    call.n, shape.chunk, bit, counts);
      kernels::scan<unsigned>(kOffsetScan, ScanKind::exclusive, Op::sum, counts, shape.counters(), offsets,
                              scan_workspace, {}, call.stream);
      launch_kernel(scatter_label, &scatter_kernel<pairs, K>, shape.grid, call.block_size, scatter_shared, call.stream,
                    source_keys, target_keys, source_values, target_values, call.n, shape.chunk, bit, offsets);
      source_keys = target_keys;
      source_values = target_values;
    }
  }
};

}  // namespace

const bool registered = register_variant(make_sort_variant<RadixLsd>({
    .name = "radix_lsd",
    .description = "stable LSD radix sort, 8-bit digits: block histograms, project scan, tiles ranked by warp "
                   "ballots, staged in shared memory for coalesced stores",
    .block_sizes = {32, 1024, 256},
    .deterministic = true,
    .stable = true,
}));

}  // namespace kernels::detail
