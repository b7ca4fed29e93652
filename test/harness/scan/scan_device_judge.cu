#include "harness/scan/scan_device_judge.hpp"

#include "harness/memory/device_buffer.hpp"
#include "harness/numeric/element_traits.hpp"
#include "harness/numeric/prefix_sum_facts.hpp"
#include "harness/session/gpu_session.hpp"

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

// The float judge's blocks: each thread takes kPerThread consecutive positions of a chunk.
constexpr unsigned kFloatJudgeThreads = 256;
constexpr unsigned kPerThread = kJudgeChunk / kFloatJudgeThreads;

template <class T>
__device__ double to_double(T value) {
  if constexpr (sizeof(T) == 2) {
    return static_cast<double>(static_cast<float>(value));
  } else {
    return static_cast<double>(value);
  }
}

// The facts of the positions before each thread's in the block, in order (Kogge-Stone over the
// threads' own facts); `shared` (raw storage: a __shared__ array cannot have a constructor) then
// holds each thread's inclusive facts, the last thread's being the chunk's.
__device__ PrefixSumFacts facts_before_thread(PrefixSumFacts mine, PrefixSumFacts* shared) {
  const unsigned t = threadIdx.x;
  shared[t] = mine;
  __syncthreads();
  for (unsigned offset = 1; offset < blockDim.x; offset *= 2) {
    const PrefixSumFacts before = t >= offset ? shared[t - offset] : PrefixSumFacts{};
    __syncthreads();
    if (t >= offset) shared[t] = PrefixSumFacts::combine(before, shared[t]);
    __syncthreads();
  }
  return t == 0 ? PrefixSumFacts{} : shared[t - 1];
}

// The facts of a thread's own positions of a chunk, from none.
template <class T>
__device__ PrefixSumFacts thread_facts(const FloatScanJudgeRun<T>& run, std::uint64_t first) {
  PrefixSumFacts facts;
  for (unsigned k = 0; k < kPerThread && first + k < run.n; ++k) facts.add(to_double(run.in[first + k]));
  return facts;
}

template <class T>
__global__ void chunk_facts_kernel(const FloatScanJudgeRun<T>* runs, const JudgeChunk* chunks,
                                   PrefixSumFacts* chunk_facts) {
  __shared__ alignas(PrefixSumFacts) unsigned char storage[sizeof(PrefixSumFacts) * kFloatJudgeThreads];
  auto* const shared = reinterpret_cast<PrefixSumFacts*>(storage);
  const JudgeChunk chunk = chunks[blockIdx.x];
  facts_before_thread(thread_facts(runs[chunk.run], chunk.begin + threadIdx.x * kPerThread), shared);
  if (threadIdx.x == blockDim.x - 1) chunk_facts[blockIdx.x] = shared[threadIdx.x];
}

// Each run's chunks in order (one thread a run): the facts of everything before each chunk.
__global__ void chunk_carries_kernel(const std::uint64_t* first_chunk, std::size_t runs,
                                     PrefixSumFacts* facts_then_carries) {
  const std::size_t run = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (run >= runs) return;
  PrefixSumFacts carry;
  for (std::uint64_t c = first_chunk[run]; c < first_chunk[run + 1]; ++c) {
    const PrefixSumFacts chunk = facts_then_carries[c];
    facts_then_carries[c] = carry;
    carry = PrefixSumFacts::combine(carry, chunk);
  }
}

// found: per run, the count of failing positions, the first of them, and whether any prefix left
// the doubles.
template <class T>
__global__ void judge_float_chunks_kernel(bool inclusive, double max_finite, const FloatScanJudgeRun<T>* runs,
                                          const JudgeChunk* chunks, const PrefixSumFacts* carries,
                                          unsigned long long* found) {
  __shared__ alignas(PrefixSumFacts) unsigned char storage[sizeof(PrefixSumFacts) * kFloatJudgeThreads];
  auto* const shared = reinterpret_cast<PrefixSumFacts*>(storage);
  const JudgeChunk chunk = chunks[blockIdx.x];
  const FloatScanJudgeRun<T> run = runs[chunk.run];
  const std::uint64_t first = chunk.begin + threadIdx.x * kPerThread;
  PrefixSumFacts facts =
      PrefixSumFacts::combine(carries[blockIdx.x], facts_before_thread(thread_facts(run, first), shared));
  unsigned long long failing = 0;
  for (std::uint64_t i = first; i < first + kPerThread && i < run.n; ++i) {
    const double x = to_double(run.in[i]);
    if (inclusive) facts.add(x);
    if (!facts.judged_by_oracle() &&
        !prefix_sum_acceptable(facts, to_double(run.out[i]), run.gamma, max_finite, run.positive_zero) &&
        failing++ == 0) {
      atomicMin(&found[3 * chunk.run + 1], static_cast<unsigned long long>(i));
    }
    if (!inclusive) facts.add(x);
  }
  if (failing != 0) atomicAdd(&found[3 * chunk.run], failing);
  if (facts.judged_by_oracle()) found[3 * chunk.run + 2] = 1;
}

}  // namespace

