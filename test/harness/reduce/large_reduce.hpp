// The large cases of the reductions (core/large_case.hpp): sum, max or min of n ints, or their
// widening sum, from the generator of large_input.hpp; the input sits between guard bands that
// hold the op's poison, and the exact result is computed on the device from the generator.
#pragma once

#include "harness/core/large_case.hpp"

namespace harness {

std::size_t large_reduce_device_bytes(const kernels::VariantInfo& variant, const Case& c);
BatchReport run_large_reduce(const kernels::VariantInfo& variant, const Case& c);

inline constexpr LargeRunner kLargeReduce{large_reduce_device_bytes, run_large_reduce};

}  // namespace harness
