// The device judge of reductions. Where the result is exact (every integer op, float max and
// min) it is each input's exact fold, computed on the device, which the batch compares with every
// run of that input. Sums wrap as the oracle's (each value taken to the output type, then added
// modulo 2^64: the widening sum of ints is exact, a sum in the input's own width wraps as the
// oracle's); float max and min fold as the oracle's (the first NaN, -0.0 below +0.0); every
// other op folds by its exact step (numeric/exact_step.hpp). The fold keeps operand order (each
// block folds a contiguous chunk, chunks fold in order, every tree pairs neighbours left to
// right), so non-commutative ops fold as the oracle does; all ops are associative, so the
// bracketing does not change the result. A float sum's facts (numeric/prefix_sum_facts.hpp)
// are folded the same way, and the oracle's rules judge each run against them.
#pragma once

#include "harness/numeric/prefix_sum_facts.hpp"

#include <kernels/types.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace harness {

template <class In>
struct ReduceJudgeInput {
  const In* in;
  std::uint64_t n;
};

// Whether the device computes the exact fold of `op` into Out (integer outputs: the sum, and
// every op with an exact step when In is Out; float max and min).
template <class In, class Out>
bool folds_on_device(kernels::Op op);

// The exact fold of each input, from two launches on the tests' stream; an empty input folds to
// the identity.
template <class In, class Out>
std::vector<Out> exact_folds_on_device(kernels::Op op, const std::vector<ReduceJudgeInput<In>>& inputs);

// The facts of each input's float sum, from two launches on the tests' stream.
template <class In>
std::vector<PrefixSumFacts> sum_facts_on_device(const std::vector<ReduceJudgeInput<In>>& inputs);

}  // namespace harness
