#include "harness/memory/device_buffer.hpp"
#include "harness/memory/device_compare.hpp"
#include "harness/session/gpu_session.hpp"

#include <kernels/errors.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>

namespace harness {
namespace {

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

// Block row y compares region y: by 16-byte words where both its sides are 16-byte aligned (a
// batch's images are), else, and past the last whole word, byte by byte. first[pair] becomes the
// least offset of a differing byte: a thread stops at its first, the least of its own.
__global__ void first_difference_kernel(const RegionPair* regions, unsigned long long* first) {
  const RegionPair region = regions[blockIdx.y];
  const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const auto differs_from = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      if (region.a[i] != region.b[i]) {
        atomicMin(first + region.pair, static_cast<unsigned long long>(region.offset + i));
        return true;
      }
    }
    return false;
  };
  std::size_t whole_words = 0;
  if ((reinterpret_cast<std::uintptr_t>(region.a) | reinterpret_cast<std::uintptr_t>(region.b)) % sizeof(uint4) == 0) {
    whole_words = region.bytes / sizeof(uint4);
    const auto* a = reinterpret_cast<const uint4*>(region.a);
    const auto* b = reinterpret_cast<const uint4*>(region.b);
    for (std::size_t w = thread; w < whole_words; w += stride) {
      const uint4 x = a[w], y = b[w];
      if ((x.x != y.x || x.y != y.y || x.z != y.z || x.w != y.w) &&
          differs_from(w * sizeof(uint4), (w + 1) * sizeof(uint4)))
        break;
    }
  }
  for (std::size_t i = whole_words * sizeof(uint4) + thread; i < region.bytes; i += stride) {
    if (differs_from(i, i + 1)) break;
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
  return !first_differences_on_device({{{a, bytes}}}, {{{b, bytes}}}).front();
}

}  // namespace harness
