// Work on regions of device memory done on the device, so that a batch's large images never pass
// through the host whole: filling with a poison pattern (which cudaMemset, one byte, cannot
// write), copying scattered regions to or from a packed buffer, and asking whether regions still
// hold a pattern. Elements are words of 1, 4 or 8 bytes; every call is ordered on the tests'
// stream (memory/device_buffer.hpp), and regions_hold_on_device waits for its answer.
#pragma once

#include "harness/numeric/element_traits.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace harness {

// A buffer up to this many bytes is cheaper to copy whole to or from the host, in one call,
// than to work on in regions on the device, which takes several calls, allocations and waits.
inline constexpr std::size_t kWholeCopyBytes = std::size_t(1) << 20;
inline constexpr bool copied_whole(std::size_t bytes) { return bytes <= kWholeCopyBytes; }

// `count` words from `from` (in words) of one buffer go to `to` of another.
struct RegionCopy {
  std::size_t from;
  std::size_t to;
  std::size_t count;
};

// `count` words from `begin`.
struct Region {
  std::size_t begin;
  std::size_t count;
};

void fill_words_on_device(void* destination, std::size_t count, std::size_t word_bytes, std::uint64_t pattern);
void copy_regions_on_device(void* destination, const void* source, const std::vector<RegionCopy>& copies,
                            std::size_t word_bytes);
// For each region, whether all its words still equal `pattern` (its low bytes for words under 8).
std::vector<bool> regions_hold_on_device(const void* base, const std::vector<Region>& regions, std::size_t word_bytes,
                                         std::uint64_t pattern);

// The pattern of one element, as the functions above take it.
template <class T>
std::uint64_t word_pattern(T value) {
  return bits_of(value);
}

}  // namespace harness
