// Host API of the scan family: prefix combinations of n elements on the device.
//
//   std::size_t bytes = kernels::scan_workspace_bytes<int>("decoupled_lookback", ScanKind::inclusive, Op::sum, n);
//   kernels::scan("decoupled_lookback", ScanKind::inclusive, Op::sum, d_in, n, d_out, {d_ws, bytes}, {}, stream);
//
// inclusive[i] = in[0] op ... op in[i], combined in that order (the operators need not be
// commutative); exclusive[0] is the empty prefix (0 for a sum, the op's identity otherwise) and
// exclusive[i] = inclusive[i-1]. Scans offer the sum and the operators of kernels/operators.hpp
// other than max and min, each for the types it takes. Integer sums wrap modulo 2^bits; float
// sums round, each output within the bound its variant's accumulation depth gives for the
// prefix of |x|; -0.0 only where every term of the prefix is -0.0 (exclusive[0] is +0.0). `out`
// may equal `in` where the variant declares in_place; otherwise the ranges must not overlap. An
// empty input writes nothing. Calls are asynchronous on `stream`, allocate nothing and can be
// captured in a CUDA graph.
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

// Device bytes scan<T>(variant, kind, op, ..., n, ..., config) needs as workspace. Validates like
// scan() (throws ValidationError).
template <class T>
std::size_t scan_workspace_bytes(std::string_view variant, ScanKind kind, Op op, std::uint64_t n,
                                 ScanConfig config = {});

// Writes the kind-scan under op of in[0, n) to out[0, n). Throws ValidationError (before any
// CUDA call) for an unknown variant, an unsupported type, op or block size (a commutative-only
// variant rejects an op that is not commutative), n above the variant's limit (one
// block's capacity for the single-block variants), null or misaligned pointers with n > 0,
// in == out for a variant that is not in-place, or a workspace smaller than
// scan_workspace_bytes(); throws CudaError when a CUDA call or launch fails.
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
