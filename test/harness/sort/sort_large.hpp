// The large cases of the sorts (large/large_case.hpp): n int or float keys of 2^16 classes
// (large_sort_input.hpp), alone or with each key's 32-bit index as its value (so at most 2^32
// pairs), into outputs between poisoned guard bands, judged on the device: order and multiset
// exactly, and for pairs the input order of equal keys, so only a stable variant's pairs are a
// large case (large_case_breach).
#pragma once

#include "harness/large/large_case.hpp"

namespace harness {

extern const LargeRunner kLargeSort;

}  // namespace harness
