// A kernel that only waits: the time a planted slowdown adds to a row (planted_slowdown.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace bench {

// Enqueues on `stream` one thread that spins until `ns` nanoseconds of the device's %globaltimer
// have passed since it started (0: it returns at once, costing only its launch).
void enqueue_spin(cudaStream_t stream, std::uint64_t ns);

}  // namespace bench
