#include "harness/session/gpu_session.hpp"

#include "harness/settings/environment.hpp"
#include "harness/settings/exact_number.hpp"

#include <kernels/errors.hpp>

#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

namespace harness {

namespace {

// The GPUs the NVIDIA kernel driver has, whatever CUDA says: one folder each.
int driver_listed_gpus() {
  std::error_code error;
  int count = 0;
  for (std::filesystem::directory_iterator gpu("/proc/driver/nvidia/gpus", error), end; !error && gpu != end;
       gpu.increment(error))
    ++count;
  return count;
}

// KERNELS_SIMULATE_GPU_LOSS: whether this probe finds the GPU lost (the file exists already).
bool simulated_loss() {
  const char* file = harness::suite_variable("KERNELS_SIMULATE_GPU_LOSS");
  if (file == nullptr || *file == '\0') return false;
  const int created = open(file, O_CREAT | O_EXCL | O_WRONLY, 0644);
  if (created < 0) return true;
  close(created);
  return false;
}

// No device: lost where the driver lists GPUs this process may see.
GpuProbe no_device(std::string why) {
  GpuProbe probe;
  const int listed = driver_listed_gpus();
  probe.lost = gpu_lost(listed, std::getenv("CUDA_VISIBLE_DEVICES"));
  probe.description = probe.lost ? why + ", yet the driver lists " + std::to_string(listed) +
                                       " GPU(s) (/proc/driver/nvidia/gpus): the GPU was lost or CUDA cannot reach it"
                                 : std::move(why);
  return probe;
}

}  // namespace

bool gpu_lost(int driver_gpus, const char* visible_devices) {
  if (driver_gpus == 0) return false;
  if (visible_devices == nullptr) return true;
  const std::string_view visible(visible_devices);
  return !visible.empty() && !visible.starts_with("-1");
}

GpuProbe probe_gpu() {
  if (simulated_loss()) return no_device("cudaGetDeviceCount: no device (simulated by KERNELS_SIMULATE_GPU_LOSS)");
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    return no_device(status != cudaSuccess ? std::string("cudaGetDeviceCount failed: ") + cudaGetErrorName(status) +
                                                 " (" + cudaGetErrorString(status) + ")"
                                           : std::string("cudaGetDeviceCount reports no device"));
  }
  cudaDeviceProp properties{};
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&properties, device) != cudaSuccess)
    return no_device("a device is reported but its properties cannot be read");
  // The context is made here, before any test: the driver makes a GPU's contexts one at a time,
  // so with 16 test processes starting together it takes about 2 s (0.2 s alone; measured on an
  // H100, 2026-11-25; bench/results/suite-timing.md in git history), and inside a watched step (a property whose
  // first call has an empty input makes no other CUDA call before its stream) the hang watchdog
  // took it for a hang.
  // A wait for the device sleeps until the device is done instead of spinning on a core: with 16
  // test processes on a GPU that runs one process's kernels at a time, each wait lasts the other
  // processes' turns (milliseconds). On the H100 the gpu preset's processes used 867 s of CPU
  // instead of 1670 s, in the same 133 s: its cores are left to whatever else the machine runs.
  if (const cudaError_t flags = cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync); flags != cudaSuccess)
    return no_device(std::string("the device's scheduling flags cannot be set: ") + cudaGetErrorName(flags));
  if (const cudaError_t made = cudaFree(nullptr); made != cudaSuccess) {
    return no_device(std::string("the device's context cannot be made: ") + cudaGetErrorName(made) + " (" +
                     cudaGetErrorString(made) + ")");
  }
  std::ostringstream text;
  text << properties.name << ", sm_" << properties.major << properties.minor << ", " << properties.multiProcessorCount
       << " SMs, " << (properties.totalGlobalMem >> 20) << " MiB";
  GpuProbe probe;
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
        " (write the resource specification with test/runtime/gpu-resource-spec.sh)");
  }
  setenv("CUDA_VISIBLE_DEVICES", gpu->c_str(), 1);
}

bool gpu_required() {
  const char* value = harness::suite_variable("KERNELS_REQUIRE_GPU");
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
