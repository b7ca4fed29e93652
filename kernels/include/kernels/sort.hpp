// Host API of the sort family: ascending, IEEE 754 totalOrder for floats; every variant's semantics: docs/semantics.md.
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

// Device bytes sort_keys<K> / sort_pairs<K> need as workspace; validates like the sort itself.
template <class K>
std::size_t sort_workspace_bytes(std::string_view variant, SortForm form, std::uint64_t n, SortConfig config = {});

// Writes keys_in[0, n) in ascending order to keys_out[0, n). Throws ValidationError before any CUDA call for a
// call the variant's record does not accept (docs/semantics.md#rejected-calls), CudaError when CUDA fails.
template <class K>
void sort_keys(std::string_view variant, const K* keys_in, K* keys_out, std::uint64_t n, Workspace workspace,
               SortConfig config = {}, cudaStream_t stream = nullptr);

// As sort_keys, values_out[i] the value that came with keys_out[i]; for variants with VariantInfo::forms.
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
