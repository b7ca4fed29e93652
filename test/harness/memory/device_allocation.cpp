#include "harness/memory/device_allocation.hpp"

#include "harness/memory/buffer_layout.hpp"
#include "harness/session/gpu_session.hpp"

#include <kernels/errors.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>

namespace harness {
namespace {

// The current device's default pool, told once to keep everything freed into it (by default it
// gives memory back to the device at every synchronisation).
cudaMemPool_t keeping_pool() {
  static const cudaMemPool_t pool = [] {
    int device = 0;
    kernels::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    cudaMemPool_t made = nullptr;
    kernels::check_cuda(cudaDeviceGetDefaultMemPool(&made, device), "cudaDeviceGetDefaultMemPool");
    std::uint64_t keep_all = UINT64_MAX;
    kernels::check_cuda(cudaMemPoolSetAttribute(made, cudaMemPoolAttrReleaseThreshold, &keep_all),
                        "cudaMemPoolSetAttribute (release threshold)");
    return made;
  }();
  return pool;
}

}  // namespace

void* allocate_device_bytes(std::size_t bytes) {
  void* memory = nullptr;
  if (exact_size_buffers()) {
    kernels::check_cuda(cudaMalloc(&memory, bytes), "cudaMalloc (test buffer)");
  } else {
    kernels::check_cuda(cudaMallocFromPoolAsync(&memory, bytes, keeping_pool(), test_stream()),
                        "cudaMallocFromPoolAsync (test buffer)");
  }
  return memory;
}

void release_device_bytes(void* memory) noexcept {
  if (exact_size_buffers()) {
    cudaFree(memory);
  } else {
    cudaFreeAsync(memory, test_stream());
  }
}

void release_pooled_device_memory() {
  if (exact_size_buffers()) return;
  kernels::check_cuda(cudaStreamSynchronize(test_stream()), "cudaStreamSynchronize (before trimming the pool)");
  kernels::check_cuda(cudaMemPoolTrimTo(keeping_pool(), 0), "cudaMemPoolTrimTo");
}

}  // namespace harness
