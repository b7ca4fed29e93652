#include "harness/sort/sort_large_device.hpp"

#include "harness/input/random_bits.hpp"
#include "harness/memory/device_buffer.hpp"
#include "harness/session/gpu_session.hpp"

#include <kernels/errors.hpp>

namespace harness {
namespace {

__device__ std::uint32_t key_class(const LargeSortSpec& spec, std::uint64_t i) {
  return static_cast<std::uint32_t>(random_bits(spec.seed, i) >> 48);
}

// The bits of the class's key, strictly increasing in the class in the order of the key type:
// `rank`, the class in the high half and a scramble of it in the low half (so the low digits vary
// too), is the key's rank in unsigned order; the key is the int or float of that rank.
__device__ std::uint32_t class_key(const LargeSortSpec& spec, std::uint32_t key_class) {
  const std::uint32_t rank = (key_class << 16) | ((key_class * 0x9e37u) & 0xffffu);
  if (spec.key_type == kernels::TypeKey::int32) return rank ^ 0x80000000u;  // the sign bit flipped
  // totalOrder: the upper half of the ranks are the non-negative floats' bits with the sign bit
  // set; the lower half are the negative floats' bits inverted (larger magnitudes rank lower).
  return (rank & 0x80000000u) != 0 ? rank & 0x7fffffffu : ~rank;
}

__global__ void fill_large_sort_input_kernel(std::uint32_t* keys, std::uint32_t* values, LargeSortSpec spec) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < spec.n; i += stride) {
    keys[i] = class_key(spec, key_class(spec, i));
    if (values != nullptr) values[i] = static_cast<std::uint32_t>(i);
  }
}

__global__ void count_key_classes_kernel(LargeSortSpec spec, unsigned long long* counts) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < spec.n; i += stride) {
    atomicAdd(&counts[key_class(spec, i)], 1ull);
  }
}

__device__ std::uint32_t class_at(const std::uint64_t* class_starts, std::uint64_t i) {
  std::uint32_t low = 0, high = kLargeKeyClasses;  // class_starts[low] <= i < class_starts[high]
  while (high - low > 1) {
    const std::uint32_t mid = (low + high) / 2;
    if (class_starts[mid] <= i)
      low = mid;
    else
      high = mid;
  }
  return low;
}

__global__ void check_large_sort_kernel(const std::uint32_t* keys_out, const std::uint32_t* values_out,
                                        LargeSortSpec spec, const std::uint64_t* class_starts,
                                        unsigned long long* verdict /* mismatches, first bad */) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  unsigned long long mismatches = 0;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < spec.n; i += stride) {
    const std::uint32_t expected_class = class_at(class_starts, i);
    bool right = keys_out[i] == class_key(spec, expected_class);
    if (values_out != nullptr) {
      const std::uint32_t index = values_out[i];
      right = right && index < spec.n && key_class(spec, index) == expected_class &&
              (i == class_starts[expected_class] || values_out[i - 1] < index);
    }
    if (!right) {
      ++mismatches;
      atomicMin(&verdict[1], static_cast<unsigned long long>(i));
    }
  }
  if (mismatches != 0) atomicAdd(&verdict[0], mismatches);
}

}  // namespace

void fill_large_sort_input(std::uint32_t* keys, std::uint32_t* values, const LargeSortSpec& spec, cudaStream_t stream) {
  fill_large_sort_input_kernel<<<4096, 256, 0, stream>>>(keys, values, spec);
  kernels::check_cuda(cudaGetLastError(), "launch of fill_large_sort_input_kernel");
}

std::vector<std::uint64_t> large_sort_class_starts(const LargeSortSpec& spec) {
  DeviceBuffer<unsigned long long> counts(kLargeKeyClasses);
  counts.fill_bytes(0);
  count_key_classes_kernel<<<4096, 256, 0, test_stream()>>>(spec, counts.data());
  kernels::check_cuda(cudaGetLastError(), "launch of count_key_classes_kernel");
  const std::vector<unsigned long long> class_counts = counts.download();
  std::vector<std::uint64_t> starts(kLargeKeyClasses + 1, 0);
  for (std::uint32_t c = 0; c < kLargeKeyClasses; ++c) starts[c + 1] = starts[c] + class_counts[c];
  return starts;
}

DeviceVerdict check_large_sort(const std::uint32_t* keys_out, const std::uint32_t* values_out,
                               const LargeSortSpec& spec, const std::vector<std::uint64_t>& class_starts) {
  const DeviceBuffer<std::uint64_t> starts{std::span<const std::uint64_t>(class_starts)};
  DeviceBuffer<unsigned long long> verdict(2);
  verdict.upload(std::vector<unsigned long long>{0, kNoBadIndex});
  check_large_sort_kernel<<<4096, 256, 0, test_stream()>>>(keys_out, values_out, spec, starts.data(), verdict.data());
  kernels::check_cuda(cudaGetLastError(), "launch of check_large_sort_kernel");
  const std::vector<unsigned long long> result = verdict.download();
  return {result[0], result[1]};
}

}  // namespace harness
