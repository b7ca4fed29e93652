// Host API of the scan family; what a call means, for every variant: docs/semantics.md.
#pragma once

#include <kernels/types.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kernels {

struct ScanConfig {
  int block_size = 0;  // 0: the variant's preferred block size
};

// Device bytes scan<T>(variant, kind, op, ..., n, ..., config) needs as workspace; validates like scan().
template <class T>
std::size_t scan_workspace_bytes(std::string_view variant, ScanKind kind, Op op, std::uint64_t n,
                                 ScanConfig config = {});

// Writes the kind-scan under op of in[0, n) to out[0, n). Throws ValidationError before any CUDA call for a call
// the variant's record does not accept (docs/semantics.md#rejected-calls), CudaError when CUDA fails.
template <class T>
void scan(std::string_view variant, ScanKind kind, Op op, const T* in, std::uint64_t n, T* out, Workspace workspace,
          ScanConfig config = {}, cudaStream_t stream = nullptr);

#define KERNELS_DECLARE_SCAN(key, T, out, label)                                                                   \
  extern template std::size_t scan_workspace_bytes<T>(std::string_view, ScanKind, Op, std::uint64_t, ScanConfig);  \
  extern template void scan<T>(std::string_view, ScanKind, Op, const T*, std::uint64_t, T*, Workspace, ScanConfig, \
                               cudaStream_t);
KERNELS_FOR_EACH_SCAN_TYPE(KERNELS_DECLARE_SCAN)
#undef KERNELS_DECLARE_SCAN

}  // namespace kernels
