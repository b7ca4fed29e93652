// The CPU oracle of the scan family: every output checked, integers exactly (wrapping), floats
// each within the bound judge_float_sum (float_sum.hpp) gives for its prefix of |x| and the
// variant's accumulation depth. inclusive[i] sums in[0..i]; exclusive[0] is +0 and
// exclusive[i] sums in[0..i-1].
#pragma once

#include "harness/diagnosis/mismatches.hpp"

#include <kernels/types.hpp>

#include <cstdint>
#include <span>
#include <string>

namespace harness {

template <class T>
Mismatches judge_scan(kernels::ScanKind kind, std::span<const T> input, std::span<const T> got,
                      std::uint64_t accumulation_depth);

}  // namespace harness
