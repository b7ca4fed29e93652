// Inputs too large to generate on the host and upload (2^31 and more ints): the device writes
// them from the same counter-based generator, and the host computes the exact results from the
// same formula on all its cores, without ever holding the input.
#pragma once

#include <cuda_runtime_api.h>

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

struct LargeInputFacts {
  int wrapped_sum = 0;       // the int sum modulo 2^32
  long long widened_sum = 0; // the exact sum
  int max = 0;
  int min = 0;
};

// The exact results, computed on every host core from the generator.
LargeInputFacts large_input_facts(const LargeInputSpec& spec);

}  // namespace harness
