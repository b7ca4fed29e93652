// How rows are named: family/variant/type/n, e.g. reduce/harris7_multi_element/int/268435456
// (a scan-then-fan variant's name has a slash of its own: scan/scan_then_fan/blelloch_padded/...).
// Filters (--benchmark_filter) and the scripts reading the JSON rely on this form.
#pragma once

#include <kernels/types.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace bench {

inline std::string row_name(kernels::Family family, std::string_view variant, kernels::TypeKey type, std::uint64_t n) {
  return std::string(kernels::name(family)) + "/" + std::string(variant) + "/" + std::string(kernels::name(type)) +
         "/" + std::to_string(n);
}

}  // namespace bench
