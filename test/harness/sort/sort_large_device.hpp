// Sort inputs too large to sort on the host (2^31 keys and more), built so that the sorted output
// is known without sorting: each key belongs to one of 2^16 classes, drawn by the counter-based
// generator, and a class's key is a strictly increasing function of the class. The sorted keys
// are then runs of class keys whose lengths are the class counts, which a counting kernel
// computes from the generator (the host only sums them into run starts). Class keys spread over
// the whole range of their type and differ in every byte, so every radix digit is exercised.
// Keys are ints or floats, both handled as their 4 bytes: float class keys run over the whole bit
// range in totalOrder, NaNs of both signs included, which the sorts must place by their bits.
#pragma once

#include "harness/large/large_input.hpp"

#include <kernels/types.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

namespace harness {

inline constexpr std::uint32_t kLargeKeyClasses = 1u << 16;

struct LargeSortSpec {
  std::uint64_t n = 0;
  std::uint64_t seed = 0;
  kernels::TypeKey key_type = kernels::TypeKey::int32;  // int32 or float32
};

// Writes the keys' bits to keys[0, n) and, if `values` is not null, each key's index to
// values[0, n) (so n <= 2^32).
void fill_large_sort_input(std::uint32_t* keys, std::uint32_t* values, const LargeSortSpec& spec, cudaStream_t stream);

// Where each class's run starts in the sorted output: kLargeKeyClasses + 1 entries, the last n.
// Counted on the device, on the test stream.
std::vector<std::uint64_t> large_sort_class_starts(const LargeSortSpec& spec);

// Checks the bits of keys_out[0, n) against the runs given by `class_starts`, exactly (order and
// multiset).
// With `values_out`, also that each value is the index of a key of the same class and that the
// indices rise within each run: then every run holds exactly its class's indices in input order
// (a stable sort), since the run's length is the class count: pass values only for stable
// sorts. Runs on the test stream.
DeviceVerdict check_large_sort(const std::uint32_t* keys_out, const std::uint32_t* values_out,
                               const LargeSortSpec& spec, const std::vector<std::uint64_t>& class_starts);

}  // namespace harness
