// One-sweep LSD radix sort: stable, 8 bits per pass, each pass reading the keys once (Adinets and Merrill,
// "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs", 2022). One histogram launch counts the digits
// of every pass; each pass's launch ranks a tile's keys as radix_lsd does and finds where they go from the tiles
// before it, by decoupled look-back over per-digit status words. The steps (a to g below), the status word and
// the limits: docs/kernels.md#sort.
#include <kernels/detail/launch.cuh>
#include <kernels/detail/rounding.hpp>
#include <kernels/sort/detail/make_sort_variant.cuh>
#include <kernels/sort/detail/radix_digits.cuh>
#include <kernels/sort/detail/total_order.cuh>
#include <kernels/variant/sort.cuh>

#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace kernels::detail {
namespace {

constexpr unsigned kMaxBlock = 1024;
// The histogram kernel's grid is at most this many blocks (each then takes several tiles), so
// that adding the blocks' histograms into the global ones stays cheap.
constexpr std::uint64_t kMaxHistogramGrid = 1024;

template <class K>
constexpr unsigned kPasses = sizeof(K) * 8 / kDigitBits;

// Keys per thread per tile: 64 bytes of keys (16 for 4-byte keys, 8 for 8-byte ones), at most 16
// (1- and 2-byte keys: 64 of them, with their values, would not fit a thread's registers).
template <class K>
constexpr unsigned kItems = sizeof(K) >= 4 ? 64 / sizeof(K) : 16;

// The counters of steps b and c: one per digit and warp, digit-major, each digit's warps followed by a padding
// word ((d, w) at d * (warps + 1) + w): one multiply-add per key, and the scan meets few bank conflicts.
constexpr unsigned kCountersPerThread = kDigits / kWarp;
__host__ __device__ constexpr unsigned counter_words(unsigned warps) { return kDigits * (warps + 1); }

// A status word: count, flag, pass tag (see the header).
using StatusWord = unsigned long long;
constexpr unsigned kFlagShift = 32;
constexpr unsigned kTagShift = 34;
constexpr StatusWord kAggregate = 1;
constexpr StatusWord kInclusive = 2;

__device__ StatusWord status_word(unsigned tag, StatusWord flag, unsigned count) {
  return (StatusWord(tag) << kTagShift) | (flag << kFlagShift) | count;
}

// Calls f(std::true_type{}) for a whole tile and f(std::false_type{}) for the last, partial one:
// f checks its places against the tile's end only when given false_type, so that the whole
// tiles, all but one, run a copy of its code without the checks.
template <class F>
__device__ void by_wholeness(bool whole, F&& f) {
  if (whole) {
    f(std::true_type{});
  } else {
    f(std::false_type{});
  }
}

// Step 1: every pass's digit counts from one read of the keys. `counts` (passes x 256) is
// zero before the launch. Each block takes tiles of B x kItems keys, grid-strided.
template <class K>
__global__ void __launch_bounds__(kMaxBlock) histogram_kernel(const K* keys, std::uint64_t n, unsigned* counts) {
  constexpr unsigned passes = kPasses<K>;
  constexpr unsigned items = kItems<K>;
  __shared__ unsigned histogram[passes * kDigits];
  for (unsigned i = threadIdx.x; i < passes * kDigits; i += blockDim.x) histogram[i] = 0;
  __syncthreads();

  const std::uint64_t tile = std::uint64_t(blockDim.x) * items;
  const auto count_tile = [&](std::uint64_t tile_begin, auto whole) {
    const auto in_keys = [&](unsigned r) {
      return decltype(whole)::value || tile_begin + std::uint64_t(r) * blockDim.x + threadIdx.x < n;
    };
    const K* const thread_keys = keys + tile_begin + threadIdx.x;
    ordered_bits_t<K> tile_keys[items];  // all loads first, then the counting
#pragma unroll
    for (unsigned r = 0; r < items; ++r) {
      if (in_keys(r)) tile_keys[r] = encode_order(thread_keys[std::size_t(r) * blockDim.x]);
    }
#pragma unroll
    for (unsigned r = 0; r < items; ++r) {
      if (in_keys(r)) {
#pragma unroll
        for (unsigned pass = 0; pass < passes; ++pass) {
          atomicAdd(&histogram[pass * kDigits + digit_at(tile_keys[r], pass * kDigitBits)], 1u);
        }
      }
    }
  };
  for (std::uint64_t tile_begin = blockIdx.x * tile; tile_begin < n; tile_begin += gridDim.x * tile) {
    by_wholeness(n - tile_begin >= tile, [&](auto whole) { count_tile(tile_begin, whole); });
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < passes * kDigits; i += blockDim.x) {
    if (histogram[i] != 0) atomicAdd(&counts[i], histogram[i]);
  }
}

// Step 2: block p scans pass p's 256 counts (exclusive) into offsets[p * 256 + d]. 256 threads.
constexpr unsigned kOffsetsBlock = kDigits;
__global__ void __launch_bounds__(kOffsetsBlock) digit_offsets_kernel(const unsigned* counts, unsigned* offsets) {
  __shared__ unsigned warp_sums[kDigits / kWarp];
  const unsigned d = threadIdx.x, lane = d % kWarp, warp = d / kWarp;
  const unsigned count = counts[blockIdx.x * kDigits + d];
  unsigned inclusive = count;
#pragma unroll
  for (unsigned offset = 1; offset < kWarp; offset *= 2) {
    const unsigned up = __shfl_up_sync(kFullWarp, inclusive, offset);
    if (lane >= offset) inclusive += up;
  }
  if (lane == kWarp - 1) warp_sums[warp] = inclusive;
  __syncthreads();
  unsigned before = 0;
  for (unsigned w = 0; w < warp; ++w) before += warp_sums[w];
  offsets[blockIdx.x * kDigits + d] = before + inclusive - count;
}

// Step 3f for one digit of one tile (> 0): the sum of the counts of `digit` in earlier tiles, back to the nearest
// INCLUSIVE prefix. kLookAhead predecessors' words are loaded at once; a word not yet published (an earlier pass's
// tag) is loaded again. Relaxed loads: the word holds all the reader needs.
constexpr unsigned kLookAhead = 4;
__device__ unsigned look_back(StatusWord* status, unsigned tile, unsigned digit, unsigned tag) {
  const auto word = [&](unsigned predecessor) {
    return cuda::atomic_ref<StatusWord, cuda::thread_scope_device>(
        status[std::uint64_t(predecessor) * kDigits + digit]);
  };
  unsigned sum = 0;
  for (unsigned window = tile - 1;; window -= kLookAhead) {
    StatusWord seen[kLookAhead];
#pragma unroll
    for (unsigned i = 0; i < kLookAhead; ++i)
      seen[i] = i <= window ? word(window - i).load(cuda::memory_order_relaxed) : 0;
#pragma unroll
    for (unsigned i = 0; i < kLookAhead; ++i) {
      while ((seen[i] >> kTagShift) != tag)
        seen[i] = word(window - i).load(cuda::memory_order_relaxed);  // not yet published
      sum += static_cast<unsigned>(seen[i]);
      if ((seen[i] >> kFlagShift & 3u) == kInclusive) return sum;
    }
  }
}

__device__ void publish(StatusWord* status, unsigned tile, unsigned digit, unsigned tag, StatusWord flag,
                        unsigned count) {
  cuda::atomic_ref<StatusWord, cuda::thread_scope_device>(status[std::uint64_t(tile) * kDigits + digit])
      .store(status_word(tag, flag, count), cuda::memory_order_relaxed);
}

// Dynamic shared memory of a pass: the staged tile (keys, then values for Pairs), then the
// counters.
template <bool Pairs, class K>
constexpr std::size_t pass_shared_bytes(unsigned block_size) {
  const std::size_t tile = std::size_t(block_size) * kItems<K>;
  return tile * (sizeof(K) + (Pairs ? sizeof(std::uint32_t) : 0)) +
         counter_words(block_size / kWarp) * sizeof(unsigned);
}

// The lanes of the warp up to and including the calling one.
__device__ unsigned lanes_up_to_mine() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(mask));
  return mask;
}

