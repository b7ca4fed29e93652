#include "harness/core/gpu_session.hpp"

#include <kernels/errors.hpp>

#include <cstdlib>
#include <sstream>
#include <string_view>

namespace harness {

GpuProbe probe_gpu() {
  GpuProbe probe;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    probe.description = status != cudaSuccess
                            ? std::string("cudaGetDeviceCount failed: ") + cudaGetErrorName(status) + " (" +
                                  cudaGetErrorString(status) + ")"
                            : std::string("cudaGetDeviceCount reports no device");
    return probe;
  }
  cudaDeviceProp properties{};
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&properties, device) != cudaSuccess) {
    probe.description = "a device is reported but its properties cannot be read";
    return probe;
  }
  std::ostringstream text;
  text << properties.name << ", sm_" << properties.major << properties.minor << ", "
       << properties.multiProcessorCount << " SMs, " << (properties.totalGlobalMem >> 20) << " MiB";
  probe.available = true;
  probe.description = text.str();
  return probe;
}

std::optional<std::string> ctest_assigned_gpu(std::string_view allocation) {
  const std::string_view key = "id:";
  const auto at = allocation.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  const auto begin = at + key.size();
  const auto end = allocation.find(',', begin);
  const std::string_view id = allocation.substr(begin, end == std::string_view::npos ? end : end - begin);
  if (id.empty()) return std::nullopt;
  return std::string(id);
}

void use_ctest_assigned_gpu() {
  const char* allocation = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS");
  if (allocation == nullptr) return;
  if (const auto gpu = ctest_assigned_gpu(allocation)) setenv("CUDA_VISIBLE_DEVICES", gpu->c_str(), 1);
}

bool gpu_required() {
  const char* value = std::getenv("KERNELS_REQUIRE_GPU");
  return value != nullptr && std::string_view(value) != "" && std::string_view(value) != "0";
}

cudaStream_t test_stream() {
  static const cudaStream_t stream = [] {
    cudaStream_t created = nullptr;
    kernels::check_cuda(cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    return created;
  }();
  return stream;
}

std::size_t free_device_memory() {
  std::size_t free = 0, total = 0;
  kernels::check_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return free;
}

}  // namespace harness
