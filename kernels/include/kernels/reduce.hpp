// Host API of the reduction family: reduce n elements on the device to one value on the device.
//
//   std::size_t bytes = kernels::reduce_workspace_bytes<int, int>("harris7_multi_element", Op::sum, n);
//   ... allocate `bytes` of device memory once ...
//   kernels::reduce("harris7_multi_element", Op::sum, d_in, n, d_out, {d_ws, bytes}, {}, stream);
//
// Semantics (for every variant): integer sums wrap modulo 2^bits; the widening sum reads int and
// returns the exact long long sum; float sums round (the bound depends on the variant's
// accumulation depth, see VariantInfo); NaN in any element gives NaN for sum, max and min;
// max/min order -0.0 below +0.0. An empty input yields 0 for sum, lowest() for max and max() for
// min. Calls are asynchronous on `stream`, allocate nothing and can be captured in a CUDA graph.
#pragma once

#include <kernels/types.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kernels {

struct ReduceConfig {
  int block_size = 0;  // 0: the variant's preferred block size
};

// Device bytes the call reduce<In, Out>(variant, op, ..., n, ..., config) needs as workspace.
// Validates like reduce() itself (throws ValidationError).
template <class In, class Out>
std::size_t reduce_workspace_bytes(std::string_view variant, Op op, std::uint64_t n, ReduceConfig config = {});

// Writes op-reduction of in[0, n) to *out. Throws ValidationError (before any CUDA call) for an
// unknown variant, an unsupported type, op or block size, n above the variant's limit, a null
// `in` with n > 0, a null `out`, or a workspace smaller than reduce_workspace_bytes(); throws
// CudaError when a CUDA call or launch fails.
template <class In, class Out>
void reduce(std::string_view variant, Op op, const In* in, std::uint64_t n, Out* out, Workspace workspace,
            ReduceConfig config = {}, cudaStream_t stream = nullptr);

#define KERNELS_DECLARE_REDUCE(key, In, Out, label)                                                                   \
  extern template std::size_t reduce_workspace_bytes<In, Out>(std::string_view, Op, std::uint64_t, ReduceConfig);     \
  extern template void reduce<In, Out>(std::string_view, Op, const In*, std::uint64_t, Out*, Workspace, ReduceConfig, \
                                       cudaStream_t);
KERNELS_FOR_EACH_TYPE(KERNELS_DECLARE_REDUCE)
#undef KERNELS_DECLARE_REDUCE

}  // namespace kernels
