// Whether device arrays hold the same bytes, decided on the device: a batch checks that its
// read-only inputs came through the runs unchanged, and that the repeats of a deterministic
// variant's case wrote the same bits, without bringing them back to the host.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace harness {

// Bytes in device memory, at any alignment.
struct DeviceBytes {
  const void* data;
  std::size_t bytes;
};

// Where each pair of outputs first differs: pair k compares the concatenation of firsts[k]'s
// regions with that of seconds[k]'s (regions of the same sizes, in the same order). Its answer
// is the offset of the first byte that differs, or nothing when every byte is the same. One
// launch and one wait for all the pairs, on the tests' stream.
std::vector<std::optional<std::size_t>> first_differences_on_device(
    const std::vector<std::vector<DeviceBytes>>& firsts, const std::vector<std::vector<DeviceBytes>>& seconds);

// Whether `bytes` bytes at `a` and `b` (device pointers) are the same: one pair of the above.
bool same_bytes_on_device(const void* a, const void* b, std::size_t bytes);

}  // namespace harness
