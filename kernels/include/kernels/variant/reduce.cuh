// The variant interface of the reductions (docs/your-kernels.md): what a variant file of yours includes, as the
// suite's own do (kernels/templates/reduce_variant.cu.template); its names are in kernels::variant.
#pragma once

#include <kernels/detail/device_query.hpp>
#include <kernels/detail/launch.cuh>
#include <kernels/detail/rounding.hpp>
#include <kernels/reduce/detail/make_reduce_variant.cuh>
#include <kernels/reduce/detail/multi_pass.cuh>
#include <kernels/variant_libraries.hpp>

namespace kernels::variant {

using detail::ceil_div;
using detail::DeviceFillingGrid;  // MultiPass<Block>: a block kernel's grid, then passes until one value
using detail::dynamic_shared;
using detail::KernelLabel;
using detail::launch_kernel;
using detail::make_reduce_variant;
using detail::MultiPass;
using detail::multiprocessor_count;
using detail::OneChunkPerBlock;
using detail::ReduceCall;
using detail::register_variant;

}  // namespace kernels::variant
