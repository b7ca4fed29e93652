#include "harness/input/device_inputs.hpp"

#include "harness/input/distribution_values.hpp"
#include "harness/session/gpu_session.hpp"

#include <kernels/errors.hpp>

namespace harness {
namespace {

template <class T>
__global__ void generate_kernel(Distribution distribution, std::uint64_t n, std::uint64_t seed, T* out) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
    out[i] = distribution_value<T>(distribution, n, seed, i);
  }
}

}  // namespace

bool made_on_device(Distribution distribution) {
  return distribution != Distribution::sorted && distribution != Distribution::reverse &&
         distribution != Distribution::large;
}

template <class T>
void generate_on_device(Distribution distribution, std::uint64_t n, std::uint64_t seed, T* out) {
  if (n == 0) return;
  constexpr unsigned kThreads = 256;
  const std::uint64_t blocks = (n + kThreads - 1) / kThreads;
  generate_kernel<<<static_cast<unsigned>(blocks < 4096 ? blocks : 4096), kThreads, 0, test_stream()>>>(distribution, n,
                                                                                                        seed, out);
  kernels::check_cuda(cudaGetLastError(), "launch of generate_kernel");
}

#define HARNESS_INSTANTIATE_DEVICE_INPUTS(key, T, out, label) \
  template void generate_on_device<T>(Distribution, std::uint64_t, std::uint64_t, T*);
KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_INSTANTIATE_DEVICE_INPUTS)
#undef HARNESS_INSTANTIATE_DEVICE_INPUTS

}  // namespace harness
