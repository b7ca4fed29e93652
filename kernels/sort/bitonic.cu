// Bitonic sort: shared-memory stages inside blocks, global-memory steps across them; any length. Every comparator
// is ascending; those reaching past n are skipped, as if positions n..N-1 held keys above every real key. Not
// stable: the mirror steps move equal keys past each other. The network, ragged lengths and stages:
// docs/kernels.md#sort.
#include <kernels/detail/rounding.hpp>
#include <kernels/sort/detail/make_sort_variant.cuh>
#include <kernels/sort/detail/shared_window.cuh>
#include <kernels/variant/sort.cuh>

#include <algorithm>
#include <bit>
#include <cstdint>

namespace kernels::detail {
namespace {

// Number `index` among the positions whose `bits` bits from `low_stride` (a power of two) up are
// clear: a comparator's lower index (one bit, the step's stride), a group's first position.
template <class Index>
__device__ Index with_bits_clear(Index index, Index low_stride, int bits) {
  const Index below = index & (low_stride - 1);
  return ((index - below) << bits) | below;
}

// The steps of merge `size` from stride `top_stride` down to 1 on the tile in shared memory,
// one comparator per thread per step. Tiles are aligned to T, a multiple of every size <= T, so
// tile-local indices give the same mirror as global ones. Every thread of the block calls it.
template <class Bits>
__device__ void tile_merge_steps(Bits* window, unsigned count, std::uint64_t size, unsigned top_stride) {
  for (unsigned stride = top_stride; stride > 0; stride /= 2) {
    const unsigned i = with_bits_clear(threadIdx.x, stride, 1);
    const unsigned j = stride == size / 2 ? i ^ (2 * stride - 1) : i + stride;
    if (j < count) compare_exchange(window, i, j);
    __syncthreads();
  }
}

// Block b holds tile [bT, bT + T) clipped to n, whose start is below n.
__device__ unsigned tile_count(std::uint64_t n) {
  const std::uint64_t capacity = 2 * blockDim.x;
  const std::uint64_t begin = blockIdx.x * capacity;
  return static_cast<unsigned>(n - begin < capacity ? n - begin : capacity);
}

// Merges 2..T of every tile: keys_in's tile, sorted, to keys_out.
template <class K>
__global__ void tile_sort_kernel(const K* keys_in, K* keys_out, std::uint64_t n) {
  auto* window = dynamic_shared<ordered_bits_t<K>>();
  const std::uint64_t begin = std::uint64_t(blockIdx.x) * (2 * blockDim.x);
  const unsigned count = tile_count(n);
  load_window(keys_in + begin, count, window);
  __syncthreads();
  for (unsigned size = 2; size <= 2 * blockDim.x; size *= 2) tile_merge_steps(window, count, size, size / 2);
  store_window(window, count, keys_out + begin);
}

// The steps of stride B..1 of a merge larger than T, in place in every tile.
template <class K>
__global__ void tile_merge_kernel(K* keys, std::uint64_t n, std::uint64_t size) {
  auto* window = dynamic_shared<ordered_bits_t<K>>();
  const std::uint64_t begin = std::uint64_t(blockIdx.x) * (2 * blockDim.x);
  const unsigned count = tile_count(n);
  load_window(keys + begin, count, window);
  __syncthreads();
  tile_merge_steps(window, count, size, blockDim.x);
  store_window(window, count, keys + begin);
}

// The most blocks of a global launch: each thread then takes several comparators or groups, a grid apart.
constexpr std::uint64_t kGlobalBlocks = std::uint64_t(1) << 16;

// The half-cleaners of strides s down to t = s >> (k - 1) touch only 2^k positions of each group, so one launch
// runs up to kFusedSteps of them from registers: one pass over global memory instead of k.
constexpr int kFusedSteps = 3;

// The comparators of a mirror step (i with i ^ (size - 1)) the grid must cover, by lower index: all of every
// full block of `size`, and all of a partial block's if its upper half starts below n.
std::uint64_t mirror_comparators(std::uint64_t n, std::uint64_t size) {
  const std::uint64_t half = size / 2;
  return n / size * half + (n % size > half ? half : 0);
}

// How many groups of `steps` half-cleaners from `low_stride` up the grid must cover: those whose
// first position is below n, the only ones with a comparator inside [0, n).
std::uint64_t groups_below(std::uint64_t n, std::uint64_t low_stride, int steps) {
  const std::uint64_t span = low_stride << steps;
  return n / span * low_stride + std::min(n % span, low_stride);
}

// The mirror step of merge `size`, in global memory, one comparator per thread in turn.
template <class K>
__global__ void global_mirror_kernel(K* keys, std::uint64_t n, std::uint64_t size, std::uint64_t comparators) {
  const std::uint64_t width = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t pair = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; pair < comparators; pair += width) {
    const std::uint64_t i = with_bits_clear(pair, size / 2, 1);
    const std::uint64_t j = i ^ (size - 1);
    if (j >= n) continue;  // a virtual key: nothing moves (no barrier in this kernel)
    const K a = keys[i], b = keys[j];
    if (encode_order(a) > encode_order(b)) {
      keys[i] = b;
      keys[j] = a;
    }
  }
}

// kSteps half-cleaners, strides low_stride << (kSteps - 1) down to low_stride, in global memory,
// one group per thread in turn. Positions at or past n are virtual: never loaded, compared or
// stored.
template <class K, int kSteps>
__global__ void global_half_cleaners_kernel(K* keys, std::uint64_t n, std::uint64_t low_stride, std::uint64_t groups) {
  constexpr int kKeys = 1 << kSteps;
  const std::uint64_t width = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t group = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; group < groups; group += width) {
    const std::uint64_t base = with_bits_clear(group, low_stride, kSteps);
    K key[kKeys] = {};
#pragma unroll
    for (int m = 0; m < kKeys; ++m) {
      if (base + m * low_stride < n) key[m] = keys[base + m * low_stride];
    }
#pragma unroll
    for (int apart = kKeys / 2; apart > 0; apart /= 2) {  // stride apart * low_stride
#pragma unroll
      for (int m = 0; m < kKeys; ++m) {
        if ((m & apart) != 0 || base + (m + apart) * low_stride >= n) continue;
        if (encode_order(key[m]) > encode_order(key[m + apart])) {
          const K lower = key[m + apart];
          key[m + apart] = key[m];
          key[m] = lower;
        }
      }
    }
#pragma unroll
    for (int m = 0; m < kKeys; ++m) {
      if (base + m * low_stride < n) keys[base + m * low_stride] = key[m];
    }
  }
}

