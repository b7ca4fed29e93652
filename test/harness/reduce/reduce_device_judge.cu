#include "harness/reduce/reduce_device_judge.hpp"

#include "harness/memory/device_buffer.hpp"
#include "harness/numeric/element_traits.hpp"
#include "harness/numeric/exact_step.hpp"
#include "harness/runner/device_verdict.hpp"
#include "harness/session/gpu_session.hpp"

#include <kernels/errors.hpp>

#include <stdexcept>
#include <string>

namespace harness {
namespace {

constexpr unsigned kFoldThreads = 256;

// What the device folds, and how: a Fold has the carrier of a partial fold (Folded), its
// identity, the step joining two neighbouring partial folds, the left one first, and the partial
// fold of one input value (lift).
template <class Fold>
using folded_t = decltype(Fold::identity());

// An exact step of Out (numeric/exact_step.hpp) over the input's values taken to Out.
template <class Out, class Step>
struct StepFold {
  Step step;
  HARNESS_HOST_DEVICE static Out identity() { return Step::identity(); }
  HARNESS_HOST_DEVICE Out operator()(Out a, Out b) const { return step(a, b); }
  template <class In>
  HARNESS_HOST_DEVICE static Out lift(In x) {
    return static_cast<Out>(x);
  }
};

// Float max or min as the oracle folds them: the first NaN, else the largest (smallest) value
// with -0.0 below +0.0, the first of equal ones. No value has a partial fold of its own, the
// identity: the empty input's result (lowest() or max()) is not one for -inf (+inf).
template <class T, bool Max>
struct FloatExtremeFold {
  // `any` is as wide as the value, so that the struct has no padding: a fold copied to the host
  // would carry padding bytes never written, which compute-sanitizer's initcheck reports.
  struct Folded {
    T value;
    bits_t<T> any;
  };
  HARNESS_HOST_DEVICE static Folded identity() { return {T{}, 0}; }
  HARNESS_HOST_DEVICE Folded operator()(Folded a, Folded b) const {
    if (!a.any || cuda::std::isnan(a.value)) return b.any && !a.any ? b : a;
    if (!b.any || cuda::std::isnan(b.value)) return b.any ? b : a;
    const bool a_negative = cuda::std::signbit(a.value), b_negative = cuda::std::signbit(b.value);
    const bool better = Max ? (b.value > a.value || (b.value == a.value && a_negative && !b_negative))
                            : (b.value < a.value || (b.value == a.value && !a_negative && b_negative));
    return better ? b : a;
  }
  HARNESS_HOST_DEVICE static Folded lift(T x) { return {x, 1}; }
};

// The facts of a float sum (numeric/prefix_sum_facts.hpp).
struct SumFactsFold {
  HARNESS_HOST_DEVICE static PrefixSumFacts identity() { return {}; }
  HARNESS_HOST_DEVICE PrefixSumFacts operator()(const PrefixSumFacts& a, const PrefixSumFacts& b) const {
    return PrefixSumFacts::combine(a, b);
  }
  template <class In>
  __device__ static PrefixSumFacts lift(In x) {
    PrefixSumFacts facts;
    if constexpr (sizeof(In) == 2) {
      facts.add(static_cast<double>(static_cast<float>(x)));
    } else {
      facts.add(static_cast<double>(x));
    }
    return facts;
  }
};

// The block's fold of value(0), ..., value(count - 1) in that order: each thread folds a
// contiguous share, then neighbouring shares fold pairwise, the left operand first. The shared
// array is raw storage: a __shared__ array cannot have a constructor.
template <class Fold, class Value>
__device__ folded_t<Fold> block_fold_in_order(Fold fold, std::uint64_t count, Value value) {
  using Folded = folded_t<Fold>;
  __shared__ alignas(Folded) unsigned char storage[sizeof(Folded) * kFoldThreads];
  auto* const folded = reinterpret_cast<Folded*>(storage);
  const std::uint64_t share = (count + kFoldThreads - 1) / kFoldThreads;
  const std::uint64_t begin = threadIdx.x * share < count ? threadIdx.x * share : count;
  const std::uint64_t end = begin + share < count ? begin + share : count;
  Folded mine = Fold::identity();
  for (std::uint64_t i = begin; i < end; ++i) mine = fold(mine, value(i));
  folded[threadIdx.x] = mine;
  __syncthreads();
  for (unsigned stride = 1; stride < kFoldThreads; stride *= 2) {
    if (threadIdx.x % (2 * stride) == 0) folded[threadIdx.x] = fold(folded[threadIdx.x], folded[threadIdx.x + stride]);
    __syncthreads();
  }
  return folded[0];
}

// Block c folds chunk c (up to kJudgeChunk values of one input).
template <class In, class Fold>
__global__ void fold_chunks_kernel(Fold fold, const ReduceJudgeInput<In>* inputs, const JudgeChunk* chunks,
                                   folded_t<Fold>* chunk_folds) {
  const JudgeChunk chunk = chunks[blockIdx.x];
  const ReduceJudgeInput<In> input = inputs[chunk.run];
  const std::uint64_t left = input.n - chunk.begin;
  const folded_t<Fold> folded =
      block_fold_in_order(fold, left < kJudgeChunk ? left : kJudgeChunk,
                          [&](std::uint64_t i) { return Fold::lift(input.in[chunk.begin + i]); });
  if (threadIdx.x == 0) chunk_folds[blockIdx.x] = folded;
}

// Block i folds input i's chunks, chunk_folds[first_chunk[i], first_chunk[i + 1]).
template <class Fold>
__global__ void fold_inputs_kernel(Fold fold, const std::uint64_t* first_chunk, const folded_t<Fold>* chunk_folds,
                                   folded_t<Fold>* folds) {
  const std::uint64_t begin = first_chunk[blockIdx.x], end = first_chunk[blockIdx.x + 1];
  const folded_t<Fold> folded =
      block_fold_in_order(fold, end - begin, [&](std::uint64_t i) { return chunk_folds[begin + i]; });
  if (threadIdx.x == 0) folds[blockIdx.x] = folded;
}

// Each input's fold, from two launches on the tests' stream; an empty input folds to the identity.
template <class In, class Fold>
std::vector<folded_t<Fold>> fold_on_device(Fold fold, const std::vector<ReduceJudgeInput<In>>& inputs) {
  using Folded = folded_t<Fold>;
  if (inputs.empty()) return {};
  const std::vector<JudgeChunk> chunks = judge_chunks(inputs);
  std::vector<std::uint64_t> first_chunk(inputs.size() + 1, 0);
  for (const JudgeChunk& chunk : chunks) ++first_chunk[chunk.run + 1];
  for (std::size_t i = 0; i < inputs.size(); ++i) first_chunk[i + 1] += first_chunk[i];
  const DeviceBuffer<ReduceJudgeInput<In>> input_table{std::span<const ReduceJudgeInput<In>>(inputs)};
  const DeviceBuffer<JudgeChunk> chunk_table{std::span<const JudgeChunk>(chunks)};
  const DeviceBuffer<std::uint64_t> first_chunk_table{std::span<const std::uint64_t>(first_chunk)};
  DeviceBuffer<Folded> chunk_folds(chunks.empty() ? 1 : chunks.size());
  DeviceBuffer<Folded> device_folds(inputs.size());
  if (!chunks.empty()) {
    fold_chunks_kernel<<<static_cast<unsigned>(chunks.size()), kFoldThreads, 0, test_stream()>>>(
        fold, input_table.data(), chunk_table.data(), chunk_folds.data());
    kernels::check_cuda(cudaGetLastError(), "launch of fold_chunks_kernel");
  }
  fold_inputs_kernel<<<static_cast<unsigned>(inputs.size()), kFoldThreads, 0, test_stream()>>>(
      fold, first_chunk_table.data(), chunk_folds.data(), device_folds.data());
  kernels::check_cuda(cudaGetLastError(), "launch of fold_inputs_kernel");
  return device_folds.download();
}

// Calls use(fold, result) with the fold the device folds `op` into Out by, if there is one, and
// the function taking its carrier to the result.
template <class In, class Out, class Use>
bool visit_fold(kernels::Op op, Use&& use) {
  const auto as_is = [](Out folded) { return folded; };
  if constexpr (is_float_v<Out>) {
    if constexpr (std::is_same_v<In, Out>) {
      const auto extreme = [&]<bool Max>() {
        use(FloatExtremeFold<Out, Max>{}, [](typename FloatExtremeFold<Out, Max>::Folded folded) {
          return folded.any ? folded.value : (Max ? limits<Out>::lowest() : limits<Out>::max());
        });
      };
      if (op == kernels::Op::max) return extreme.template operator()<true>(), true;
      if (op == kernels::Op::min) return extreme.template operator()<false>(), true;
    }
    return false;
  } else if constexpr (!std::is_same_v<In, Out>) {
    if (op != kernels::Op::sum) return false;  // a widening reduction is exact as a sum only
    use(StepFold<Out, WrappingSum<Out>>{}, as_is);
    return true;
  } else {
    return visit_exact_step<Out>(op, [&](auto step) { use(StepFold<Out, decltype(step)>{step}, as_is); });
  }
}

}  // namespace

template <class In, class Out>
bool folds_on_device(kernels::Op op) {
  return visit_fold<In, Out>(op, [](auto, auto) {});
}

template <class In, class Out>
std::vector<Out> exact_folds_on_device(kernels::Op op, const std::vector<ReduceJudgeInput<In>>& inputs) {
  std::vector<Out> folds;
  const bool found = visit_fold<In, Out>(op, [&](auto fold, auto result) {
    for (const auto& folded : fold_on_device(fold, inputs)) folds.push_back(result(folded));
  });
  if (!found) throw std::logic_error("the device judge has no exact fold of op " + std::string(kernels::name(op)));
  return folds;
}

template <class In>
std::vector<PrefixSumFacts> sum_facts_on_device(const std::vector<ReduceJudgeInput<In>>& inputs) {
  if constexpr (!is_float_v<In>) {
    throw std::logic_error("the device makes the facts of float sums");
  } else {
    return fold_on_device(SumFactsFold{}, inputs);
  }
}

#define HARNESS_INSTANTIATE_REDUCE_DEVICE_JUDGE(key, In, Out, label) \
  template bool folds_on_device<In, Out>(kernels::Op);               \
  template std::vector<Out> exact_folds_on_device<In, Out>(kernels::Op, const std::vector<ReduceJudgeInput<In>>&);
KERNELS_FOR_EACH_TYPE(HARNESS_INSTANTIATE_REDUCE_DEVICE_JUDGE)
#undef HARNESS_INSTANTIATE_REDUCE_DEVICE_JUDGE

#define HARNESS_INSTANTIATE_SUM_FACTS(key, In, out, label) \
  template std::vector<PrefixSumFacts> sum_facts_on_device<In>(const std::vector<ReduceJudgeInput<In>>&);
KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_INSTANTIATE_SUM_FACTS)
#undef HARNESS_INSTANTIATE_SUM_FACTS

}  // namespace harness
