#include "harness/large/large_input.hpp"

#include "harness/memory/device_buffer.hpp"

#include <kernels/errors.hpp>

#include <climits>
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

__global__ void count_not_equal_kernel(const int* data, std::uint64_t count, int value, unsigned long long* differing) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  unsigned long long mine = 0;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    mine += data[i] != value;
  }
  if (mine != 0) atomicAdd(differing, mine);
}

// The facts of a large input, from the generator: each warp folds its threads' partial results
// and adds them in with one atomic each. Integer arithmetic throughout (sums modulo 2^64: the
// low 32 bits of the first are the int sum's wrap, the second is the exact sum, whose magnitude
// stays below 2^63), so the order in which partial results arrive does not matter.
__global__ void large_input_facts_kernel(LargeInputSpec spec, unsigned long long* sums /* low bits, widened */,
                                         int* extremes /* max, min */) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  unsigned long long sum = 0, widened = 0;
  int max = INT_MIN, min = INT_MAX;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < spec.n; i += stride) {
    const int x = large_input_value(spec, i);
    sum += static_cast<unsigned>(x);
    widened += static_cast<unsigned long long>(static_cast<long long>(x));
    max = ::max(max, x);
    min = ::min(min, x);
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
    widened += __shfl_down_sync(0xffffffffu, widened, offset);
    max = ::max(max, __shfl_down_sync(0xffffffffu, max, offset));
    min = ::min(min, __shfl_down_sync(0xffffffffu, min, offset));
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&sums[0], sum);
    atomicAdd(&sums[1], widened);
    atomicMax(&extremes[0], max);
    atomicMin(&extremes[1], min);
  }
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
  DeviceBuffer<unsigned long long> sums(2);
  sums.fill_bytes(0);
  DeviceBuffer<int> extremes(2);
  extremes.upload(std::vector<int>{INT_MIN, INT_MAX});
  large_input_facts_kernel<<<4096, 256, 0, test_stream()>>>(spec, sums.data(), extremes.data());
  kernels::check_cuda(cudaGetLastError(), "launch of large_input_facts_kernel");
  const std::vector<unsigned long long> totals = sums.download();
  const std::vector<int> bounds = extremes.download();
  return {static_cast<int>(static_cast<unsigned>(totals[0])), static_cast<long long>(totals[1]), bounds[0], bounds[1]};
}

}  // namespace harness
