// The variant interface of the sorts (docs/your-kernels.md): what a variant file of yours includes, as the
// suite's own do (kernels/templates/sort_variant.cu.template); its names are in kernels::variant.
#pragma once

#include <kernels/detail/device_query.hpp>
#include <kernels/detail/launch.cuh>
#include <kernels/detail/rounding.hpp>
#include <kernels/sort/detail/make_sort_variant.cuh>

#include <kernels/variant_libraries.hpp>

namespace kernels::variant {

using detail::ceil_div;
using detail::dynamic_shared;
using detail::KernelLabel;
using detail::launch_kernel;
using detail::make_sort_variant;
using detail::multiprocessor_count;
using detail::register_variant;
using detail::SortCall;

}  // namespace kernels::variant
