// The reductions' variant interface (docs/your-kernels.md), in kernels::variant; the shared part: launch.cuh.
#pragma once

#include <kernels/reduce/detail/make_reduce_variant.cuh>
#include <kernels/reduce/detail/multi_pass.cuh>
#include <kernels/variant/launch.cuh>

namespace kernels::variant {

using detail::DeviceFillingGrid;  // MultiPass<Block>: a block kernel's grid, then passes until one value
using detail::make_reduce_variant;
using detail::MultiPass;
using detail::OneChunkPerBlock;
using detail::ReduceCall;

}  // namespace kernels::variant
