#include "harness/input/random_bits.hpp"
#include "harness/runner/scheduling_noise.hpp"
#include "harness/session/gpu_session.hpp"

#include <kernels/errors.hpp>

#include <cuda_runtime.h>

namespace harness {
namespace {

__global__ void spin_kernel(std::uint64_t seed, unsigned max_nanoseconds) {
  if (threadIdx.x != 0) return;
  const unsigned wait = static_cast<unsigned>(random_bits(seed, blockIdx.x) % (max_nanoseconds + 1));
  const long long start = clock64();
  // About one cycle per nanosecond at the H100's 1.7 GHz or so; precision does not matter.
  while (clock64() - start < wait) {
  }
}

cudaStream_t noise_stream() {
  static const cudaStream_t stream = new_nonblocking_stream();
  return stream;
}

}  // namespace

void launch_scheduling_noise(std::uint64_t seed, unsigned max_microseconds) {
  int device = 0, multiprocessors = 0;
  kernels::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  kernels::check_cuda(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device),
                      "cudaDeviceGetAttribute");
  // Random blocks of a grid a few times the device: some multiprocessors stay busy longer.
  const unsigned blocks = 1 + static_cast<unsigned>(random_bits(seed, ~0ull) % (4 * multiprocessors));
  spin_kernel<<<blocks, 32, 0, noise_stream()>>>(seed, max_microseconds * 1000u);
  kernels::check_cuda(cudaGetLastError(), "launch of spin_kernel");
}

void wait_for_scheduling_noise() {
  kernels::check_cuda(cudaStreamSynchronize(noise_stream()), "cudaStreamSynchronize (noise)");
}

}  // namespace harness
