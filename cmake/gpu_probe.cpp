// Configure-time probe (GpuProbe.cmake): prints the first CUDA device, or why there is none.
#include <cuda_runtime_api.h>

#include <cstdio>

int main() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    std::printf("%s", status != cudaSuccess ? cudaGetErrorString(status) : "no CUDA device");
    return 1;
  }
  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, 0) != cudaSuccess) {
    std::printf("device properties unreadable");
    return 1;
  }
  std::printf("%s (sm_%d%d)", properties.name, properties.major, properties.minor);
  return 0;
}
