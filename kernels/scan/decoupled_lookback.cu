// Decoupled look-back: a single-pass scan of any length (Merrill & Garland, "Single-pass Parallel Prefix Scan
// with Decoupled Look-back", 2016). A tile scans its values, publishes its aggregate, looks back over its
// predecessors with its first warp, publishes its inclusive prefix and adds its exclusive one. The design (ticket
// order, status words holding flag and value, tile size) and its measurements: docs/kernels.md#scan. Float sums
// are not bitwise deterministic: the result depends on which predecessors had published their prefixes.
#include <kernels/scan/detail/make_scan_variant.cuh>
#include <kernels/scan/detail/warp_scan.cuh>
#include <kernels/variant/scan.cuh>

#include <cuda/atomic>

#include <cstring>

namespace kernels::detail {
namespace {

enum TileFlag : unsigned { kInvalid = 0, kAggregate = 1, kInclusive = 2 };

template <class T>
struct TileState {
  TileFlag flag;
  T value;
};

// The tiles' states for values of up to 4 bytes: one 8-byte word per tile, the flag in the high half, the
// value's bits in the low; the workspace holds the words (zero: INVALID, before the launch).
template <class T>
struct PackedTileStatus {
  // publish() and read() copy the value's bytes to and from 4 bytes of the word.
  static_assert(sizeof(T) <= sizeof(unsigned), "the packed tile status holds values of up to 4 bytes");
  unsigned long long* words;

  static std::size_t bytes(std::uint64_t tiles) { return align_up(tiles * sizeof(unsigned long long)); }
  static PackedTileStatus at(char* workspace, std::uint64_t) {
    return {reinterpret_cast<unsigned long long*>(workspace)};
  }
  static std::size_t zeroed_bytes(std::uint64_t tiles) { return tiles * sizeof(unsigned long long); }

  __device__ void publish(unsigned tile, TileFlag flag, T value) const {
    unsigned bits = 0;
    memcpy(&bits, &value, sizeof value);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile])
        .store((static_cast<unsigned long long>(flag) << 32) | bits, cuda::memory_order_relaxed);
  }

  // Waits until the tile has published something.
  __device__ TileState<T> read(unsigned tile) const {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(words[tile]);
    unsigned long long seen;
    do {
      seen = word.load(cuda::memory_order_relaxed);
    } while ((seen >> 32) == kInvalid);
    const unsigned bits = static_cast<unsigned>(seen);
    T value;
    memcpy(&value, &bits, sizeof value);
    return {static_cast<TileFlag>(seen >> 32), value};
  }
};

// The tiles' states for 8-byte values: one 16-byte {flag, value} word per tile, stored and loaded whole by
// 128-bit relaxed accesses, written out because CUDA 13.0's cuda::atomic_ref wrapper swaps their operands.
template <class T>
struct WideTileStatus {
  // publish() and read() copy 8 bytes: a narrower value would be over-read.
  static_assert(sizeof(T) == sizeof(unsigned long long), "the wide tile status holds 8-byte values");
  struct alignas(16) Word {
    unsigned long long flag;
    T value;
  };
  Word* words;

  static std::size_t bytes(std::uint64_t tiles) { return align_up(tiles * sizeof(Word)); }
  static WideTileStatus at(char* workspace, std::uint64_t) { return {reinterpret_cast<Word*>(workspace)}; }
  static std::size_t zeroed_bytes(std::uint64_t tiles) { return tiles * sizeof(Word); }

  __device__ void publish(unsigned tile, TileFlag flag, T value) const {
    unsigned long long bits;
    memcpy(&bits, &value, sizeof bits);
    asm volatile("{\n\t.reg .b128 word;\n\tmov.b128 word, {%1, %2};\n\tst.relaxed.gpu.global.b128 [%0], word;\n\t}"
                 :
                 : "l"(words + tile), "l"(static_cast<unsigned long long>(flag)), "l"(bits)
                 : "memory");
  }

