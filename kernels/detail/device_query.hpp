// Properties of the current device that launch shapes depend on, cached so that a call in a
// hot path costs a lookup instead of a driver query.
#pragma once

namespace kernels::detail {

// Multiprocessors of the current device.
int multiprocessor_count();

// The grid of `block_size`-thread blocks that holds as many threads as the current device can
// keep resident at once (multiprocessors times resident threads per multiprocessor). It depends
// on the device only, not on a kernel's register use, so a variant's launch shape, workspace and
// error model all follow from the block size alone.
unsigned device_filling_grid(int block_size);

}  // namespace kernels::detail