template <class T>
std::vector<DeviceVerdict> judge_float_scans_on_device(kernels::ScanKind kind,
                                                       const std::vector<FloatScanJudgeRun<T>>& runs) {
  std::vector<DeviceVerdict> verdicts(runs.size());
  if constexpr (!is_float_v<T>) {
    throw std::logic_error("the float judge takes float scans");
  } else {
    const std::vector<JudgeChunk> chunks = judge_chunks(runs);
    if (chunks.empty()) return verdicts;
    std::vector<std::uint64_t> first_chunk(runs.size() + 1, 0);
    for (const JudgeChunk& chunk : chunks) ++first_chunk[chunk.run + 1];
    for (std::size_t r = 0; r < runs.size(); ++r) first_chunk[r + 1] += first_chunk[r];
    std::vector<unsigned long long> initial(3 * runs.size());
    for (std::size_t r = 0; r < runs.size(); ++r) initial[3 * r + 1] = kNoBadIndex;
    DeviceBuffer<unsigned long long> found{std::span<const unsigned long long>(initial)};
    const DeviceBuffer<FloatScanJudgeRun<T>> run_table{std::span<const FloatScanJudgeRun<T>>(runs)};
    const DeviceBuffer<JudgeChunk> chunk_table{std::span<const JudgeChunk>(chunks)};
    const DeviceBuffer<std::uint64_t> first_chunks{std::span<const std::uint64_t>(first_chunk)};
    DeviceBuffer<PrefixSumFacts> carries(chunks.size());
    const auto blocks = static_cast<unsigned>(chunks.size());
    chunk_facts_kernel<<<blocks, kFloatJudgeThreads, 0, test_stream()>>>(run_table.data(), chunk_table.data(),
                                                                         carries.data());
    kernels::check_cuda(cudaGetLastError(), "launch of chunk_facts_kernel");
    chunk_carries_kernel<<<static_cast<unsigned>((runs.size() + 127) / 128), 128, 0, test_stream()>>>(
        first_chunks.data(), runs.size(), carries.data());
    kernels::check_cuda(cudaGetLastError(), "launch of chunk_carries_kernel");
    judge_float_chunks_kernel<<<blocks, kFloatJudgeThreads, 0, test_stream()>>>(
        kind == kernels::ScanKind::inclusive, as_double(limits<T>::max()), run_table.data(), chunk_table.data(),
        carries.data(), found.data());
    kernels::check_cuda(cudaGetLastError(), "launch of judge_float_chunks_kernel");
    const std::vector<unsigned long long> counts = found.download();
    for (std::size_t r = 0; r < runs.size(); ++r)
      verdicts[r] = {counts[3 * r], counts[3 * r + 1], counts[3 * r + 2] != 0};
  }
  return verdicts;
}

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

#define HARNESS_INSTANTIATE_SCAN_DEVICE_JUDGE(key, T, out, label)                                    \
  template std::vector<DeviceVerdict> judge_scans_on_device<T>(kernels::ScanKind, kernels::Op,       \
                                                               const std::vector<ScanJudgeRun<T>>&); \
  template std::vector<DeviceVerdict> judge_float_scans_on_device<T>(kernels::ScanKind,              \
                                                                     const std::vector<FloatScanJudgeRun<T>>&);
KERNELS_FOR_EACH_SCAN_TYPE(HARNESS_INSTANTIATE_SCAN_DEVICE_JUDGE)
#undef HARNESS_INSTANTIATE_SCAN_DEVICE_JUDGE

}  // namespace harness
