// How rows are named: family/variant/type/n, e.g. reduce/harris7_multi_element/int/268435456
// (a scan-then-fan variant's name has a slash of its own: scan/scan_then_fan/blelloch_padded/...).
// A row of an operator other than the sum names it after the type: reduce/harris1_interleaved_
// divergent/int:last_nonzero/268435456. Filters (--benchmark_filter) and the scripts reading the
// JSON rely on this form.
#pragma once

#include <kernels/types.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace bench {

inline std::string row_name(kernels::Family family, std::string_view variant, kernels::TypeKey type, kernels::Op op,
                            std::uint64_t n) {
  std::string name(kernels::name(family));
  name.append("/").append(variant).append("/").append(kernels::name(type));
  if (family != kernels::Family::sort && op != kernels::Op::sum) name.append(":").append(kernels::name(op));
  return name.append("/").append(std::to_string(n));
}

}  // namespace bench
