#pragma once

#include <kernels/detail/interface.hpp>

namespace kernels::variant {

int multiprocessor_count();  // of the current device, cached: a lookup, not a driver query

unsigned device_filling_grid(int block_size);  // fills the device's resident threads; ignores register use

}  // namespace kernels::variant
