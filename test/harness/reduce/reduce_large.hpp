// The large cases of the reductions (large/large_case.hpp): sum, max or min of n ints, or their
// widening sum, from the generator of large_input.hpp; the input sits between guard bands that
// hold the op's poison, and the exact result is computed on the device from the generator.
#pragma once

#include "harness/large/large_case.hpp"

namespace harness {

extern const LargeRunner kLargeReduce;

}  // namespace harness