  // Waits until the tile has published something.
  __device__ TileState<T> read(unsigned tile) const {
    unsigned long long flag, bits;
    do {
      asm volatile("{\n\t.reg .b128 word;\n\tld.relaxed.gpu.global.b128 word, [%2];\n\tmov.b128 {%0, %1}, word;\n\t}"
                   : "=l"(flag), "=l"(bits)
                   : "l"(words + tile)
                   : "memory");
    } while (flag == kInvalid);
    T value;
    memcpy(&value, &bits, sizeof value);
    return {static_cast<TileFlag>(flag), value};
  }
};

template <class T>
using TileStatus = std::conditional_t<sizeof(T) <= 4, PackedTileStatus<T>, WideTileStatus<T>>;

// A warp's part of a tile is kRows rows of 32 16-byte vectors, lane l taking vector l of each row, so that every
// warp access covers 512 contiguous bytes; 128 bytes a thread (the measurements: docs/kernels.md#scan).
inline constexpr unsigned kRows = 8;
template <class T>
inline constexpr unsigned kValuesPerVector = 16 / sizeof(T);
template <class T>
inline constexpr unsigned kItemsPerThread = kRows* kValuesPerVector<T>;

template <class T>
struct alignas(16) Vector16 {
  T lanes[kValuesPerVector<T>];
};

// Called by the 32 lanes of the tile's first warp; returns the total of every tile before `tile`.
template <class OpT, class T, class Status>
__device__ T look_back(const Status& status, unsigned tile) {
  const OpT op;
  const unsigned lane = threadIdx.x % 32;
  T exclusive = OpT::identity();
  for (long long window = static_cast<long long>(tile) - 1;; window -= 32) {
    const long long predecessor = window - lane;
    // Before tile 0: an empty prefix.
    const TileState<T> state =
        predecessor >= 0 ? status.read(static_cast<unsigned>(predecessor)) : TileState<T>{kInclusive, OpT::identity()};
    // Lanes up to the nearest inclusive prefix contribute; lane 0 is the nearest predecessor.
    const unsigned inclusive_lanes = __ballot_sync(0xffffffffu, state.flag == kInclusive);
    const unsigned last = inclusive_lanes ? __ffs(inclusive_lanes) - 1 : 31;
    T window_sum = lane <= last ? state.value : OpT::identity();
    // Lane l holds tile - 1 - l: a higher lane is an earlier tile, so it goes on the left, and
    // doubling offsets make lane 0 gather lanes [0, 2), [0, 4), ...: contiguous, in order.
    for (unsigned offset = 1; offset < 32; offset *= 2) {
      window_sum = op(__shfl_down_sync(0xffffffffu, window_sum, offset), window_sum);
    }
    exclusive = op(__shfl_sync(0xffffffffu, window_sum, 0), exclusive);  // earlier tiles to the left
    if (inclusive_lanes) return exclusive;
  }
}

// Block b most likely gets tile b: prefetching its lines into L2 overlaps the ticket's wait with the first DRAM
// reads, and a wrong guess only warms lines that a block near in start order reads next.
template <class T>
__device__ void prefetch_likely_tile(const T* in, std::uint64_t n) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::uint64_t tile_values = std::uint64_t(blockDim.x) * kItemsPerThread<T>;
  const std::uint64_t tile_first = std::uint64_t(blockIdx.x) * tile_values;
  // One lane per 128-byte line: eight lanes' 16-byte vectors share one.
  if (tile_first + tile_values > n || lane % 8 != 0) return;
  const std::uint64_t warp_first = tile_first + std::uint64_t(warp) * 32 * kItemsPerThread<T>;
#pragma unroll
  for (unsigned row = 0; row < kRows; ++row) {
    const T* const line = in + warp_first + (std::uint64_t(row) * 32 + lane) * kValuesPerVector<T>;
    asm volatile("prefetch.global.L2 [%0];" ::"l"(line));
  }
}

