// One CUDA context made and timed: ci/context-burst.sh starts many of these at once to measure
// how a host's driver makes contexts side by side (bench/results/scaling.md).
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>

int main() {
  const auto start = std::chrono::steady_clock::now();
  cudaError_t status = cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
  if (status == cudaSuccess) status = cudaFree(nullptr);  // makes the context
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("context %.3f s %s\n", seconds, cudaGetErrorString(status));
  return status == cudaSuccess ? 0 : 1;
}
