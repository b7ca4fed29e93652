#include "harness/scan/scan_device_judge.hpp"

#include "harness/memory/device_buffer.hpp"
#include "harness/runner/gpu_session.hpp"

#include <kernels/errors.hpp>

namespace harness {
namespace {

// One block judges one chunk: the count of positions failing the check, and the first of them.
template <class T, class Step>
__global__ void judge_scan_chunks_kernel(Step step, bool inclusive, const ScanJudgeRun<T>* runs,
                                         const JudgeChunk* chunks, unsigned long long* verdicts) {
  const JudgeChunk chunk = chunks[blockIdx.x];
  const ScanJudgeRun<T> run = runs[chunk.run];
  const std::uint64_t end = chunk.begin + kJudgeChunk < run.n ? chunk.begin + kJudgeChunk : run.n;
  unsigned long long failing = 0;
  for (std::uint64_t i = chunk.begin + threadIdx.x; i < end; i += blockDim.x) {
    if (scan_output_holds(step, inclusive, run.in, run.out, i)) continue;
    if (failing++ == 0) atomicMin(&verdicts[2 * chunk.run + 1], static_cast<unsigned long long>(i));
  }
  if (failing != 0) atomicAdd(&verdicts[2 * chunk.run], failing);
}

}  // namespace

template <class T>
std::vector<DeviceVerdict> judge_scans_on_device(kernels::ScanKind kind, kernels::Op op,
                                                 const std::vector<ScanJudgeRun<T>>& runs) {
  std::vector<DeviceVerdict> verdicts(runs.size());
  if constexpr (!std::is_integral_v<T>) {
    throw std::logic_error("the device judge takes integer scans");
  } else {
    const std::vector<JudgeChunk> chunks = judge_chunks(runs);
    if (chunks.empty()) return verdicts;
    std::vector<unsigned long long> initial(2 * runs.size());
    for (std::size_t r = 0; r < runs.size(); ++r) initial[2 * r + 1] = kNoBadIndex;
    DeviceBuffer<unsigned long long> found{std::span<const unsigned long long>(initial)};
    const DeviceBuffer<ScanJudgeRun<T>> run_table{std::span<const ScanJudgeRun<T>>(runs)};
    const DeviceBuffer<JudgeChunk> chunk_table{std::span<const JudgeChunk>(chunks)};
    with_exact_step<T>(op, [&](auto step) {
      judge_scan_chunks_kernel<<<static_cast<unsigned>(chunks.size()), 256, 0, test_stream()>>>(
          step, kind == kernels::ScanKind::inclusive, run_table.data(), chunk_table.data(), found.data());
    });
    kernels::check_cuda(cudaGetLastError(), "launch of judge_scan_chunks_kernel");
    const std::vector<unsigned long long> counts = found.download();
    for (std::size_t r = 0; r < runs.size(); ++r) verdicts[r] = {counts[2 * r], counts[2 * r + 1]};
  }
  return verdicts;
}

#define HARNESS_INSTANTIATE_SCAN_DEVICE_JUDGE(key, T, out, label)                              \
  template std::vector<DeviceVerdict> judge_scans_on_device<T>(kernels::ScanKind, kernels::Op, \
                                                               const std::vector<ScanJudgeRun<T>>&);
KERNELS_FOR_EACH_SCAN_TYPE(HARNESS_INSTANTIATE_SCAN_DEVICE_JUDGE)
#undef HARNESS_INSTANTIATE_SCAN_DEVICE_JUDGE

}  // namespace harness
