#pragma once

#include <cstddef>
#include <cstdint>

namespace kernels::detail {

constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// Workspace sub-buffers start on 256-byte boundaries, as cudaMalloc'd memory does.
constexpr std::size_t align_up(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

}  // namespace kernels::detail
