#include "harness/memory/workspace_arena.hpp"

#include "harness/memory/device_regions.hpp"

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

WorkspaceArena::WorkspaceArena(const std::vector<std::size_t>& bytes_per_run) : bytes_(bytes_per_run) {
  if (exact_size_buffers()) {
    for (std::size_t bytes : bytes_) {
      exact_.emplace_back(bytes);
      if (bytes > 0) exact_.back().fill_bytes(kPoison);
    }
    return;
  }
  offsets_ = slice_offsets(bytes_per_run);
  buffer_ = DeviceBuffer<unsigned char>(offsets_.back());
  buffer_.fill_bytes(kPoison);
}

std::vector<bool> WorkspaceArena::overruns() const {
  if (exact_size_buffers()) return std::vector<bool>(bytes_.size(), false);
  // Everything from a slice's last byte to its next 256-byte boundary, then its canaries.
  std::vector<Region> past_ends;
  for (std::size_t run = 0; run < bytes_.size(); ++run) {
    past_ends.push_back({offsets_[run] + bytes_[run], round_up_256(bytes_[run]) - bytes_[run] + kCanaryBytes});
  }
  std::vector<bool> overran;
  if (!copied_whole(buffer_.size())) {
    for (const bool intact : regions_hold_on_device(buffer_.data(), past_ends, 1, kPoison)) overran.push_back(!intact);
    return overran;
  }
  const std::vector<unsigned char> after = buffer_.download();
  for (const Region& past_end : past_ends) {
    const auto begin = after.begin() + static_cast<std::ptrdiff_t>(past_end.begin);
    overran.push_back(!std::all_of(begin, begin + static_cast<std::ptrdiff_t>(past_end.count),
                                   [](unsigned char b) { return b == kPoison; }));
  }
  return overran;
}

}  // namespace harness