template <ScanKind kind, class OpT, class T>
__global__ void __launch_bounds__(1024)
    decoupled_lookback_kernel(const T* in, T* out, std::uint64_t n, unsigned* next_tile, TileStatus<T> status) {
  constexpr unsigned kVector = kValuesPerVector<T>;
  using Vector = Vector16<T>;
  const OpT op;
  __shared__ unsigned tile_ticket;
  __shared__ T tile_prefix;
  if (threadIdx.x == 0) tile_ticket = atomicAdd(next_tile, 1u);
  prefetch_likely_tile(in, n);
  __syncthreads();
  const unsigned tile = tile_ticket;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::uint64_t tile_first = std::uint64_t(tile) * blockDim.x * kItemsPerThread<T>;
  // Where the thread's vector of row `row` starts.
  const std::uint64_t warp_first = tile_first + std::uint64_t(warp) * 32 * kItemsPerThread<T>;
  const auto row_first = [&](unsigned row) { return warp_first + (std::uint64_t(row) * 32 + lane) * kVector; };
  const bool whole = tile_first + std::uint64_t(blockDim.x) * kItemsPerThread<T> <= n;
  const bool vectorized =
      whole && (reinterpret_cast<std::uintptr_t>(in) | reinterpret_cast<std::uintptr_t>(out)) % 16 == 0;

  T values[kRows][kVector];
#pragma unroll
  for (unsigned row = 0; row < kRows; ++row) {
    const std::uint64_t first = row_first(row);
    if (vectorized) {
      const Vector loaded = *reinterpret_cast<const Vector*>(in + first);
#pragma unroll
      for (unsigned j = 0; j < kVector; ++j) values[row][j] = loaded.lanes[j];
    } else {
#pragma unroll
      for (unsigned j = 0; j < kVector; ++j) values[row][j] = first + j < n ? in[first + j] : OpT::identity();
    }
  }

  // Within the warp, row by row: the lane's exclusive prefix among the warp's earlier values.
  T lane_prefix[kRows];
  T warp_total = OpT::identity();
#pragma unroll
  for (unsigned row = 0; row < kRows; ++row) {
    T lane_sum = values[row][0];
#pragma unroll
    for (unsigned j = 1; j < kVector; ++j) lane_sum = op(lane_sum, values[row][j]);
    const T inclusive = warp_inclusive_scan<OpT>(lane_sum);
    const T lanes_before = __shfl_up_sync(0xffffffffu, inclusive, 1);
    lane_prefix[row] = lane == 0 ? warp_total : op(warp_total, lanes_before);
    warp_total = op(warp_total, __shfl_sync(0xffffffffu, inclusive, 31));
  }
  // Across the warps: lane 0 of each warp brings the warp's total.
  T tile_total;
  const T warps_before =
      __shfl_sync(0xffffffffu, block_exclusive_scan<OpT>(lane == 0 ? warp_total : OpT::identity(), &tile_total), 0);

  if (threadIdx.x < 32) {
    T exclusive = OpT::identity();
    if (tile == 0) {
      if (threadIdx.x == 0) status.publish(tile, kInclusive, tile_total);
    } else {
      if (threadIdx.x == 0) status.publish(tile, kAggregate, tile_total);
      exclusive = look_back<OpT, T>(status, tile);
      if (threadIdx.x == 0) status.publish(tile, kInclusive, op(exclusive, tile_total));
    }
    if (threadIdx.x == 0) tile_prefix = exclusive;
  }
  __syncthreads();
  const T warp_prefix = op(tile_prefix, warps_before);

#pragma unroll
  for (unsigned row = 0; row < kRows; ++row) {
    const std::uint64_t first = row_first(row);
    T prefix = op(warp_prefix, lane_prefix[row]);
    T results[kVector];
#pragma unroll
    for (unsigned j = 0; j < kVector; ++j) {
      const T inclusive = op(prefix, values[row][j]);
      results[j] = kind == ScanKind::inclusive ? inclusive : prefix;
      prefix = inclusive;
    }
    if (kind == ScanKind::exclusive && first == 0) results[0] = empty_result<OpT::kind, T>();  // +0.0 for a sum
    if (vectorized) {
      Vector stored;
#pragma unroll
      for (unsigned j = 0; j < kVector; ++j) stored.lanes[j] = results[j];
      *reinterpret_cast<Vector*>(out + first) = stored;
    } else {
#pragma unroll
      for (unsigned j = 0; j < kVector; ++j) {
        if (first + j < n) out[first + j] = results[j];
      }
    }
  }
}

