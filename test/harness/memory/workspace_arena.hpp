// Workspaces for a batch of runs: one slice per run, exactly as large as its query said,
// poisoned (so that no variant can rely on zeroed scratch) and followed by canary bytes that
// must survive the run, as must the padding up to the canaries (a write one byte past the
// slice is an overrun, whatever the rounding). With exact-size buffers (memory/buffer_layout.hpp) each slice is an
// allocation of its own, of exactly its bytes and without canaries: memcheck sees an overrun.
#pragma once

#include "harness/memory/buffer_layout.hpp"
#include "harness/memory/device_buffer.hpp"

#include <kernels/workspace.hpp>

#include <cstddef>
#include <vector>

namespace harness {

class WorkspaceArena {
 public:
  explicit WorkspaceArena(const std::vector<std::size_t>& bytes_per_run);

  kernels::Workspace slice(std::size_t run) const {
    if (exact_size_buffers()) return {exact_[run].data(), bytes_[run]};
    return {buffer_.data() + offsets_[run], bytes_[run]};
  }
  // After the runs have completed: whether each run wrote past its slice (never seen here with
  // exact-size buffers).
  std::vector<bool> overruns() const;

  static constexpr unsigned char kPoison = 0xA5;
  static constexpr std::size_t kCanaryBytes = 256;

 private:
  std::vector<std::size_t> bytes_;
  std::vector<std::size_t> offsets_;
  DeviceBuffer<unsigned char> buffer_;
  std::vector<DeviceBuffer<unsigned char>> exact_;
};

}  // namespace harness
