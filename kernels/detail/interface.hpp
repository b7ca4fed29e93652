// The variant interface's names (kernels::variant, kernels/variant/*.cuh) read unqualified in the library's own
// code, as in a variant file.
#pragma once

namespace kernels::variant {}

namespace kernels::detail {
using namespace kernels::variant;
}  // namespace kernels::detail