struct DecoupledLookback {
  template <class T>
  static std::uint64_t tile_values(int block_size) {
    return std::uint64_t(block_size) * kItemsPerThread<T>;
  }

  static std::uint64_t tile_size(int block_size, TypeKey type) {
    return visit_type(type, [&](auto value, auto) { return tile_values<decltype(value)>(block_size); });
  }

  // Whole, aligned tiles load and store 16-byte vectors.
  static std::uint64_t vector_values(TypeKey type) {
    return visit_type(type, [](auto value, auto) { return std::uint64_t(kValuesPerVector<decltype(value)>); });
  }

  // 2^31 - 1 tiles of the smallest tile (8-byte types, sixteen values per thread).
  static std::uint64_t max_length(int block_size) {
    return std::uint64_t(std::numeric_limits<int>::max()) * tile_values<double>(block_size);
  }

  // Workspace: the ticket counter, then the tiles' states (the counter and the flags zeroed by
  // one memset).
  template <ScanKind kind, class OpT, class T>
  static std::size_t workspace_bytes(std::uint64_t n, int block_size) {
    return align_up(sizeof(unsigned)) + TileStatus<T>::bytes(ceil_div(n, tile_values<T>(block_size)));
  }

  template <ScanKind kind, class OpT, class T>
  static void run(const T* in, T* out, const ScanCall& call) {
    const std::uint64_t tiles = ceil_div(call.n, tile_values<T>(call.block_size));
    char* const workspace = static_cast<char*>(call.workspace.data);
    unsigned* const next_tile = reinterpret_cast<unsigned*>(workspace);
    const TileStatus<T> status = TileStatus<T>::at(workspace + align_up(sizeof(unsigned)), tiles);
    check_cuda(
        cudaMemsetAsync(workspace, 0, align_up(sizeof(unsigned)) + TileStatus<T>::zeroed_bytes(tiles), call.stream),
        "cudaMemsetAsync (tile states)");
    const KernelLabel label{call.variant_id, type_key_v<T>, name(kind), "single pass"};
    launch_kernel(label, &decoupled_lookback_kernel<kind, OpT, T>, static_cast<unsigned>(tiles), call.block_size, 0,
                  call.stream, in, out, call.n, next_tile, status);
  }

  // An output: serial values (<= 4), the row's warp scan (5) and lane prefix (1), the row totals' chain (<= 8),
  // the block scan (12), the warp and tile prefixes (2), its own serial adds (<= 4). A tile prefix can chain through
  // every earlier tile, each link a window reduction (5), the window add and the publication.
  static std::uint64_t accumulation_depth(std::uint64_t n, int block_size) {
    const std::uint64_t within_tile = 2 * kValuesPerVector<float> + 5 + 1 + kRows + 12 + 2;
    const std::uint64_t tiles = ceil_div(n, tile_values<double>(block_size));
    return within_tile + 7 * tiles;
  }
};

}  // namespace

const bool registered = register_variant(make_scan_variant<DecoupledLookback>({
    .name = "decoupled_lookback",
    .description = "single pass: tiles publish aggregates and prefixes, a warp looks back over predecessors",
    .block_sizes = {32, 1024, 512},
    .deterministic = false,
    .cross_block = true,
    .in_place = true,
}));

}  // namespace kernels::detail
