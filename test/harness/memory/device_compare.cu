#include "harness/memory/device_buffer.hpp"
#include "harness/memory/device_compare.hpp"
#include "harness/runner/gpu_session.hpp"

#include <kernels/errors.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

namespace harness {
namespace {

// Sets *differs when any 16-byte word (or trailing byte) of a and b differs.
__global__ void compare_kernel(const uint4* a, const uint4* b, std::size_t words, const unsigned char* a_tail,
                               const unsigned char* b_tail, std::size_t tail_bytes, unsigned* differs) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  bool found = false;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < words; i += stride) {
    const uint4 x = a[i], y = b[i];
    found |= x.x != y.x || x.y != y.y || x.z != y.z || x.w != y.w;
  }
  if (blockIdx.x == 0 && threadIdx.x < tail_bytes) found |= a_tail[threadIdx.x] != b_tail[threadIdx.x];
  if (__syncthreads_or(found) && threadIdx.x == 0) *differs = 1;
}

}  // namespace

bool same_bytes_on_device(const void* a, const void* b, std::size_t bytes) {
  if (bytes == 0) return true;
  constexpr unsigned kBlock = 256;
  const std::size_t words = bytes / 16;
  const unsigned grid = static_cast<unsigned>(std::clamp<std::size_t>((words + kBlock - 1) / kBlock, 1, 4096));
  DeviceBuffer<unsigned> differs(1);
  differs.fill_bytes(0);
  const auto* a_bytes = static_cast<const unsigned char*>(a);
  const auto* b_bytes = static_cast<const unsigned char*>(b);
  compare_kernel<<<grid, kBlock, 0, test_stream()>>>(static_cast<const uint4*>(a), static_cast<const uint4*>(b), words,
                                                     a_bytes + words * 16, b_bytes + words * 16, bytes % 16,
                                                     differs.data());
  kernels::check_cuda(cudaGetLastError(), "compare_kernel launch");
  return differs.download().front() == 0;
}

}  // namespace harness
