// Benchmark inputs written on the device, so that filling gigabytes costs milliseconds: element
// i of a buffer is a hash of (seed, i), the same on every run.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace bench {

enum class Values {
  // For sums: integers take every bit pattern (sums wrap, which is fine for timing), floats lie
  // in [-1, 1), so no float or double sum of any benchmarked length reaches infinity (a half
  // one may: the timing is the same).
  summable,
  // For sorts: every bit pattern of the key, NaNs and infinities included.
  random_bits,
};

// Writes count values to data on stream (asynchronously). For every element type.
template <class T>
void fill_device(T* data, std::uint64_t count, Values values, std::uint64_t seed, cudaStream_t stream);

}  // namespace bench
