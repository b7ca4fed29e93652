// Whether two device arrays hold the same bytes, decided on the device: a batch checks that its
// read-only inputs came through the runs unchanged without bringing them back to the host.
#pragma once

#include <cstddef>

namespace harness {

// Compares `bytes` bytes at `a` and `b` (device pointers, 16-byte aligned) on the tests' stream
// and waits for the answer.
bool same_bytes_on_device(const void* a, const void* b, std::size_t bytes);

}  // namespace harness
