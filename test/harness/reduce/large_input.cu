#include "harness/reduce/large_input.hpp"

#include "harness/core/device_buffer.hpp"

#include <kernels/errors.hpp>

#include <algorithm>
#include <future>
#include <thread>
#include <vector>

namespace harness {

namespace {

__global__ void fill_large_input_kernel(int* data, LargeInputSpec spec) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < spec.n; i += stride) {
    data[i] = large_input_value(spec, i);
  }
}

__global__ void fill_ints_kernel(int* data, std::uint64_t count, int value) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) data[i] = value;
}

__global__ void count_not_equal_kernel(const int* data, std::uint64_t count, int value,
                                       unsigned long long* differing) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  unsigned long long mine = 0;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    mine += data[i] != value;
  }
  if (mine != 0) atomicAdd(differing, mine);
}

}  // namespace

LargeInputSpec large_input_spec(std::uint64_t n, std::uint64_t seed) {
  const std::uint64_t past_2_31 = (1ull << 31) + 7;
  return {n, seed, n - 1, n > past_2_31 ? past_2_31 : n / 2};
}

void fill_large_input(int* data, const LargeInputSpec& spec, cudaStream_t stream) {
  fill_large_input_kernel<<<4096, 256, 0, stream>>>(data, spec);
  kernels::check_cuda(cudaGetLastError(), "launch of fill_large_input_kernel");
}

void fill_ints(int* data, std::uint64_t count, int value, cudaStream_t stream) {
  if (count == 0) return;
  fill_ints_kernel<<<256, 256, 0, stream>>>(data, count, value);
  kernels::check_cuda(cudaGetLastError(), "launch of fill_ints_kernel");
}

std::uint64_t count_not_equal(const int* data, std::uint64_t count, int value) {
  DeviceBuffer<unsigned long long> differing(1);
  differing.fill_bytes(0);
  if (count > 0) {
    count_not_equal_kernel<<<256, 256, 0, test_stream()>>>(data, count, value, differing.data());
    kernels::check_cuda(cudaGetLastError(), "launch of count_not_equal_kernel");
  }
  return differing.download()[0];
}

LargeInputFacts large_input_facts(const LargeInputSpec& spec) {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::future<LargeInputFacts>> parts;
  for (unsigned t = 0; t < threads; ++t) {
    parts.push_back(std::async(std::launch::async, [&spec, t, threads] {
      const std::uint64_t begin = spec.n * t / threads, end = spec.n * (t + 1) / threads;
      unsigned sum = 0;
      long long widened = 0;
      int max = INT_MIN, min = INT_MAX;
      for (std::uint64_t i = begin; i < end; ++i) {
        const int x = large_input_value(spec, i);
        sum += static_cast<unsigned>(x);
        widened += x;
        max = std::max(max, x);
        min = std::min(min, x);
      }
      return LargeInputFacts{static_cast<int>(sum), widened, max, min};
    }));
  }
  unsigned sum = 0;
  LargeInputFacts facts{0, 0, INT_MIN, INT_MAX};
  for (auto& part : parts) {
    const LargeInputFacts p = part.get();
    sum += static_cast<unsigned>(p.wrapped_sum);
    facts.widened_sum += p.widened_sum;
    facts.max = std::max(facts.max, p.max);
    facts.min = std::min(facts.min, p.min);
  }
  facts.wrapped_sum = static_cast<int>(sum);
  return facts;
}

}  // namespace harness
