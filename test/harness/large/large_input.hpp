// Inputs too large to generate on the host and upload (2^31 and more ints): the device writes
// them from the counter-based generator, and computes their exact results from the same formula
// in a kernel of its own (exact integer arithmetic, no input held anywhere), in milliseconds where
// the host's cores took seconds of every large test.
#pragma once

#include "harness/input/random_bits.hpp"
#include "harness/runner/device_verdict.hpp"

#include <cuda_runtime_api.h>

#include <climits>
#include <cstdint>

namespace harness {

// Element i of a large input: uniform over the ints except INT_MAX and INT_MIN, which appear
// only where planted (see LargeInputFacts), so that max and min find exactly those positions.
struct LargeInputSpec {
  std::uint64_t n = 0;
  std::uint64_t seed = 0;
  std::uint64_t max_at = 0;  // the one INT_MAX
  std::uint64_t min_at = 0;  // the one INT_MIN
};

// A spec of n elements whose extremes sit past 2^31 when n allows, so a 32-bit index misses them.
LargeInputSpec large_input_spec(std::uint64_t n, std::uint64_t seed);

// Writes the input to data[0, n).
void fill_large_input(int* data, const LargeInputSpec& spec, cudaStream_t stream);

// Writes `value` to data[0, count).
void fill_ints(int* data, std::uint64_t count, int value, cudaStream_t stream);

// How many of data[0, count) differ from `value` (guard bands that must have kept their poison).
// Runs on the test stream.
std::uint64_t count_not_equal(const int* data, std::uint64_t count, int value);

// Element i of a large input, the same function on the host and the device (defined here, since
// device code cannot call across files without separate compilation).
HARNESS_HOST_DEVICE inline int large_input_value(const LargeInputSpec& spec, std::uint64_t i) {
  if (i == spec.max_at) return INT_MAX;
  if (i == spec.min_at) return INT_MIN;
  const int value = static_cast<int>(random_bits(spec.seed, i));
  return value == INT_MAX ? INT_MAX - 1 : value == INT_MIN ? INT_MIN + 1 : value;
}

// The last non-zero element of a large input, 0 if none (the generator gives a zero about once in
// 2^32 values, so this looks at one or two elements).
inline int large_input_last_nonzero(const LargeInputSpec& spec) {
  for (std::uint64_t i = spec.n; i-- > 0;) {
    if (const int value = large_input_value(spec, i); value != 0) return value;
  }
  return 0;
}

struct LargeInputFacts {
  int wrapped_sum = 0;        // the int sum modulo 2^32
  long long widened_sum = 0;  // the exact sum
  int max = 0;
  int min = 0;
};

// The exact results, computed on the device from the generator (on the test stream).
LargeInputFacts large_input_facts(const LargeInputSpec& spec);

}  // namespace harness
