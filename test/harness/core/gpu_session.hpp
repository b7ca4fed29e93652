// The test process's view of the GPU: whether there is one, and the stream tests run on.
#pragma once

#include <cuda_runtime_api.h>

#include <optional>
#include <string>
#include <string_view>

namespace harness {

struct GpuProbe {
  bool available = false;
  std::string description;  // the device ("NVIDIA H100 80GB HBM3, sm_90, 132 SMs, 79.2 GiB"), or why there is none
};

// Asks the CUDA runtime for a device; never throws.
GpuProbe probe_gpu();

// The GPU ctest gave this test under a resource specification: the id in
// CTEST_RESOURCE_GROUP_0_GPUS ("id:3,slots:1" gives "3"), or nothing.
std::optional<std::string> ctest_assigned_gpu(std::string_view allocation);

// Before the first CUDA call: if ctest assigned a GPU, make it the only one this process sees
// (CUDA_VISIBLE_DEVICES), so that tests spread over the GPUs of a machine.
void use_ctest_assigned_gpu();

// KERNELS_REQUIRE_GPU=1: a missing device, or a GPU test that skips, is a failure.
bool gpu_required();

// A non-blocking stream, created on first use and shared by the process's tests.
cudaStream_t test_stream();

// Free device memory in bytes.
std::size_t free_device_memory();

}  // namespace harness
