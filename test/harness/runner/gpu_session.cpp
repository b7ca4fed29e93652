#include "harness/runner/gpu_session.hpp"

#include "harness/numeric/exact_number.hpp"

#include <kernels/errors.hpp>

#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace harness {

GpuProbe probe_gpu() {
  GpuProbe probe;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    probe.description = status != cudaSuccess ? std::string("cudaGetDeviceCount failed: ") + cudaGetErrorName(status) +
                                                    " (" + cudaGetErrorString(status) + ")"
                                              : std::string("cudaGetDeviceCount reports no device");
    return probe;
  }
  cudaDeviceProp properties{};
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&properties, device) != cudaSuccess) {
    probe.description = "a device is reported but its properties cannot be read";
    return probe;
  }
  // The context is made here, before any test: the driver makes a GPU's contexts one at a time,
  // so with 16 test processes starting together it takes about 2 s (0.2 s alone; measured on an
  // H100, bench/results/suite-timing-2026-11-25.md), and inside a watched step (a property whose
  // first call has an empty input makes no other CUDA call before its stream) the hang watchdog
  // took it for a hang.
  // A wait for the device sleeps until the device is done instead of spinning on a core: with 16
  // test processes on a GPU that runs one process's kernels at a time, each wait lasts the other
  // processes' turns (milliseconds). On the H100 the gpu preset's processes used 867 s of CPU
  // instead of 1670 s, in the same 133 s: its cores are left to whatever else the machine runs.
  if (const cudaError_t flags = cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync); flags != cudaSuccess) {
    probe.description = std::string("the device's scheduling flags cannot be set: ") + cudaGetErrorName(flags);
    return probe;
  }
  if (const cudaError_t made = cudaFree(nullptr); made != cudaSuccess) {
    probe.description = std::string("the device's context cannot be made: ") + cudaGetErrorName(made) + " (" +
                        cudaGetErrorString(made) + ")";
    return probe;
  }
  std::ostringstream text;
  text << properties.name << ", sm_" << properties.major << properties.minor << ", " << properties.multiProcessorCount
       << " SMs, " << (properties.totalGlobalMem >> 20) << " MiB";
  probe.available = true;
  probe.description = text.str();
  return probe;
}

std::optional<std::string> ctest_assigned_gpu(std::string_view allocation, const char* visible_devices) {
  const std::string_view key = "id:";
  const auto at = allocation.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  const auto begin = at + key.size();
  const auto end = allocation.find(',', begin);
  const std::string_view id = allocation.substr(begin, end == std::string_view::npos ? end : end - begin);
  const std::optional<std::size_t> index = exact_number(id, std::size_t{0}, std::numeric_limits<std::size_t>::max());
  if (!index) return std::nullopt;
  if (visible_devices == nullptr) return std::string(id);
  std::string_view visible(visible_devices);
  for (std::size_t entry = 0; !visible.empty(); ++entry) {
    const auto comma = visible.find(',');
    if (entry == *index) return std::string(visible.substr(0, comma));
    visible = comma == std::string_view::npos ? std::string_view() : visible.substr(comma + 1);
  }
  return std::nullopt;
}

void use_ctest_assigned_gpu() {
  const char* allocation = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS");
  if (allocation == nullptr) return;
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (visible != nullptr && *visible == '\0') return;  // no GPU visible at all: probe_gpu says so
  const auto gpu = ctest_assigned_gpu(allocation, visible);
  if (!gpu) {
    throw std::runtime_error(
        std::string("ctest assigned GPU '") + allocation + "', which is not an index into the " +
        (visible ? std::string("visible devices CUDA_VISIBLE_DEVICES=") + visible : std::string("machine's devices")) +
        " (write the resource specification with ci/gpu-resource-spec.sh)");
  }
  setenv("CUDA_VISIBLE_DEVICES", gpu->c_str(), 1);
}

bool gpu_required() {
  const char* value = std::getenv("KERNELS_REQUIRE_GPU");
  return value != nullptr && std::string_view(value) != "" && std::string_view(value) != "0";
}

cudaStream_t new_nonblocking_stream() {
  cudaStream_t created = nullptr;
  kernels::check_cuda(cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  return created;
}

cudaStream_t test_stream() {
  static const cudaStream_t stream = new_nonblocking_stream();
  return stream;
}

std::size_t free_device_memory() {
  std::size_t free = 0, total = 0;
  kernels::check_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return free;
}

}  // namespace harness
