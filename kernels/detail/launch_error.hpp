// Host side of launch checking, kept free of CUDA syntax so that it compiles as plain C++.
#pragma once

#include <kernels/detail/interface.hpp>
#include <kernels/types.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string_view>

namespace kernels::variant {

struct KernelLabel {  // in messages: "reduce/harris3_sequential<float,max> pass"
  std::string_view variant_id;
  TypeKey type;
  std::string_view operation;
  std::string_view stage;
};

}  // namespace kernels::variant

namespace kernels::detail {

// Throws CudaError naming the kernel and its launch shape unless `code` is cudaSuccess.
void check_launch(cudaError_t code, const KernelLabel& label, dim3 grid, dim3 block, std::size_t shared_bytes);

}  // namespace kernels::detail
