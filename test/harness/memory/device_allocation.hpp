// Where the harness's device buffers come from. A batch makes and drops about a dozen buffers;
// with cudaMalloc and cudaFree each drop waits for the whole device and unmaps its pages, a turn
// of a GPU that sixteen test processes share. So the functional tests take their buffers from
// the device's stream-ordered pool on the tests' stream (cudaMallocAsync), which keeps what a
// process frees for its next buffers: it never holds more than the process's own peak. Under
// compute-sanitizer (exact_size_buffers, memory/buffer_layout.hpp) every buffer stays an
// allocation of its own, so that memcheck bounds each one exactly.
#pragma once

#include <cstddef>

namespace harness {

// Device memory of `bytes` bytes, usable by work on the tests' stream (and by any stream once
// that stream has been synchronised). Throws a CUDA error if none can be had.
void* allocate_device_bytes(std::size_t bytes);

// Gives back what allocate_device_bytes returned, once the tests' stream has done with it.
// Never throws (a destructor's call): after a fault that killed the context it does nothing.
void release_device_bytes(void* memory) noexcept;

// Hands what the pool keeps back to the device, after waiting for the tests' stream: before a
// test measures free device memory (large/large_case.cpp).
void release_pooled_device_memory();

}  // namespace harness
