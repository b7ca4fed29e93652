// Odd-even transposition sort in one block ("bubble sort" made parallel): the teaching kernel.
//
// One block loads the whole input (at most 2B keys) into shared memory and runs n phases of compare-exchanges
// (detail/odd_even_transposition.cuh): O(n) phases of O(1) work per thread, a capacity of one block.
#include <kernels/sort/detail/make_sort_variant.cuh>
#include <kernels/sort/detail/odd_even_transposition.cuh>
#include <kernels/variant/sort.cuh>

#include <cstdint>

namespace kernels::detail {
namespace {

template <class K>
__global__ void odd_even_block_kernel(const K* keys_in, K* keys_out, unsigned n) {
  auto* window = dynamic_shared<ordered_bits_t<K>>();
  load_window(keys_in, n, window);
  __syncthreads();
  odd_even_transposition_sort(window, n);
  store_window(window, n, keys_out);
}

struct OddEvenBlock {
  static constexpr bool kSortsPairs = false;

  // Two keys per thread.
  static std::uint64_t max_length(int block_size) { return 2 * std::uint64_t(block_size); }

  template <SortForm form, class K>
  static std::size_t workspace_bytes(std::uint64_t, int) {
    return 0;
  }

  template <SortForm form, class K>
  static void run(const K* keys_in, K* keys_out, const SortCall& call) {
    const KernelLabel label{call.variant_id, type_key_v<K>, name(form), "block sort"};
    const std::size_t shared_bytes = 2 * std::size_t(call.block_size) * sizeof(ordered_bits_t<K>);
    launch_kernel(label, &odd_even_block_kernel<K>, 1, call.block_size, shared_bytes, call.stream, keys_in, keys_out,
                  static_cast<unsigned>(call.n));
  }
};

}  // namespace

const bool registered = register_variant(make_sort_variant<OddEvenBlock>({
    .name = "odd_even_block",
    .description = "odd-even transposition sort of up to 2 x block keys in one block's shared memory",
    .block_sizes = {1, 1024, 256},
    .deterministic = true,
    .stable = true,
}));

}  // namespace kernels::detail
