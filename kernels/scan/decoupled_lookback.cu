// Decoupled look-back: a single-pass scan of any length (Merrill & Garland, "Single-pass
// Parallel Prefix Scan with Decoupled Look-back", 2016).
//
// One block per tile, tiles numbered by an atomic ticket in the order blocks start (so a tile
// only ever waits for tiles that are already running). A tile
//   1. loads its values (two 16-byte vectors per thread when the tile is whole and aligned) and
//      scans them in registers and across the block (detail/warp_scan.cuh);
//   2. publishes its aggregate (flag AGGREGATE), so that later tiles need not wait for its
//      prefix;
//   3. with its first warp, looks back over the tiles before it, 32 at a time: each lane reads
//      one predecessor's flag, waits while it is INVALID, and the window's values are summed
//      up to the nearest tile that already has its INCLUSIVE prefix; if none has, the window
//      moves 32 tiles further back;
//   4. publishes its inclusive prefix (flag INCLUSIVE) and adds its exclusive prefix to its
//      values.
// Memory order: a value is written before its flag with a release store; a reader loads the
// flag with an acquire load before the value, so whoever sees a flag sees its value. The float
// result depends on which predecessors had published their prefixes, so float sums are not
// bitwise deterministic (integers are exact either way).
#include <kernels/scan/detail/make_scan_variant.cuh>
#include <kernels/scan/detail/warp_scan.cuh>

#include <cuda/atomic>

namespace kernels::detail {
namespace {

enum TileFlag : unsigned { kInvalid = 0, kAggregate = 1, kInclusive = 2 };

// The workspace, as the kernel sees it.
template <class T>
struct TileStatus {
  unsigned* next_tile;  // ticket counter
  unsigned* flags;      // per tile; zero (INVALID) before the launch
  T* aggregates;
  T* inclusive_prefixes;
};

// Two 16-byte vectors per thread.
template <class T>
inline constexpr unsigned kItemsPerThread = 32 / sizeof(T);

template <class T>
struct alignas(16) Vector16 {
  T lanes[16 / sizeof(T)];
};

template <class T>
__device__ void publish(const TileStatus<T>& status, unsigned tile, TileFlag flag, T value) {
  (flag == kAggregate ? status.aggregates : status.inclusive_prefixes)[tile] = value;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device>(status.flags[tile]).store(flag, cuda::memory_order_release);
}

// Called by the 32 lanes of the tile's first warp; returns the sum of every tile before `tile`.
template <class T>
__device__ T look_back(const TileStatus<T>& status, unsigned tile) {
  const ScanOp<T> op;
  const unsigned lane = threadIdx.x % 32;
  T exclusive = ScanOp<T>::identity();
  for (long long window = static_cast<long long>(tile) - 1;; window -= 32) {
    const long long predecessor = window - lane;
    unsigned flag = kInclusive;  // before tile 0: an empty prefix
    T value = ScanOp<T>::identity();
    if (predecessor >= 0) {
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> published(status.flags[predecessor]);
      do {
        flag = published.load(cuda::memory_order_acquire);
      } while (flag == kInvalid);
      value = flag == kInclusive ? status.inclusive_prefixes[predecessor] : status.aggregates[predecessor];
    }
    // Lanes up to the nearest inclusive prefix contribute; lane 0 is the nearest predecessor.
    const unsigned inclusive_lanes = __ballot_sync(0xffffffffu, flag == kInclusive);
    const unsigned last = inclusive_lanes ? __ffs(inclusive_lanes) - 1 : 31;
    T window_sum = lane <= last ? value : ScanOp<T>::identity();
    for (unsigned offset = 16; offset > 0; offset /= 2) {
      window_sum = op(window_sum, __shfl_down_sync(0xffffffffu, window_sum, offset));
    }
    exclusive = op(__shfl_sync(0xffffffffu, window_sum, 0), exclusive);  // earlier tiles to the left
    if (inclusive_lanes) return exclusive;
  }
}

template <ScanKind kind, class T>
__global__ void decoupled_lookback_kernel(const T* in, T* out, std::uint64_t n, TileStatus<T> status) {
  constexpr unsigned kItems = kItemsPerThread<T>;
  using Vector = Vector16<T>;
  const ScanOp<T> op;
  __shared__ unsigned tile_ticket;
  __shared__ T tile_prefix;
  if (threadIdx.x == 0) tile_ticket = atomicAdd(status.next_tile, 1u);
  __syncthreads();
  const unsigned tile = tile_ticket;
  const std::uint64_t tile_first = std::uint64_t(tile) * blockDim.x * kItems;
  const std::uint64_t first = tile_first + std::uint64_t(threadIdx.x) * kItems;
  const bool whole = tile_first + std::uint64_t(blockDim.x) * kItems <= n;
  const bool vectorized = whole && (reinterpret_cast<std::uintptr_t>(in) | reinterpret_cast<std::uintptr_t>(out)) % 16 == 0;

  T values[kItems];
  if (vectorized) {
    const Vector* source = reinterpret_cast<const Vector*>(in + first);
#pragma unroll
    for (unsigned v = 0; v < 2; ++v) {
      const Vector loaded = source[v];
#pragma unroll
      for (unsigned j = 0; j < kItems / 2; ++j) values[v * (kItems / 2) + j] = loaded.lanes[j];
    }
  } else {
#pragma unroll
    for (unsigned j = 0; j < kItems; ++j) values[j] = first + j < n ? in[first + j] : ScanOp<T>::identity();
  }

  T thread_total = ScanOp<T>::identity();
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j) thread_total = op(thread_total, values[j]);
  T tile_total;
  T prefix = block_exclusive_scan(thread_total, &tile_total);

