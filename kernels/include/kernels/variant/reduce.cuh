// The variant interface of the reductions (docs/your-kernels.md): what a variant file of yours includes to write a
// kernel, its implementation struct and its record, and to register it as the suite's own variants do
// (kernels/templates/reduce_variant.cu.template). Its names are in kernels::variant.
#pragma once

#include <kernels/detail/device_query.hpp>
#include <kernels/detail/launch.cuh>
#include <kernels/detail/rounding.hpp>
#include <kernels/reduce/detail/make_reduce_variant.cuh>
#include <kernels/reduce/detail/multi_pass.cuh>
#include <kernels/variant/version.hpp>

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
using detail::register_variant;
using detail::ReduceCall;

}  // namespace kernels::variant
