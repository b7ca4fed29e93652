// Test inputs made on the device, by the generator the host uses (input/distribution_values.hpp):
// a batch's upload then carries none of their values, and the host makes them only if it judges
// a run of them (input/test_input.hpp).
#pragma once

#include "harness/input/distributions.hpp"

#include <cstdint>

namespace harness {

// Inputs of more values than this are made on the device (those of a distribution it makes): a
// fill's launch costs less than making the values on the host and uploading them, and the host
// then makes only those of the batch's sampled run and of its failures.
inline constexpr std::uint64_t kMadeOnTheHostAtMost = 1024;

// Whether the device makes inputs of this distribution: every one but `sorted` and `reverse`
// (host sorts) and `large` (the large tests' own).
bool made_on_device(Distribution distribution);

// Writes the n values of `distribution` with `seed` to `out` (device memory), on the tests'
// stream.
template <class T>
void generate_on_device(Distribution distribution, std::uint64_t n, std::uint64_t seed, T* out);

}  // namespace harness
