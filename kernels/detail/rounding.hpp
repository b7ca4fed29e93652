#pragma once

#include <kernels/detail/interface.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>

namespace kernels::variant {

constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// Workspace sub-buffers start on 256-byte boundaries, as cudaMalloc'd memory does.
constexpr std::size_t align_up(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

// log2 of a power of two (block sizes): the levels of a tree over that many values.
inline std::uint64_t log2_exact(std::uint64_t power_of_two) {
  return static_cast<std::uint64_t>(std::countr_zero(power_of_two));
}

}  // namespace kernels::variant
