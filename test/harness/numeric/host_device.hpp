// HARNESS_HOST_DEVICE marks what the harness computes alike on the host and on the device (the
// input generator, the device judges' checks): __host__ __device__ under nvcc, nothing for the
// host compiler.
#pragma once

#if defined(__CUDACC__)
#define HARNESS_HOST_DEVICE __host__ __device__
#else
#define HARNESS_HOST_DEVICE
#endif
