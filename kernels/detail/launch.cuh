// Every launch goes through launch_kernel(), so that a failed launch names its kernel, grid, block and shared
// memory instead of surfacing later as an unrelated error.
#pragma once

#include <kernels/detail/launch_error.hpp>
#include <kernels/errors.hpp>

#include <cuda_runtime.h>

#include <string_view>
#include <utility>

namespace kernels::variant {

template <class... Params, class... Args>
void launch_kernel(const KernelLabel& label, void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes,
                   cudaStream_t stream, Args&&... args) {
  kernel<<<grid, block, shared_bytes, stream>>>(std::forward<Args>(args)...);
  detail::check_launch(cudaGetLastError(), label, grid, block, shared_bytes);
}

// The dynamic shared memory of a block, viewed as an array of T.
template <class T>
__device__ T* dynamic_shared() {
  extern __shared__ __align__(16) unsigned char dynamic_shared_bytes[];
  return reinterpret_cast<T*>(dynamic_shared_bytes);
}

}  // namespace kernels::variant
