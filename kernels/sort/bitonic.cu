// Bitonic sort: shared-memory stages inside blocks, global-memory steps across them; any length.
//
// The network sorts N = 2^k positions. Merge `size` (2, 4, ..., N) sorts every aligned block of
// `size` positions whose two halves are sorted, in steps of falling stride: the first step
// (stride size / 2) compares position i of the lower half with its mirror i ^ (size - 1) in
// the upper half, which turns the two ascending halves into two bitonic halves, every key of
// the lower one <= every key of the upper one; each later step compares i with i + stride
// (the half-cleaners). In this formulation every comparator is ascending: the smaller key goes
// to the lower index.
//
// Ragged lengths: N = bit_ceil(n) and positions n..N-1 hold virtual keys above every real key.
// A comparator (i, j), i < j, with j >= n would leave its keys in place (the real key is already
// the smaller, at the lower index), so it is skipped: no thread reads or writes past n, and the
// virtual keys never move. Only comparators with j < n run.
//
// Stages: a tile is T = 2B positions (B = block size), one comparator per thread per step.
// The first launch loads each tile from keys_in, runs merges 2..T in shared memory and writes
// the tile to keys_out: the copy of the input and the first stages in one pass; everything
// after sorts keys_out in place. For each merge above T, the steps with stride >= T compare
// positions in different tiles and run as one global launch each; the steps with stride < T
// stay inside tiles and run as one shared-memory launch. Not stable: the mirror steps move
// equal keys past each other.
#include <kernels/detail/rounding.hpp>
#include <kernels/sort/detail/make_sort_variant.cuh>
#include <kernels/sort/detail/shared_window.cuh>

#include <bit>
#include <cstdint>

namespace kernels::detail {
namespace {

// The lower index of comparator `pair` in a step of `stride` (a power of two): the pairs are
// numbered in the order of their lower indices, the indices whose `stride` bit is clear.
template <class Index>
__device__ Index lower_of_pair(Index pair, Index stride) {
  return ((pair & ~(stride - 1)) << 1) | (pair & (stride - 1));
}

// The steps of merge `size` from stride `top_stride` down to 1 on the tile in shared memory,
// one comparator per thread per step. Tiles are aligned to T, a multiple of every size <= T, so
// tile-local indices give the same mirror as global ones. Every thread of the block calls it.
template <class Bits>
__device__ void tile_merge_steps(Bits* window, unsigned count, std::uint64_t size, unsigned top_stride) {
  for (unsigned stride = top_stride; stride > 0; stride /= 2) {
    const unsigned i = lower_of_pair(threadIdx.x, stride);
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

// One step of stride >= T of merge `size`, in global memory: thread p owns comparator p of the
// step; the grid has exactly one thread per comparator of the N-position network.
template <class K>
__global__ void global_step_kernel(K* keys, std::uint64_t n, std::uint64_t size, std::uint64_t stride) {
  const std::uint64_t pair = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t i = lower_of_pair(pair, stride);
  const std::uint64_t j = stride == size / 2 ? i ^ (size - 1) : i + stride;
  if (j >= n) return;  // a virtual key: nothing moves (no barrier in this kernel)
  const K a = keys[i], b = keys[j];
  if (encode_order(a) > encode_order(b)) {
    keys[i] = b;
    keys[j] = a;
  }
}

struct Bitonic {
  static constexpr bool sorts_pairs = false;

  // A global step launches N / 2B blocks, N = bit_ceil(n) <= 2^31 B: at most 2^30 blocks, well
  // inside the grid's 2^31 - 1. (Device memory runs out long before.)
  static std::uint64_t max_length(int block_size) { return std::uint64_t(block_size) << 31; }

  template <SortForm form, class K>
  static std::size_t workspace_bytes(std::uint64_t, int) {
    return 0;
  }

  template <SortForm form, class K>
  static void run(const K* keys_in, K* keys_out, const std::uint32_t*, std::uint32_t*, const SortCall& call) {
    const std::uint64_t n = call.n, block = call.block_size, tile = 2 * block;
    const std::uint64_t positions = std::bit_ceil(n);
    const auto tiles = static_cast<unsigned>(ceil_div(n, tile));
    const std::size_t shared_bytes = tile * sizeof(ordered_bits_t<K>);
    const auto global_grid = static_cast<unsigned>(positions / 2 / block);  // used only when positions >= 2T

    launch_kernel(KernelLabel{call.variant_id, type_key_v<K>, name(form), "tile sort"}, &tile_sort_kernel<K>, tiles,
                  call.block_size, shared_bytes, call.stream, keys_in, keys_out, n);
    for (std::uint64_t size = 2 * tile; size <= positions; size *= 2) {
      for (std::uint64_t stride = size / 2; stride >= tile; stride /= 2) {
        launch_kernel(KernelLabel{call.variant_id, type_key_v<K>, name(form), "global step"}, &global_step_kernel<K>,
                      global_grid, call.block_size, 0, call.stream, keys_out, n, size, stride);
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
