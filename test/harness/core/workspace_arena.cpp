#include "harness/core/workspace_arena.hpp"

#include <algorithm>

namespace harness {
namespace {

constexpr std::size_t round_up_256(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

std::vector<std::size_t> slice_offsets(const std::vector<std::size_t>& bytes) {
  std::vector<std::size_t> offsets;
  std::size_t total = 0;
  for (std::size_t size : bytes) {
    offsets.push_back(total);
    total += round_up_256(size) + WorkspaceArena::kCanaryBytes;
  }
  offsets.push_back(total);
  return offsets;
}

}  // namespace

WorkspaceArena::WorkspaceArena(const std::vector<std::size_t>& bytes_per_run)
    : bytes_(bytes_per_run), offsets_(slice_offsets(bytes_per_run)), buffer_(offsets_.back()) {
  buffer_.fill_bytes(kPoison);
}

std::vector<bool> WorkspaceArena::overruns() const {
  const std::vector<unsigned char> after = buffer_.download();
  std::vector<bool> overran;
  for (std::size_t run = 0; run < bytes_.size(); ++run) {
    const auto canaries = after.begin() + static_cast<std::ptrdiff_t>(offsets_[run] + round_up_256(bytes_[run]));
    overran.push_back(!std::all_of(canaries, canaries + kCanaryBytes, [](unsigned char b) { return b == kPoison; }));
  }
  return overran;
}

}  // namespace harness