// Step 3: one pass, one tile per block, by digit `pass`. The launch bounds' minimum of one block changes no limit,
// but without it ptxas 13.0 gave the double keys-only pass 32 registers and 224 bytes of spills.
template <bool Pairs, class K>
__global__ void __launch_bounds__(kMaxBlock, 1)
    onesweep_kernel(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                    std::uint64_t n, unsigned pass, const unsigned* offsets, unsigned* next_tile, StatusWord* status) {
  using Bits = ordered_bits_t<K>;  // keys travel through the kernel encoded
  constexpr unsigned items = kItems<K>;
  __shared__ unsigned tile_ticket;
  __shared__ std::uint64_t to_global[kDigits];       // the tile's place p of digit d goes to to_global[d] + p
  __shared__ unsigned warp_sums[kMaxBlock / kWarp];  // the counter scan's per-warp totals
  const unsigned tile_keys = blockDim.x * items;
  Bits* const staged_keys = dynamic_shared<Bits>();
  std::uint32_t* const staged_values = reinterpret_cast<std::uint32_t*>(staged_keys + tile_keys);
  unsigned* const counters = reinterpret_cast<unsigned*>(staged_keys + tile_keys) + (Pairs ? tile_keys : 0);
  const unsigned warps = blockDim.x / kWarp, warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  const unsigned digit_stride = warps + 1;  // between a warp's counters of consecutive digits
  unsigned* const warp_counters = counters + warp;
  const unsigned bit = pass * kDigitBits, tag = pass + 1;

  if (threadIdx.x == 0) tile_ticket = atomicAdd(next_tile, 1u);
  for (unsigned i = threadIdx.x; i < counter_words(warps); i += blockDim.x) counters[i] = 0;
  __syncthreads();
  const unsigned tile = tile_ticket;
  const std::uint64_t tile_begin = std::uint64_t(tile) * tile_keys;
  const unsigned tile_size = n - tile_begin < tile_keys ? static_cast<unsigned>(n - tile_begin) : tile_keys;

  // Steps a to g; places are checked against tile_size in the last tile only (by_wholeness).
  const auto sort_tile = [&](auto whole) {
    const auto in_tile = [&](unsigned place) { return decltype(whole)::value || place < tile_size; };

    // a. Item r of this thread: the tile's key warp x 32 x items + 32r + lane.
    const unsigned warp_first = warp * kWarp * items + lane;
    Bits keys[items];
#pragma unroll
    for (unsigned r = 0; r < items; ++r) {
      const unsigned place = warp_first + r * kWarp;
      if (in_tile(place)) keys[r] = encode_order(keys_in[tile_begin + place]);
    }

    // b. Ranks within the warp, item by item. The highest lane of a digit's group (its leader)
    // reads the warp's counter of the digit and advances it by the group's size, which is the
    // leader's count of group lanes up to its own; a key's rank is the counter as read plus its
    // group lanes below it.
    const unsigned up_to_mine = lanes_up_to_mine();
    unsigned ranks[items / 2] = {};  // two per register: a rank is below 32 x items <= 2^9
#pragma unroll
    for (unsigned r = 0; r < items; ++r) {
      const bool valid = in_tile(warp_first + r * kWarp);
      const unsigned digit = valid ? digit_at(keys[r], bit) : 0;
      const unsigned peers = match_peers(digit, valid);
      const unsigned leader = kWarp - 1 - __clz(peers);
      const unsigned up_to_here = __popc(peers & up_to_mine);
      unsigned* const counter = warp_counters + digit * digit_stride;
      unsigned before = 0;
      if (valid && lane == leader) {
        before = *counter;
        *counter = before + up_to_here;
      }
      before = __shfl_sync(kFullWarp, before, leader);
      // An invalid lane's rank is never read, and item r + 1 of a lane is invalid where item r is.
      ranks[r / 2] |= (before + up_to_here - 1) << (r % 2 * 16);
      __syncwarp();
    }
    __syncthreads();

    // c. Exclusive scan of the counters in (digit, warp) order: each thread its 8, a warp scan
    // of the threads' sums, then the sums of the warps before. Pair i = 8t + j is digit
    // i / warps, warp i % warps, at i plus its digit (one padding word per digit before it).
    const unsigned first_pair = kCountersPerThread * threadIdx.x;
    unsigned mine[kCountersPerThread];  // where the thread's pairs are
#pragma unroll
    for (unsigned j = 0, of_warp = first_pair % warps, at = first_pair + first_pair / warps; j < kCountersPerThread;
         ++j) {
      mine[j] = at++;
      if (++of_warp == warps) {
        of_warp = 0;
        ++at;
      }
    }
    unsigned counts[kCountersPerThread];
    unsigned sum = 0;
#pragma unroll
    for (unsigned j = 0; j < kCountersPerThread; ++j) {
      counts[j] = counters[mine[j]];
      sum += counts[j];
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
      counters[mine[j]] = running;
      running += counts[j];
    }
    __syncthreads();

    // d. Publish the tile's count of every digit (AGGREGATE; tile 0: INCLUSIVE, from the digit
    // offsets), thread t for digits t, t + B, ..., as early as possible: later tiles wait for it.
    const auto start_of = [&](unsigned d) { return d < kDigits ? counters[d * digit_stride] : tile_size; };
    for (unsigned d = threadIdx.x; d < kDigits; d += blockDim.x) {
      const unsigned count = start_of(d + 1) - start_of(d);
      if (tile == 0) {
        publish(status, tile, d, tag, kInclusive, offsets[d] + count);
      } else {
        publish(status, tile, d, tag, kAggregate, count);
      }
    }

    // e. Stage every key at its place (values are loaded only now, to spare registers during
    // the ranking). Staging needs only the local places, so it comes before the look-back,
    // whose waiting then delays only the store.
#pragma unroll
    for (unsigned r = 0; r < items; ++r) {
      const unsigned input_place = warp_first + r * kWarp;
      if (in_tile(input_place)) {
        const unsigned rank = ranks[r / 2] >> (r % 2 * 16) & 0xffffu;
        const unsigned place = warp_counters[digit_at(keys[r], bit) * digit_stride] + rank;
        staged_keys[place] = keys[r];
        if constexpr (Pairs) staged_values[place] = values_in[tile_begin + input_place];
      }
    }
    // f. Look back for every digit's global start; then the tile's place p of digit d goes to
    // to_global[d] + p. The global start is never below the local one (the keys before a
    // tile's first key of d include its keys of smaller digits), so the difference is unsigned.
    for (unsigned d = threadIdx.x; d < kDigits; d += blockDim.x) {
      const unsigned start = start_of(d);
      unsigned global_start = offsets[d];
      if (tile != 0) {
        global_start = look_back(status, tile, d, tag);
        publish(status, tile, d, tag, kInclusive, global_start + (start_of(d + 1) - start));
      }
      to_global[d] = global_start - start;
    }
    __syncthreads();

    // g. Store: consecutive threads, consecutive places, consecutive addresses within a digit.
#pragma unroll
    for (unsigned r = 0; r < items; ++r) {
      const unsigned place = r * blockDim.x + threadIdx.x;
      if (in_tile(place)) {
        const Bits key = staged_keys[place];
        const std::uint64_t destination = to_global[digit_at(key, bit)] + place;
        keys_out[destination] = decode_order<K>(key);
        if constexpr (Pairs) values_out[destination] = staged_values[place];
      }
    }
  };
  by_wholeness(tile_size == tile_keys, sort_tile);
}

