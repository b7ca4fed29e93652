// The counter-based generator behind every test input: value i of a stream is a pure function
// of (seed, i), so any prefix, any element and any length regenerate exactly from the seed, on
// the host or (for inputs too large to upload) on the device.
#pragma once

#include "harness/numeric/host_device.hpp"

#include <cstdint>

namespace harness {

// SplitMix64's finaliser (Steele, Lea and Flood): a bijection with good avalanche.
HARNESS_HOST_DEVICE constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

HARNESS_HOST_DEVICE constexpr std::uint64_t random_bits(std::uint64_t seed, std::uint64_t index) {
  return mix64(mix64(seed) ^ index);
}

// Combines a seed with further components (a length, a distribution...) into a new seed.
HARNESS_HOST_DEVICE constexpr std::uint64_t derive_seed(std::uint64_t seed) { return seed; }
template <class... Rest>
HARNESS_HOST_DEVICE constexpr std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t next, Rest... rest) {
  return derive_seed(mix64(seed ^ mix64(next)), static_cast<std::uint64_t>(rest)...);
}

}  // namespace harness
