// The CPU oracle of the scan family: every output checked, integers exactly, floats each within
// the bound judge_float_sum (float_sum.hpp) gives for its prefix of |x| and the variant's
// accumulation depth. inclusive[i] combines in[0..i] in order; exclusive[0] is the empty prefix
// (+0 for a sum, the op's identity otherwise) and exclusive[i] combines in[0..i-1]. Sums wrap;
// the other operators fold left to right by their references (numeric/ordered_fold.hpp).
#pragma once

#include "harness/diagnosis/mismatches.hpp"

#include <kernels/types.hpp>

#include <cstdint>
#include <span>
#include <string>

namespace harness {

// positive_zero: the variant declares +0.0 for a float sum of zeros (kernels::ZeroSum::positive).
template <class T>
Mismatches judge_scan(kernels::ScanKind kind, kernels::Op op, std::span<const T> input, std::span<const T> got,
                      std::uint64_t accumulation_depth, bool positive_zero = false);

}  // namespace harness
