// CUB's DeviceRadixSort, registered as a variant: the speed anchor and a second oracle. It chooses its own launch
// shape (block_size 0) and is stable (LSD radix sort).
//
// Integer keys go to CUB directly. CUB's float order need not be totalOrder (-0.0 and +0.0, NaNs), so float keys
// are sorted as their encode_order() bits: a kernel encodes keys_in into a workspace buffer, CUB sorts those (with
// the values) into a second one, and a kernel decodes them into keys_out.
#include <kernels/detail/device_query.hpp>
#include <kernels/detail/launch.cuh>
#include <kernels/detail/rounding.hpp>
#include <kernels/sort/detail/make_sort_variant.cuh>
#include <kernels/sort/detail/total_order.cuh>
#include <kernels/variant/sort.cuh>

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <cuda/type_traits>
#include <limits>
#include <type_traits>

namespace kernels::detail {
namespace {

// CUB's offsets follow num_items' type: 32-bit where the length fits, as most callers use.
template <class F>
cudaError_t with_offset_type(std::uint64_t n, F&& f) {
  if (n <= std::uint64_t(std::numeric_limits<std::int32_t>::max())) return f(static_cast<std::int32_t>(n));
  return f(static_cast<std::int64_t>(n));
}

// Keys CUB sorts: the keys themselves for integers, their encode_order() bits for floats.
template <class K>
using cub_key_t = std::conditional_t<cuda::is_floating_point_v<K>, ordered_bits_t<K>, K>;

template <class K>
__global__ void encode_kernel(const K* keys, ordered_bits_t<K>* bits, std::uint64_t n) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    bits[i] = encode_order(keys[i]);
  }
}

template <class K>
__global__ void decode_kernel(const ordered_bits_t<K>* bits, K* keys, std::uint64_t n) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    keys[i] = decode_order<K>(bits[i]);
  }
}

struct CubSort {
  static constexpr bool kSortsPairs = true;
  static constexpr int kCodecBlock = 256;

  // CUB takes 64-bit lengths; 2^40 keys is beyond any device's memory and keeps the workspace
  // arithmetic (two n-key buffers) far from overflowing size_t.
  static std::uint64_t max_length(int) { return std::uint64_t(1) << 40; }

  // One CUB call (a workspace query when temp is null), sorting all bits of SortKey.
  template <SortForm form, class SortKey>
  static cudaError_t cub_sort(void* temp, std::size_t& temp_bytes, const SortKey* keys_in, SortKey* keys_out,
                              const std::uint32_t* values_in, std::uint32_t* values_out, std::uint64_t n,
                              cudaStream_t stream) {
    constexpr int end_bit = sizeof(SortKey) * 8;
    return with_offset_type(n, [&](auto items) {
      if constexpr (form == SortForm::pairs) {
        return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys_in, keys_out, values_in, values_out, items, 0,
                                               end_bit, stream);
      } else {
        return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys_in, keys_out, items, 0, end_bit, stream);
      }
    });
  }

  // Bytes of each of the two bit buffers of a float sort (0 for integer keys, which need none).
  template <class K>
  static std::size_t bits_buffer_bytes(std::uint64_t n) {
    return cuda::is_floating_point_v<K> ? align_up(n * sizeof(ordered_bits_t<K>)) : 0;
  }

  // Workspace: for floats, the encoded keys and CUB's sorted output (256-byte aligned each);
  // then CUB's temporary storage.
  template <SortForm form, class K>
  static std::size_t workspace_bytes(std::uint64_t n, int) {
    using SortKey = cub_key_t<K>;
    std::size_t temp_bytes = 0;
    check_cuda(cub_sort<form, SortKey>(nullptr, temp_bytes, nullptr, nullptr, nullptr, nullptr, n, nullptr),
               "cub::DeviceRadixSort (workspace query)");
    return 2 * bits_buffer_bytes<K>(n) + temp_bytes;
  }

  template <SortForm form, class K>
  static void run(const K* keys_in, K* keys_out, const SortCall& call) {
    const std::uint32_t* values_in = call.values_in;
    std::uint32_t* values_out = call.values_out;
    const std::uint64_t n = call.n;
    auto* const workspace = static_cast<char*>(call.workspace.data);
    const std::size_t bits_bytes = bits_buffer_bytes<K>(n);
    void* const temp = workspace + 2 * bits_bytes;
    std::size_t temp_bytes = call.workspace.bytes - 2 * bits_bytes;
    if constexpr (cuda::is_floating_point_v<K>) {
      using Bits = ordered_bits_t<K>;
      auto* const encoded = reinterpret_cast<Bits*>(workspace);
      auto* const sorted = reinterpret_cast<Bits*>(workspace + bits_bytes);
      const auto grid =
          static_cast<unsigned>(std::min<std::uint64_t>(ceil_div(n, kCodecBlock), device_filling_grid(kCodecBlock)));
      launch_kernel(KernelLabel{call.variant_id, type_key_v<K>, name(form), "encode"}, &encode_kernel<K>, grid,
                    kCodecBlock, 0, call.stream, keys_in, encoded, n);
      check_cuda(cub_sort<form, Bits>(temp, temp_bytes, encoded, sorted, values_in, values_out, n, call.stream),
                 "cub::DeviceRadixSort");
      launch_kernel(KernelLabel{call.variant_id, type_key_v<K>, name(form), "decode"}, &decode_kernel<K>, grid,
                    kCodecBlock, 0, call.stream, sorted, keys_out, n);
    } else {
      check_cuda(cub_sort<form, K>(temp, temp_bytes, keys_in, keys_out, values_in, values_out, n, call.stream),
                 "cub::DeviceRadixSort");
    }
  }
};

}  // namespace

const bool registered = register_variant(make_sort_variant<CubSort>({
    .name = "cub",
    .description = "cub::DeviceRadixSort, floats as totalOrder bits (speed anchor, second oracle)",
    .block_sizes = BlockSizes::chosen_by_variant(),
    .deterministic = true,
    .stable = true,
}));

}  // namespace kernels::detail
