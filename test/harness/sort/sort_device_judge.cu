#include "harness/sort/sort_device_judge.hpp"

#include "harness/input/random_bits.hpp"
#include "harness/memory/device_buffer.hpp"
#include "harness/session/gpu_session.hpp"

#include <kernels/errors.hpp>
#include <kernels/types.hpp>

namespace harness {
namespace {

// Per run: failing positions, the first of them, and the keys form's four fingerprint sums (two
// hashes of the input's keys, then of the output's).
constexpr std::size_t kWordsPerRun = 6;

template <class K>
__device__ void add_fingerprint(K in, K out, unsigned long long (&sums)[4]) {
  const std::uint64_t a = cuda::std::bit_cast<bits_t<K>>(in), b = cuda::std::bit_cast<bits_t<K>>(out);
  sums[0] += mix64(a);
  sums[1] += mix64(a ^ 0x2545f4914f6cdd1dull);
  sums[2] += mix64(b);
  sums[3] += mix64(b ^ 0x2545f4914f6cdd1dull);
}

template <class K>
__global__ void judge_sort_chunks_kernel(const SortJudgeRun<K>* runs, const JudgeChunk* chunks,
                                         unsigned long long* found) {
  const JudgeChunk chunk = chunks[blockIdx.x];
  const SortJudgeRun<K> run = runs[chunk.run];
  unsigned long long* verdict = found + kWordsPerRun * chunk.run;
  const std::uint64_t end = chunk.begin + kJudgeChunk < run.n ? chunk.begin + kJudgeChunk : run.n;
  unsigned long long failing = 0, first = kNoBadIndex, sums[4] = {0, 0, 0, 0};
  for (std::uint64_t i = chunk.begin + threadIdx.x; i < end; i += blockDim.x) {
    if (run.values_out == nullptr) add_fingerprint(run.keys_in[i], run.keys_out[i], sums);
    if (!sort_position_holds(run, i) && failing++ == 0) first = i;
  }
  if (failing != 0) {
    atomicAdd(&verdict[0], failing);
    atomicMin(&verdict[1], first);
  }
  if (run.values_out == nullptr) {
    for (int k = 0; k < 4; ++k) atomicAdd(&verdict[2 + k], sums[k]);
  }
}

}  // namespace

template <class K>
std::vector<DeviceVerdict> judge_sorts_on_device(const std::vector<SortJudgeRun<K>>& runs) {
  std::vector<DeviceVerdict> verdicts(runs.size());
  const std::vector<JudgeChunk> chunks = judge_chunks(runs);
  if (chunks.empty()) return verdicts;
  std::vector<unsigned long long> initial(kWordsPerRun * runs.size(), 0);
  for (std::size_t r = 0; r < runs.size(); ++r) initial[kWordsPerRun * r + 1] = kNoBadIndex;
  DeviceBuffer<unsigned long long> found{std::span<const unsigned long long>(initial)};
  const DeviceBuffer<SortJudgeRun<K>> run_table{std::span<const SortJudgeRun<K>>(runs)};
  const DeviceBuffer<JudgeChunk> chunk_table{std::span<const JudgeChunk>(chunks)};
  judge_sort_chunks_kernel<K><<<static_cast<unsigned>(chunks.size()), 256, 0, test_stream()>>>(
      run_table.data(), chunk_table.data(), found.data());
  kernels::check_cuda(cudaGetLastError(), "launch of judge_sort_chunks_kernel");
  const std::vector<unsigned long long> words = found.download();
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const unsigned long long* w = words.data() + kWordsPerRun * r;
    verdicts[r] = {w[0], w[1]};
    if (runs[r].values_out == nullptr && (w[2] != w[4] || w[3] != w[5])) ++verdicts[r].mismatches;
  }
  return verdicts;
}

#define HARNESS_INSTANTIATE_SORT_DEVICE_JUDGE(key, K, out, label) \
  template std::vector<DeviceVerdict> judge_sorts_on_device<K>(const std::vector<SortJudgeRun<K>>&);
KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_INSTANTIATE_SORT_DEVICE_JUDGE)
#undef HARNESS_INSTANTIATE_SORT_DEVICE_JUDGE

}  // namespace harness
