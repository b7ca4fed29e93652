// The test process's view of the GPU: whether there is one, and the stream tests run on.
#pragma once

#include <cuda_runtime_api.h>

#include <optional>
#include <string>
#include <string_view>

namespace harness {

struct GpuProbe {
  bool available = false;
  // No usable device, yet the driver lists GPUs this process may see: the GPU was lost (or CUDA
  // cannot reach it). A failure, never a skip.
  bool lost = false;
  std::string description;  // the device ("NVIDIA H100 80GB HBM3, sm_90, 132 SMs, 79.2 GiB"), or why there is none
};

// Asks the CUDA runtime for a device, and makes its context; never throws. Where it finds none,
// asks the driver (/proc/driver/nvidia/gpus) whether GPUs are there all the same (lost).
// KERNELS_SIMULATE_GPU_LOSS=<file>: the first probe of the run creates the file and goes on; every
// later one (the file exists) finds no device, as after a loss.
GpuProbe probe_gpu();

// Whether a process that finds no CUDA device has lost a GPU: the driver lists `driver_gpus`,
// and CUDA_VISIBLE_DEVICES (`visible_devices`, null if unset) does not hide them all ("" or a
// list starting with -1).
bool gpu_lost(int driver_gpus, const char* visible_devices);

// The GPU ctest gave this test under a resource specification, as CUDA_VISIBLE_DEVICES names it.
// The id in CTEST_RESOURCE_GROUP_0_GPUS ("id:1,slots:1") is an index into the GPUs ctest itself
// sees (test/runtime/gpu-resource-spec.sh numbers those): the entry at that index of `visible_devices`
// (ctest's CUDA_VISIBLE_DEVICES: "2,3" and id 1 give "3"), or the index itself when that is
// unset (null). Nothing when the allocation names no id, or one that is not such an index.
std::optional<std::string> ctest_assigned_gpu(std::string_view allocation, const char* visible_devices);

// Before the first CUDA call: if ctest assigned a GPU, make it the only one this process sees
// (CUDA_VISIBLE_DEVICES), so that tests spread over the GPUs of a machine. Every ctest run has
// a resource specification (the build folder declares one GPU, the first visible one); throws if
// the assigned id is not an index into the visible GPUs.
void use_ctest_assigned_gpu();

// KERNELS_REQUIRE_GPU=1: a missing device, or a GPU test that skips, is a failure.
bool gpu_required();

// A new non-blocking stream (a failure throws): each user keeps its own for the process.
cudaStream_t new_nonblocking_stream();

// A non-blocking stream, created on first use and shared by the process's tests.
cudaStream_t test_stream();

// Free device memory in bytes.
std::size_t free_device_memory();

}  // namespace harness
