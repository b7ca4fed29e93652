// Host API of the sort family: ascending sorts of n keys on the device, alone or carrying a
// 32-bit value each (in the tests, the key's original index, which makes stability visible).
//
// Order: integers by value; floats by IEEE 754 totalOrder,
//   -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN,
// so every bit pattern has one place and NaN and -0.0 sort like any other key. A stable variant
// (VariantInfo::stable) keeps equal keys in their input order. `keys_out` must not overlap
// `keys_in` (nor `values_out` `values_in`). An empty input writes nothing. Calls are
// asynchronous on `stream`, allocate nothing and can be captured in a CUDA graph.
#pragma once

#include <kernels/types.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kernels {

struct SortConfig {
  int block_size = 0;  // 0: the variant's preferred block size
};

// Device bytes sort_keys<K> / sort_pairs<K> need as workspace. Validates like the sort itself.
template <class K>
std::size_t sort_workspace_bytes(std::string_view variant, SortForm form, std::uint64_t n, SortConfig config = {});

// Writes keys_in[0, n) in ascending order to keys_out[0, n). Throws ValidationError (before any
// CUDA call) for an unknown variant, an unsupported type or block size, n above the variant's
// limit, null or misaligned pointers with n > 0, or a workspace smaller than
// sort_workspace_bytes(); throws CudaError when a CUDA call or launch fails.
template <class K>
void sort_keys(std::string_view variant, const K* keys_in, K* keys_out, std::uint64_t n, Workspace workspace,
               SortConfig config = {}, cudaStream_t stream = nullptr);

// As sort_keys, and values_out[i] is the value that came with keys_out[i]. Only for variants
// with VariantInfo::forms.
template <class K>
void sort_pairs(std::string_view variant, const K* keys_in, K* keys_out, const std::uint32_t* values_in,
                std::uint32_t* values_out, std::uint64_t n, Workspace workspace, SortConfig config = {},
                cudaStream_t stream = nullptr);

#define KERNELS_DECLARE_SORT(key, K, out, label)                                                              \
  extern template std::size_t sort_workspace_bytes<K>(std::string_view, SortForm, std::uint64_t, SortConfig); \
  extern template void sort_keys<K>(std::string_view, const K*, K*, std::uint64_t, Workspace, SortConfig,     \
                                    cudaStream_t);                                                            \
  extern template void sort_pairs<K>(std::string_view, const K*, K*, const std::uint32_t*, std::uint32_t*,    \
                                     std::uint64_t, Workspace, SortConfig, cudaStream_t);
KERNELS_FOR_EACH_ELEMENT_TYPE(KERNELS_DECLARE_SORT)
#undef KERNELS_DECLARE_SORT

}  // namespace kernels
