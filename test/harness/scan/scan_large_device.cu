#include "harness/scan/scan_large_device.hpp"

#include "harness/memory/device_buffer.hpp"
#include "harness/session/gpu_session.hpp"

#include <kernels/errors.hpp>

#include <vector>

namespace harness {
namespace {

// The input term that output i adds to output i-1 (for i == 0: to the identity 0).
__device__ unsigned scan_step(const LargeInputSpec& spec, kernels::ScanKind kind, std::uint64_t i) {
  if (kind == kernels::ScanKind::inclusive) return static_cast<unsigned>(large_input_value(spec, i));
  return i == 0 ? 0u : static_cast<unsigned>(large_input_value(spec, i - 1));
}

__global__ void check_large_scan_kernel(const int* out, LargeInputSpec spec, kernels::ScanKind kind,
                                        unsigned long long* verdict /* mismatches, first bad */) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  unsigned long long mismatches = 0;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < spec.n; i += stride) {
    const unsigned previous = i == 0 ? 0u : static_cast<unsigned>(out[i - 1]);
    if (static_cast<unsigned>(out[i]) - previous != scan_step(spec, kind, i)) {
      ++mismatches;
      atomicMin(&verdict[1], static_cast<unsigned long long>(i));
    }
  }
  if (mismatches != 0) atomicAdd(&verdict[0], mismatches);
}

}  // namespace

DeviceVerdict check_large_scan(const int* out, const LargeInputSpec& spec, kernels::ScanKind kind) {
  DeviceBuffer<unsigned long long> verdict(2);
  verdict.upload(std::vector<unsigned long long>{0, kNoBadIndex});
  check_large_scan_kernel<<<4096, 256, 0, test_stream()>>>(out, spec, kind, verdict.data());
  kernels::check_cuda(cudaGetLastError(), "launch of check_large_scan_kernel");
  const std::vector<unsigned long long> result = verdict.download();
  return {result[0], result[1]};
}

}  // namespace harness
