// The large cases of the sorts (core/large_case.hpp): n int keys of 2^16 classes
// (large_sort_input.hpp), alone or with each key's index as its value, into outputs between
// poisoned guard bands, judged on the device: order and multiset exactly, and for pairs the input
// order of equal keys, so only a stable variant's pairs are a large case (parse_case_args).
#pragma once

#include "harness/core/large_case.hpp"

namespace harness {

extern const LargeRunner kLargeSort;

}  // namespace harness
