// Workspaces for a batch of runs: one slice per run, exactly as large as its query said,
// poisoned (so that no variant can rely on zeroed scratch) and followed by canary bytes that
// must survive the run.
#pragma once

#include "harness/core/device_buffer.hpp"

#include <kernels/workspace.hpp>

#include <cstddef>
#include <vector>

namespace harness {

class WorkspaceArena {
 public:
  explicit WorkspaceArena(const std::vector<std::size_t>& bytes_per_run);

  kernels::Workspace slice(std::size_t run) const {
    return {buffer_.data() + offsets_[run], bytes_[run]};
  }
  // After the runs have completed: whether each run wrote past its slice.
  std::vector<bool> overruns() const;

  static constexpr unsigned char kPoison = 0xA5;
  static constexpr std::size_t kCanaryBytes = 256;

 private:
  std::vector<std::size_t> bytes_;
  std::vector<std::size_t> offsets_;
  DeviceBuffer<unsigned char> buffer_;
};

}  // namespace harness
