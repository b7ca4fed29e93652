// Long test inputs made on the device, by the generator the host uses (input/distribution_values.hpp):
// a batch's upload then carries none of their values, and the host makes them only if it judges
// a run of them (input/test_input.hpp).
#pragma once

#include "harness/input/distributions.hpp"

#include <cstdint>

namespace harness {

// Whether the device makes inputs of this distribution: every one but `sorted` and `reverse`
// (host sorts) and `large` (the large tests' own).
bool made_on_device(Distribution distribution);

// Writes the n values of `distribution` with `seed` to `out` (device memory), on the tests'
// stream.
template <class T>
void generate_on_device(Distribution distribution, std::uint64_t n, std::uint64_t seed, T* out);

}  // namespace harness
