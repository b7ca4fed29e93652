// Host API of the reduction family; what a call means, for every variant: docs/semantics.md.
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

// Device bytes reduce<In, Out>(variant, op, ..., n, ..., config) needs as workspace; validates like reduce().
template <class In, class Out>
std::size_t reduce_workspace_bytes(std::string_view variant, Op op, std::uint64_t n, ReduceConfig config = {});

// Writes the op-reduction of in[0, n) to *out. Throws ValidationError before any CUDA call for a call the
// variant's record does not accept (docs/semantics.md#rejected-calls), CudaError when CUDA fails.
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