// The half-cleaner kernels by their number of steps, 1 to kFusedSteps.
template <class K>
constexpr void (*kHalfCleaners[])(K*, std::uint64_t, std::uint64_t, std::uint64_t) = {
    &global_half_cleaners_kernel<K, 1>, &global_half_cleaners_kernel<K, 2>, &global_half_cleaners_kernel<K, 3>};
static_assert(kFusedSteps == 3, "kHalfCleaners lists a kernel per number of steps");

unsigned global_grid(std::uint64_t threads, std::uint64_t block) {
  return static_cast<unsigned>(std::min(ceil_div(threads, block), kGlobalBlocks));
}

struct Bitonic {
  static constexpr bool kSortsPairs = false;

  // 2^31 B keys never binds; global grids are capped (kGlobalBlocks), tile launches stay below 2^31 - 1 blocks.
  static std::uint64_t max_length(int block_size) { return std::uint64_t(block_size) << 31; }

  template <SortForm form, class K>
  static std::size_t workspace_bytes(std::uint64_t, int) {
    return 0;
  }

  template <SortForm form, class K>
  static void run(const K* keys_in, K* keys_out, const SortCall& call) {
    const std::uint64_t n = call.n, block = call.block_size, tile = 2 * block;
    const std::uint64_t positions = std::bit_ceil(n);
    const auto tiles = static_cast<unsigned>(ceil_div(n, tile));
    const std::size_t shared_bytes = tile * sizeof(ordered_bits_t<K>);

    launch_kernel(KernelLabel{call.variant_id, type_key_v<K>, name(form), "tile sort"}, &tile_sort_kernel<K>, tiles,
                  call.block_size, shared_bytes, call.stream, keys_in, keys_out, n);
    for (std::uint64_t size = 2 * tile; size <= positions; size *= 2) {
      const std::uint64_t mirrors = mirror_comparators(n, size);
      launch_kernel(KernelLabel{call.variant_id, type_key_v<K>, name(form), "global mirror step"},
                    &global_mirror_kernel<K>, global_grid(mirrors, block), call.block_size, 0, call.stream, keys_out, n,
                    size, mirrors);
      for (std::uint64_t stride = size / 4; stride >= tile;) {
        const int steps = std::min(kFusedSteps, std::countr_zero(stride) - std::countr_zero(tile) + 1);
        const std::uint64_t low_stride = stride >> (steps - 1);
        const std::uint64_t groups = groups_below(n, low_stride, steps);
        launch_kernel(KernelLabel{call.variant_id, type_key_v<K>, name(form), "global half-cleaners"},
                      kHalfCleaners<K>[steps - 1], global_grid(groups, block), call.block_size, 0, call.stream,
                      keys_out, n, low_stride, groups);
        stride = low_stride / 2;
      }
      launch_kernel(KernelLabel{call.variant_id, type_key_v<K>, name(form), "tile merge"}, &tile_merge_kernel<K>, tiles,
                    call.block_size, shared_bytes, call.stream, keys_out, n, size);
    }
  }
};

}  // namespace

const bool registered = register_variant(make_sort_variant<Bitonic>({
    .name = "bitonic",
    .description = "bitonic network, all comparators ascending: shared-memory tiles, global steps across them",
    .block_sizes = {32, 1024, 256},
    .deterministic = true,
    .stable = false,
}));

}  // namespace kernels::detail
