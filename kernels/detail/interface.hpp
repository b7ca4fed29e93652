#pragma once

namespace kernels::variant {}  // namespace kernels::variant

namespace kernels::detail {
using namespace kernels::variant;  // the library reads the interface's names unqualified, as a variant file does
}  // namespace kernels::detail
