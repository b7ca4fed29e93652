// The benchmark process's view of the device: the stream every row runs on, how much memory a
// row must cycle through for its inputs to come cold from DRAM, and what the report says
// about the device.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace bench {

// A non-blocking stream, created on first use and shared by all rows and baselines.
cudaStream_t bench_stream();

// Bytes a row's calls must touch before a buffer comes round again: twice the device's L2
// cache, so that every timed call reads its input from DRAM, as it would at large n.
std::size_t cold_rotation_bytes();

// Adds the device, driver and runtime to Google Benchmark's context (console header and JSON).
void describe_device_in_context();

}  // namespace bench