// Allows the pass kernel the dynamic shared memory of the largest block (above the 48 KB
// default), once per kernel.
template <bool Pairs, class K>
void allow_pass_shared() {
  static const bool allowed = [] {
    check_cuda(cudaFuncSetAttribute(&onesweep_kernel<Pairs, K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(pass_shared_bytes<Pairs, K>(kMaxBlock))),
               "cudaFuncSetAttribute (one-sweep shared memory)");
    return true;
  }();
  (void)allowed;
}

// Workspace, each part 256-byte aligned: the other key buffer (n keys), the other value buffer
// (n values, pairs only), then the part zeroed by one memset before every sort: the counts
// (passes x 256), the ticket counters (one per pass) and the status words (tiles x 256); then
// the digit offsets (passes x 256).
struct OnesweepLayout {
  std::uint64_t tiles;
  std::size_t values_at, counts_at, tickets_at, status_at, offsets_at, total;
  std::size_t zeroed_bytes() const { return offsets_at - counts_at; }
};

template <SortForm form, class K>
OnesweepLayout onesweep_layout(std::uint64_t n, int block_size) {
  OnesweepLayout layout{};
  layout.tiles = ceil_div(n, std::uint64_t(block_size) * kItems<K>);
  layout.values_at = align_up(n * sizeof(K));
  layout.counts_at = layout.values_at + (form == SortForm::pairs ? align_up(n * sizeof(std::uint32_t)) : 0);
  layout.tickets_at = layout.counts_at + align_up(kPasses<K> * kDigits * sizeof(unsigned));
  layout.status_at = layout.tickets_at + align_up(kPasses<K> * sizeof(unsigned));
  layout.offsets_at = layout.status_at + align_up(layout.tiles * kDigits * sizeof(StatusWord));
  layout.total = layout.offsets_at + align_up(kPasses<K> * kDigits * sizeof(unsigned));
  return layout;
}

