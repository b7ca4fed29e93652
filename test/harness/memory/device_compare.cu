#include "harness/memory/device_buffer.hpp"
#include "harness/memory/device_compare.hpp"
#include "harness/runner/gpu_session.hpp"

#include <kernels/errors.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>

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

// One region of a pair of outputs: `bytes` bytes at a and b, which start `offset` bytes into the
// pair's outputs.
struct RegionPair {
  const unsigned char* a;
  const unsigned char* b;
  std::size_t bytes;
  std::size_t offset;
  std::size_t pair;
};

constexpr unsigned long long kNoDifference = std::numeric_limits<unsigned long long>::max();

// Block row y compares region y; first[pair] becomes the least offset of a differing byte.
__global__ void first_difference_kernel(const RegionPair* regions, unsigned long long* first) {
  const RegionPair region = regions[blockIdx.y];
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < region.bytes; i += stride) {
    if (region.a[i] != region.b[i]) {
      atomicMin(first + region.pair, static_cast<unsigned long long>(region.offset + i));
      break;
    }
  }
}

}  // namespace

std::vector<std::optional<std::size_t>> first_differences_on_device(
    const std::vector<std::vector<DeviceBytes>>& firsts, const std::vector<std::vector<DeviceBytes>>& seconds) {
  if (firsts.size() != seconds.size()) throw std::logic_error("first_differences_on_device: unpaired outputs");
  std::vector<RegionPair> regions;
  std::size_t longest = 0;
  for (std::size_t k = 0; k < firsts.size(); ++k) {
    if (firsts[k].size() != seconds[k].size()) throw std::logic_error("first_differences_on_device: unpaired regions");
    std::size_t offset = 0;
    for (std::size_t j = 0; j < firsts[k].size(); ++j) {
      const DeviceBytes a = firsts[k][j], b = seconds[k][j];
      if (a.bytes != b.bytes) throw std::logic_error("first_differences_on_device: regions of different sizes");
      if (a.bytes > 0) {
        regions.push_back(
            {static_cast<const unsigned char*>(a.data), static_cast<const unsigned char*>(b.data), a.bytes, offset, k});
      }
      offset += a.bytes;
      longest = std::max(longest, a.bytes);
    }
  }
  std::vector<std::optional<std::size_t>> answers(firsts.size());
  if (regions.empty()) return answers;
  constexpr unsigned kBlock = 256;
  const auto blocks = static_cast<unsigned>(std::clamp<std::size_t>((longest + kBlock - 1) / kBlock, 1, 1024));
  const DeviceBuffer<RegionPair> on_device{std::span<const RegionPair>(regions)};
  DeviceBuffer<unsigned long long> first(firsts.size());
  first.fill_bytes(0xff);
  for (std::size_t begin = 0; begin < regions.size(); begin += 65535) {  // at most 65535 rows a grid
    const auto rows = static_cast<unsigned>(std::min<std::size_t>(65535, regions.size() - begin));
    first_difference_kernel<<<dim3(blocks, rows), kBlock, 0, test_stream()>>>(on_device.data() + begin, first.data());
    kernels::check_cuda(cudaGetLastError(), "first_difference_kernel launch");
  }
  const std::vector<unsigned long long> found = first.download();
  for (std::size_t k = 0; k < found.size(); ++k) {
    if (found[k] != kNoDifference) answers[k] = static_cast<std::size_t>(found[k]);
  }
  return answers;
}

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
