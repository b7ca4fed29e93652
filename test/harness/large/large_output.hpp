// An array output of a large case (large/large_case.hpp): n ints on the device between kArrayGuard
// ints of output poison on each side, which the call must leave as they were (docs/semantics.md: no write
// outside [0, n)). Outputs of other 4-byte types (a sort's float keys, its values) are held here
// as the same bits.
#pragma once

#include "harness/memory/device_buffer.hpp"
#include "harness/memory/guard_bands.hpp"

#include <cstdint>

namespace harness {

class LargeOutput {
 public:
  // Allocates the output and its bands and fills them all with output_poison<int>() on `stream`.
  LargeOutput(std::uint64_t n, cudaStream_t stream);

  int* data() const { return buffer_.data() + kArrayGuard; }
  int element(std::uint64_t i) const { return buffer_.download(kArrayGuard + i, 1)[0]; }
  // How many of the guard ints on either side no longer hold the poison. Runs on the test stream.
  std::uint64_t guard_writes() const;

 private:
  std::uint64_t n_;
  DeviceBuffer<int> buffer_;
};

}  // namespace harness
