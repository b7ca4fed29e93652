// What a variant file of any family uses (docs/your-kernels.md): launching with a label, shared memory, the
// device's size, registration, operators of its own (OperatorList), and the interface's mark; each family's header
// adds its maker and call.
#pragma once

#include <kernels/detail/declared.hpp>
#include <kernels/detail/device_query.hpp>
#include <kernels/detail/launch.cuh>
#include <kernels/detail/ops.cuh>
#include <kernels/detail/rounding.hpp>
#include <kernels/detail/variant_table.hpp>
#include <kernels/variant_libraries.hpp>

namespace kernels::variant {

using detail::ceil_div;
using detail::dynamic_shared;
using detail::empty_result;  // what an empty reduction returns, and an exclusive scan's first output
using detail::KernelLabel;
using detail::launch_kernel;
using detail::multiprocessor_count;
using detail::OperatorList;
using detail::register_variant;

}  // namespace kernels::variant