  if (threadIdx.x < 32) {
    T exclusive = ScanOp<T>::identity();
    if (tile == 0) {
      if (threadIdx.x == 0) publish(status, tile, kInclusive, tile_total);
    } else {
      if (threadIdx.x == 0) publish(status, tile, kAggregate, tile_total);
      exclusive = look_back(status, tile);
      if (threadIdx.x == 0) publish(status, tile, kInclusive, op(exclusive, tile_total));
    }
    if (threadIdx.x == 0) tile_prefix = exclusive;
  }
  __syncthreads();
  prefix = op(tile_prefix, prefix);

  T results[kItems];
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j) {
    const T inclusive = op(prefix, values[j]);
    results[j] = kind == ScanKind::inclusive ? inclusive : prefix;
    prefix = inclusive;
  }
  if (kind == ScanKind::exclusive && first == 0) results[0] = T(0);  // the empty prefix is +0.0
  if (vectorized) {
    Vector* target = reinterpret_cast<Vector*>(out + first);
#pragma unroll
    for (unsigned v = 0; v < 2; ++v) {
      Vector stored;
#pragma unroll
      for (unsigned j = 0; j < kItems / 2; ++j) stored.lanes[j] = results[v * (kItems / 2) + j];
      target[v] = stored;
    }
  } else {
#pragma unroll
    for (unsigned j = 0; j < kItems; ++j) {
      if (first + j < n) out[first + j] = results[j];
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

  // 2^31 - 1 tiles of the smallest tile (8-byte types, four values per thread).
  static std::uint64_t max_length(int block_size) {
    return std::uint64_t(std::numeric_limits<int>::max()) * tile_values<double>(block_size);
  }

  // Workspace: ticket counter and flags (zeroed together by one memset), aggregates, prefixes.
  template <ScanKind kind, class T>
  static std::size_t workspace_bytes(std::uint64_t n, int block_size) {
    const std::uint64_t tiles = ceil_div(n, tile_values<T>(block_size));
    return align_up(sizeof(unsigned)) + 2 * align_up(tiles * sizeof(T)) + align_up(tiles * sizeof(unsigned));
  }

  template <ScanKind kind, class T>
  static void run(const T* in, T* out, const ScanCall& call) {
    const std::uint64_t tiles = ceil_div(call.n, tile_values<T>(call.block_size));
    char* const workspace = static_cast<char*>(call.workspace.data);
    TileStatus<T> status;
    status.next_tile = reinterpret_cast<unsigned*>(workspace);
    status.flags = reinterpret_cast<unsigned*>(workspace + align_up(sizeof(unsigned)));
    status.aggregates = reinterpret_cast<T*>(workspace + align_up(sizeof(unsigned)) + align_up(tiles * sizeof(unsigned)));
    status.inclusive_prefixes = reinterpret_cast<T*>(reinterpret_cast<char*>(status.aggregates) + align_up(tiles * sizeof(T)));
    check_cuda(cudaMemsetAsync(workspace, 0, align_up(sizeof(unsigned)) + tiles * sizeof(unsigned), call.stream),
               "cudaMemsetAsync (tile flags)");
    const KernelLabel label{call.variant_id, type_key_v<T>, name(kind), "single pass"};
    launch_kernel(label, &decoupled_lookback_kernel<kind, T>, static_cast<unsigned>(tiles), call.block_size, 0,
                  call.stream, in, out, call.n, status);
  }

  // An output: its thread's serial values (<= 8), the block scan (warp and block levels), the
  // tile prefix and its own add. A tile prefix can chain through every earlier tile: each link
  // adds a window reduction (5 levels), the window add and the inclusive publication.
  static std::uint64_t accumulation_depth(std::uint64_t n, int block_size) {
    const std::uint64_t block_scan = 8 + 2 * log2_exact(32) + 2;
    const std::uint64_t tiles = ceil_div(n, tile_values<double>(block_size));
    return 2 * block_scan + 2 + 7 * tiles;
  }
};

}  // namespace

const ScanVariant& scan_decoupled_lookback() {
  static const ScanVariant variant = make_scan_variant<DecoupledLookback>({
      .name = "decoupled_lookback",
      .description = "single pass: tiles publish aggregates and prefixes, a warp looks back over predecessors",
      .block_sizes = {32, 1024, 256},
      .deterministic = false,
      .cross_block = true,
      .in_place = true,
  });
  return variant;
}

}  // namespace kernels::detail
