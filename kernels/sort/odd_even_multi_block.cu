// Odd-even transposition across blocks: any length, one window of 2B keys per block.
//
// Cut the input into units of B keys (B = block size; the last unit may be partial). Phase 0
// sorts the windows of units (0, 1), (2, 3), ...; odd phases sort the windows (1, 2), (3, 4),
// ..., half a window (B keys) further on; even phases repeat phase 0. Each window is one
// block's shared-memory odd-even transposition sort (detail/odd_even_transposition.cuh), and
// windows of one phase are disjoint, so the phases after the first sort keys_out in place.
//
// How many phases: let q = ceil(n / B) units. After the first window that contains it, every
// unit is sorted, and sorting a window gives the same result whether or not its two units were
// sorted before; so the scheme is odd-even transposition sort over q sorted blocks, with
// "sort both blocks together and split them" as the compare-exchange (merge-split). That sorts
// q blocks in q phases whatever the input (Baudet and Stevenson, "Optimal sorting algorithms for
// parallel computers", IEEE Trans. Computers 1978: the block version of the n-phase bound of
// odd-even transposition sort). A partial last unit acts as a full one padded with keys above
// every real key, which no window sort moves. So the host runs exactly q phases: a fixed
// schedule, no data-dependent loop, no host synchronisation. (The scheme is data-oblivious, so
// the 0-1 principle applies; an exhaustive check of all 0-1 inputs for B <= 4 and n <= 22 never
// needed more than q phases, and needed all q for every n > 2B with B <= 2.) Stable: each window
// sort is, and keys outside a window do not move, so equal keys never pass each other.
//
// Cost: q phases of n / 2B windows, each 2B transposition phases of B threads, about n^2
// compare steps whatever B; at the declared limit of 2^18 keys that is ~7e10 steps, tens of
// milliseconds on an H100, plus q <= 8192 launches.
#include <kernels/detail/rounding.hpp>
#include <kernels/sort/detail/make_sort_variant.cuh>
#include <kernels/sort/detail/odd_even_transposition.cuh>

#include <cstdint>

namespace kernels::detail {
namespace {

// Block b sorts the window [first + 2Bb, first + 2B(b + 1)) clipped to n; every block's window
// starts below n.
template <class K>
__global__ void window_sort_kernel(const K* keys_in, K* keys_out, std::uint64_t n, std::uint64_t first) {
  auto* window = dynamic_shared<ordered_bits_t<K>>();
  const std::uint64_t capacity = 2 * blockDim.x;
  const std::uint64_t begin = first + blockIdx.x * capacity;
  const auto count = static_cast<unsigned>(n - begin < capacity ? n - begin : capacity);
  load_window(keys_in + begin, count, window);
  __syncthreads();
  odd_even_transposition_sort(window, count);
  store_window(window, count, keys_out + begin);
}

struct OddEvenMultiBlock {
  static constexpr bool sorts_pairs = false;

  // O(n^2) work: see the header comment.
  static std::uint64_t max_length(int) { return std::uint64_t(1) << 18; }

  template <SortForm form, class K>
  static std::size_t workspace_bytes(std::uint64_t, int) {
    return 0;
  }

  template <SortForm form, class K>
  static void run(const K* keys_in, K* keys_out, const std::uint32_t*, std::uint32_t*, const SortCall& call) {
    const KernelLabel label{call.variant_id, type_key_v<K>, name(form), "window sort"};
    const std::uint64_t unit = call.block_size, n = call.n;
    const std::size_t shared_bytes = 2 * unit * sizeof(ordered_bits_t<K>);
    const std::uint64_t phases = ceil_div(n, unit);
    for (std::uint64_t phase = 0; phase < phases; ++phase) {
      // Odd phases exist only when n > B (phases >= 2), so first < n.
      const std::uint64_t first = phase % 2 == 0 ? 0 : unit;
      const auto windows = static_cast<unsigned>(ceil_div(n - first, 2 * unit));
      const K* source = phase == 0 ? keys_in : keys_out;
      launch_kernel(label, &window_sort_kernel<K>, windows, call.block_size, shared_bytes, call.stream, source,
                    keys_out, n, first);
    }
  }
};

}  // namespace

const bool registered = register_variant(make_sort_variant<OddEvenMultiBlock>({
    .name = "odd_even_multi_block",
    .description = "odd-even transposition across blocks: ceil(n / block) phases of 2 x block windows",
    .block_sizes = {32, 1024, 256},
    .deterministic = true,
    .stable = true,
}));

}  // namespace kernels::detail