struct RadixOnesweep {
  static constexpr bool kSortsPairs = true;

  // Counts, prefixes and places are 32-bit: the largest prefix is n.
  static std::uint64_t max_length(int) { return std::numeric_limits<std::uint32_t>::max(); }

  template <SortForm form, class K>
  static std::size_t workspace_bytes(std::uint64_t n, int block_size) {
    return onesweep_layout<form, K>(n, block_size).total;
  }

  template <SortForm form, class K>
  static void run(const K* keys_in, K* keys_out, const SortCall& call) {
    const std::uint32_t* values_in = call.values_in;
    std::uint32_t* values_out = call.values_out;
    constexpr bool pairs = form == SortForm::pairs;
    constexpr unsigned passes = kPasses<K>;
    const OnesweepLayout layout = onesweep_layout<form, K>(call.n, call.block_size);
    auto* const workspace = static_cast<char*>(call.workspace.data);
    K* const other_keys = reinterpret_cast<K*>(workspace);
    auto* const other_values = pairs ? reinterpret_cast<std::uint32_t*>(workspace + layout.values_at) : nullptr;
    auto* const counts = reinterpret_cast<unsigned*>(workspace + layout.counts_at);
    auto* const tickets = reinterpret_cast<unsigned*>(workspace + layout.tickets_at);
    auto* const status = reinterpret_cast<StatusWord*>(workspace + layout.status_at);
    auto* const offsets = reinterpret_cast<unsigned*>(workspace + layout.offsets_at);
    const std::size_t pass_shared = pass_shared_bytes<pairs, K>(static_cast<unsigned>(call.block_size));
    allow_pass_shared<pairs, K>();

    check_cuda(cudaMemsetAsync(workspace + layout.counts_at, 0, layout.zeroed_bytes(), call.stream),
               "cudaMemsetAsync (one-sweep counts, tickets and status)");
    const std::uint64_t histogram_grid =
        std::min(ceil_div(call.n, std::uint64_t(call.block_size) * kItems<K>), kMaxHistogramGrid);
    launch_kernel({call.variant_id, type_key_v<K>, name(form), "histogram"}, &histogram_kernel<K>,
                  static_cast<unsigned>(histogram_grid), call.block_size, 0, call.stream, keys_in, call.n, counts);
    launch_kernel({call.variant_id, type_key_v<K>, name(form), "digit offsets"}, &digit_offsets_kernel, passes,
                  kOffsetsBlock, 0, call.stream, counts, offsets);

    const KernelLabel pass_label{call.variant_id, type_key_v<K>, name(form), "pass"};
    const K* source_keys = keys_in;
    const std::uint32_t* source_values = values_in;
    for (unsigned pass = 0; pass < passes; ++pass) {
      const bool to_output = (passes - 1 - pass) % 2 == 0;
      K* const target_keys = to_output ? keys_out : other_keys;
      std::uint32_t* const target_values = to_output ? values_out : other_values;
      launch_kernel(pass_label, &onesweep_kernel<pairs, K>, static_cast<unsigned>(layout.tiles), call.block_size,
                    pass_shared, call.stream, source_keys, target_keys, source_values, target_values, call.n, pass,
                    offsets + pass * kDigits, tickets + pass, status);
      source_keys = target_keys;
      source_values = target_values;
    }
  }
};

}  // namespace

const bool registered = register_variant(make_sort_variant<RadixOnesweep>({
    .name = "radix_onesweep",
    .description = "stable LSD radix sort, 8-bit digits, one read of the keys per pass: all histograms in one "
                   "sweep, tiles ranked by warp ballots, digit offsets by decoupled look-back",
    .block_sizes = {32, 1024, 512},
    .deterministic = true,
    .cross_block = true,
    .stable = true,
}));

}  // namespace kernels::detail
