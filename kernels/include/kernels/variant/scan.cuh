// The scans' variant interface (docs/your-kernels.md), in kernels::variant; the shared part: launch.cuh.
#pragma once

#include <kernels/scan/detail/make_scan_variant.cuh>
#include <kernels/variant/launch.cuh>

namespace kernels::variant {

using detail::make_scan_variant;
using detail::ScanCall;

}  // namespace kernels::variant
