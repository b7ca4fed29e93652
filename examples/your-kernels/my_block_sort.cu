// sort/my_block_sort: an outside project's sort of up to two keys a thread in one block: odd-even transposition
// in shared memory, one compare-exchange of neighbours a thread a phase, n phases. Int keys only.
#include <kernels/variant/sort.cuh>

#include <array>
#include <cstdint>

namespace my_project {
namespace {

using namespace kernels;
using namespace kernels::variant;

template <class K>
__global__ void odd_even_kernel(const K* keys_in, K* keys_out, unsigned count) {
  K* keys = dynamic_shared<K>();
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x) keys[i] = keys_in[i];
  __syncthreads();
  for (unsigned phase = 0; phase < count; ++phase) {
    const unsigned left = 2 * threadIdx.x + phase % 2;
    if (left + 1 < count && keys[left + 1] < keys[left]) {
      const K smaller = keys[left + 1];
      keys[left + 1] = keys[left];
      keys[left] = smaller;
    }
    __syncthreads();
  }
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x) keys_out[i] = keys[i];
}

struct BlockSort {
  static constexpr std::array kTypes{TypeKey::int32};
  static constexpr bool kSortsPairs = false;
  static std::uint64_t max_length(int block_size) { return 2 * std::uint64_t(block_size); }

  template <SortForm form, class K>
  static std::size_t workspace_bytes(std::uint64_t, int) {
    return 0;
  }

  template <SortForm form, class K>
  static void run(const K* keys_in, K* keys_out, const SortCall& call) {
    const KernelLabel label{call.variant_id, type_key_v<K>, name(form), "odd-even"};
    launch_kernel(label, &odd_even_kernel<K>, 1, call.block_size, std::size_t(call.n) * sizeof(K), call.stream, keys_in,
                  keys_out, static_cast<unsigned>(call.n));
  }
};

const bool registered = register_variant(make_sort_variant<BlockSort>({
    .name = "my_block_sort",
    .description = "an outside project's int key sort of one block: odd-even transposition in shared memory",
    .block_sizes = {32, 1024, 256},
    .deterministic = true,
}));

}  // namespace
}  // namespace my_project
