// Odd-even transposition across blocks: any length, one window of 2B keys per block (B = block size).
//
// Phase 0 sorts the windows of units (0, 1), (2, 3), ... of B keys; odd phases sort the windows half a window
// further on, even phases repeat phase 0; ceil(n / B) phases sort any input (why, and the cost: docs/kernels.md).
#include <kernels/detail/rounding.hpp>
#include <kernels/sort/detail/make_sort_variant.cuh>
#include <kernels/sort/detail/shared_window.cuh>
#include <kernels/variant/sort.cuh>

#include <cstdint>

namespace kernels::detail {
namespace {

// Block b's window of a phase: keys [first + 2Bb, first + 2B(b + 1)) clipped to n. The host
// launches a block only for windows that start below n.
struct Window {
  std::uint64_t begin;
  unsigned count;
};

__device__ Window phase_window(std::uint64_t n, std::uint64_t first) {
  const std::uint64_t capacity = 2 * blockDim.x;
  const std::uint64_t begin = first + blockIdx.x * capacity;
  return {begin, static_cast<unsigned>(n - begin < capacity ? n - begin : capacity)};
}

// How many of the sorted keys sorted[0, count) come before `key` in the merged order: those
// below it, and for a key of the right unit (`key_is_right`) also those equal to it.
template <class Bits>
__device__ unsigned keys_before(const Bits* sorted, unsigned count, Bits key, bool key_is_right) {
  unsigned low = 0, high = count;
  while (low < high) {
    const unsigned middle = (low + high) / 2;
    if (sorted[middle] < key || (key_is_right && sorted[middle] == key)) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

// Sorts window[0, count) (count <= 2 * blockDim.x) by rounds of merges of runs of `width` keys,
// width 1, 2, 4, ...: every key is read and placed before any is written, thread t placing keys
// t and t + B. Every thread of the block calls it; on return the sorted window is visible to all.
template <class Bits>
__device__ void merge_sort_window(Bits* window, unsigned count) {
  for (unsigned width = 1; width < count; width *= 2) {
    Bits keys[2];
    unsigned places[2];
#pragma unroll
    for (unsigned k = 0; k < 2; ++k) {
      const unsigned i = threadIdx.x + k * blockDim.x;
      if (i >= count) continue;
      const unsigned own_begin = i / width * width;
      const bool is_right = (i / width) % 2 == 1;
      const unsigned partner_begin = is_right ? own_begin - width : own_begin + width;
      const unsigned partner_count = partner_begin >= count ? 0 : min(width, count - partner_begin);
      keys[k] = window[i];
      places[k] = min(own_begin, partner_begin) + (i - own_begin) +
                  keys_before(window + partner_begin, partner_count, keys[k], is_right);
    }
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < 2; ++k) {
      if (threadIdx.x + k * blockDim.x < count) window[places[k]] = keys[k];
    }
    __syncthreads();
  }
}

// Phase 0: sorts each window whatever its order.
template <class K>
__global__ void window_sort_kernel(const K* keys_in, K* keys_out, std::uint64_t n) {
  auto* window = dynamic_shared<ordered_bits_t<K>>();
  const Window w = phase_window(n, 0);
  load_window(keys_in + w.begin, w.count, window);
  __syncthreads();
  merge_sort_window(window, w.count);
  store_window(window, w.count, keys_out + w.begin);
}

// Phases 1 to q - 1: each window's two units are sorted, so the window is their merge. Thread
// t places key t of each unit: at its index in its unit plus the keys of the other unit before
// it. The window is read whole into shared memory before any key is written, so the merge can
// write straight back over it.
template <class K>
__global__ void window_merge_kernel(K* keys, std::uint64_t n, std::uint64_t first) {
  using Bits = ordered_bits_t<K>;
  auto* window = dynamic_shared<Bits>();
  const Window w = phase_window(n, first);
  load_window(keys + w.begin, w.count, window);
  __syncthreads();
  const unsigned left_count = w.count < blockDim.x ? w.count : blockDim.x;
  const unsigned right_count = w.count - left_count;
  const Bits* right = window + blockDim.x;
  const unsigned t = threadIdx.x;
  if (t < left_count) {
    const Bits key = window[t];
    keys[w.begin + t + keys_before(right, right_count, key, false)] = decode_order<K>(key);
  }
  if (t < right_count) {
    const Bits key = right[t];
    keys[w.begin + t + keys_before(window, left_count, key, true)] = decode_order<K>(key);
  }
}

struct OddEvenMultiBlock {
  static constexpr bool kSortsPairs = false;

  // O(n^2) work: see the header comment.
  static std::uint64_t max_length(int) { return std::uint64_t(1) << 18; }

  template <SortForm form, class K>
  static std::size_t workspace_bytes(std::uint64_t, int) {
    return 0;
  }

  template <SortForm form, class K>
  static void run(const K* keys_in, K* keys_out, const SortCall& call) {
    const KernelLabel sort_label{call.variant_id, type_key_v<K>, name(form), "window sort"};
    const KernelLabel merge_label{call.variant_id, type_key_v<K>, name(form), "window merge"};
    const std::uint64_t unit = call.block_size, n = call.n;
    const std::size_t shared_bytes = 2 * unit * sizeof(ordered_bits_t<K>);
    const std::uint64_t phases = ceil_div(n, unit);
    launch_kernel(sort_label, &window_sort_kernel<K>, static_cast<unsigned>(ceil_div(n, 2 * unit)), call.block_size,
                  shared_bytes, call.stream, keys_in, keys_out, n);
    for (std::uint64_t phase = 1; phase < phases; ++phase) {
      // Odd phases exist only when n > B (phases >= 2), so first < n.
      const std::uint64_t first = phase % 2 == 0 ? 0 : unit;
      const auto windows = static_cast<unsigned>(ceil_div(n - first, 2 * unit));
      launch_kernel(merge_label, &window_merge_kernel<K>, windows, call.block_size, shared_bytes, call.stream, keys_out,
                    n, first);
    }
  }
};

}  // namespace

const bool registered = register_variant(make_sort_variant<OddEvenMultiBlock>({
    .name = "odd_even_multi_block",
    .description =
        "odd-even transposition across blocks: ceil(n / block) phases of 2 x block windows (sorts, then merges)",
    .block_sizes = {32, 1024, 256},
    .deterministic = true,
    .stable = true,
}));

}  // namespace kernels::detail
