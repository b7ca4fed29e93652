#include "spin.hpp"

#include <kernels/errors.hpp>

namespace bench {
namespace {

// %globaltimer: nanoseconds, the same clock on every SM, whatever the SM's own clock rate.
__device__ std::uint64_t global_ns() {
  std::uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

__global__ void spin_kernel(std::uint64_t ns) {
  const std::uint64_t start = global_ns();
  while (global_ns() - start < ns) {
  }
}

}  // namespace

void enqueue_spin(cudaStream_t stream, std::uint64_t ns) {
  spin_kernel<<<1, 1, 0, stream>>>(ns);
  kernels::check_cuda(cudaGetLastError(), "spin_kernel (planted slowdown)");
}

}  // namespace bench
