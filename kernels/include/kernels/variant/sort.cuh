// The sorts' variant interface (docs/your-kernels.md), in kernels::variant; the shared part: launch.cuh.
#pragma once

#include <kernels/sort/detail/make_sort_variant.cuh>
#include <kernels/variant/launch.cuh>

namespace kernels::variant {

using detail::make_sort_variant;
using detail::SortCall;

}  // namespace kernels::variant
