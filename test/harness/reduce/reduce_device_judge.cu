#include "harness/reduce/reduce_device_judge.hpp"

#include "harness/memory/device_buffer.hpp"
#include "harness/numeric/exact_step.hpp"
#include "harness/runner/device_verdict.hpp"
#include "harness/runner/gpu_session.hpp"

#include <kernels/errors.hpp>

#include <stdexcept>
#include <string>

namespace harness {
namespace {

constexpr unsigned kFoldThreads = 256;

// The block's fold of value(0), ..., value(count - 1) in that order: each thread folds a
// contiguous share, then neighbouring shares fold pairwise, the left operand first.
template <class T, class Step, class Value>
__device__ T block_fold_in_order(Step step, std::uint64_t count, Value value) {
  __shared__ T folded[kFoldThreads];
  const std::uint64_t share = (count + kFoldThreads - 1) / kFoldThreads;
  const std::uint64_t begin = threadIdx.x * share < count ? threadIdx.x * share : count;
  const std::uint64_t end = begin + share < count ? begin + share : count;
  T mine = Step::identity();
  for (std::uint64_t i = begin; i < end; ++i) mine = step(mine, value(i));
  folded[threadIdx.x] = mine;
  __syncthreads();
  for (unsigned stride = 1; stride < kFoldThreads; stride *= 2) {
    if (threadIdx.x % (2 * stride) == 0) folded[threadIdx.x] = step(folded[threadIdx.x], folded[threadIdx.x + stride]);
    __syncthreads();
  }
  return folded[0];
}

// Block c folds chunk c (up to kJudgeChunk values of one input).
template <class In, class Out, class Step>
__global__ void fold_chunks_kernel(Step step, const ReduceJudgeInput<In>* inputs, const JudgeChunk* chunks,
                                   Out* chunk_folds) {
  const JudgeChunk chunk = chunks[blockIdx.x];
  const ReduceJudgeInput<In> input = inputs[chunk.run];
  const std::uint64_t left = input.n - chunk.begin;
  const Out folded = block_fold_in_order<Out>(step, left < kJudgeChunk ? left : kJudgeChunk, [&](std::uint64_t i) {
    return static_cast<Out>(input.in[chunk.begin + i]);
  });
  if (threadIdx.x == 0) chunk_folds[blockIdx.x] = folded;
}

// Block i folds input i's chunks, chunk_folds[first_chunk[i], first_chunk[i + 1]).
template <class Out, class Step>
__global__ void fold_inputs_kernel(Step step, const std::uint64_t* first_chunk, const Out* chunk_folds, Out* folds) {
  const std::uint64_t begin = first_chunk[blockIdx.x], end = first_chunk[blockIdx.x + 1];
  const Out folded =
      block_fold_in_order<Out>(step, end - begin, [&](std::uint64_t i) { return chunk_folds[begin + i]; });
  if (threadIdx.x == 0) folds[blockIdx.x] = folded;
}

// Calls use(step) with the step the device folds `op` into Out by, if there is one.
template <class In, class Out, class Use>
bool visit_fold_step(kernels::Op op, Use&& use) {
  if constexpr (!std::is_integral_v<Out>) {
    return false;
  } else if constexpr (!std::is_same_v<In, Out>) {
    if (op != kernels::Op::sum) return false;  // a widening reduction is exact as a sum only
    use(WrappingSum<Out>{});
    return true;
  } else {
    return visit_exact_step<Out>(op, use);
  }
}

}  // namespace

template <class In, class Out>
bool folds_on_device(kernels::Op op) {
  return visit_fold_step<In, Out>(op, [](auto) {});
}

template <class In, class Out>
std::vector<Out> exact_folds_on_device(kernels::Op op, const std::vector<ReduceJudgeInput<In>>& inputs) {
  std::vector<Out> folds(inputs.size());
  if (inputs.empty()) return folds;
  const std::vector<JudgeChunk> chunks = judge_chunks(inputs);
  std::vector<std::uint64_t> first_chunk(inputs.size() + 1, 0);
  for (const JudgeChunk& chunk : chunks) ++first_chunk[chunk.run + 1];
  for (std::size_t i = 0; i < inputs.size(); ++i) first_chunk[i + 1] += first_chunk[i];
  const DeviceBuffer<ReduceJudgeInput<In>> input_table{std::span<const ReduceJudgeInput<In>>(inputs)};
  const DeviceBuffer<JudgeChunk> chunk_table{std::span<const JudgeChunk>(chunks)};
  const DeviceBuffer<std::uint64_t> first_chunk_table{std::span<const std::uint64_t>(first_chunk)};
  DeviceBuffer<Out> chunk_folds(chunks.empty() ? 1 : chunks.size());
  DeviceBuffer<Out> device_folds(inputs.size());
  const bool found = visit_fold_step<In, Out>(op, [&](auto step) {
    if (!chunks.empty()) {
      fold_chunks_kernel<<<static_cast<unsigned>(chunks.size()), kFoldThreads, 0, test_stream()>>>(
          step, input_table.data(), chunk_table.data(), chunk_folds.data());
      kernels::check_cuda(cudaGetLastError(), "launch of fold_chunks_kernel");
    }
    fold_inputs_kernel<<<static_cast<unsigned>(inputs.size()), kFoldThreads, 0, test_stream()>>>(
        step, first_chunk_table.data(), chunk_folds.data(), device_folds.data());
    kernels::check_cuda(cudaGetLastError(), "launch of fold_inputs_kernel");
  });
  if (!found) throw std::logic_error("the device judge has no exact fold of op " + std::string(kernels::name(op)));
  return device_folds.download();
}

#define HARNESS_INSTANTIATE_REDUCE_DEVICE_JUDGE(key, In, Out, label) \
  template bool folds_on_device<In, Out>(kernels::Op);               \
  template std::vector<Out> exact_folds_on_device<In, Out>(kernels::Op, const std::vector<ReduceJudgeInput<In>>&);
KERNELS_FOR_EACH_TYPE(HARNESS_INSTANTIATE_REDUCE_DEVICE_JUDGE)
#undef HARNESS_INSTANTIATE_REDUCE_DEVICE_JUDGE

}  // namespace harness
