#include "device_session.hpp"

#include <benchmark/benchmark.h>
#include <harness/session/gpu_session.hpp>
#include <kernels/errors.hpp>

#include <string>

namespace bench {
namespace {

std::string version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

cudaStream_t bench_stream() {
  static const cudaStream_t stream = harness::new_nonblocking_stream();
  return stream;
}

std::size_t cold_rotation_bytes() {
  static const std::size_t bytes = [] {
    int device = 0, l2_bytes = 0;
    kernels::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    kernels::check_cuda(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device),
                        "cudaDeviceGetAttribute (L2 size)");
    return 2 * std::size_t(l2_bytes);
  }();
  return bytes;
}

void describe_device_in_context() {
  int device = 0, driver = 0, runtime = 0;
  cudaDeviceProp properties{};
  kernels::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  kernels::check_cuda(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
  kernels::check_cuda(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
  kernels::check_cuda(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
  benchmark::AddCustomContext("gpu", properties.name);
  benchmark::AddCustomContext("gpu_arch", "sm_" + std::to_string(properties.major) + std::to_string(properties.minor));
  benchmark::AddCustomContext("gpu_sms", std::to_string(properties.multiProcessorCount));
  benchmark::AddCustomContext("gpu_memory_mib", std::to_string(properties.totalGlobalMem >> 20));
  benchmark::AddCustomContext("gpu_l2_bytes", std::to_string(properties.l2CacheSize));
  benchmark::AddCustomContext("cuda_driver", version_text(driver));
  benchmark::AddCustomContext("cuda_runtime", version_text(runtime));
  benchmark::AddCustomContext("rotation_bytes", std::to_string(cold_rotation_bytes()));
}

}  // namespace bench
