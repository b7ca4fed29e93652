#include "harness/scan/scan_large_device.hpp"

#include "harness/memory/device_buffer.hpp"
#include "harness/session/gpu_session.hpp"

#include <kernels/errors.hpp>

#include <vector>

namespace harness {
namespace {

// op(earlier, later) on ints: the sum wraps; last_nonzero keeps the later unless it is 0. Both have identity 0.
__device__ int combine(kernels::Op op, int earlier, int later) {
  if (op == kernels::Op::last_nonzero) return later != 0 ? later : earlier;
  return static_cast<int>(static_cast<unsigned>(earlier) + static_cast<unsigned>(later));
}

// What output i must be, given output i-1: the op of it and the input term (for i == 0: of the identity).
__device__ int expected_at(const int* out, const LargeInputSpec& spec, kernels::ScanKind kind, kernels::Op op,
                           std::uint64_t i) {
  const int previous = i == 0 ? 0 : out[i - 1];
  if (kind == kernels::ScanKind::inclusive) return combine(op, previous, large_input_value(spec, i));
  return i == 0 ? 0 : combine(op, previous, large_input_value(spec, i - 1));
}

__global__ void check_large_scan_kernel(const int* out, LargeInputSpec spec, kernels::ScanKind kind, kernels::Op op,
                                        unsigned long long* verdict /* mismatches, first bad */) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  unsigned long long mismatches = 0;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < spec.n; i += stride) {
    if (out[i] != expected_at(out, spec, kind, op, i)) {
      ++mismatches;
      atomicMin(&verdict[1], static_cast<unsigned long long>(i));
    }
  }
  if (mismatches != 0) atomicAdd(&verdict[0], mismatches);
}

}  // namespace

DeviceVerdict check_large_scan(const int* out, const LargeInputSpec& spec, kernels::ScanKind kind, kernels::Op op) {
  DeviceBuffer<unsigned long long> verdict(2);
  verdict.upload(std::vector<unsigned long long>{0, kNoBadIndex});
  check_large_scan_kernel<<<4096, 256, 0, test_stream()>>>(out, spec, kind, op, verdict.data());
  kernels::check_cuda(cudaGetLastError(), "launch of check_large_scan_kernel");
  const std::vector<unsigned long long> result = verdict.download();
  return {result[0], result[1]};
}

}  // namespace harness
