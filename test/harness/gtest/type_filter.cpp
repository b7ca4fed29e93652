#include "harness/gtest/type_filter.hpp"

#include <kernels/types.hpp>

#include <stdexcept>
#include <string_view>
#include <vector>

namespace harness {
namespace {

// The names joined by `separator`, each followed by `suffix`.
std::string joined(const std::vector<kernels::TypeKey>& types, const char* separator, const char* suffix) {
  std::string text;
  for (kernels::TypeKey type : types) {
    if (!text.empty()) text += separator;
    text += kernels::name(type);
    text += suffix;
  }
  return text;
}

}  // namespace

std::string filter_for_types(const std::string& filter, const char* types, const char* variable) {
  if (types == nullptr || *types == '\0') return filter;
  const std::vector<kernels::TypeKey> every(kernels::kAllTypeKeys.begin(), kernels::kAllTypeKeys.end());
  std::vector<kernels::TypeKey> left_out = every;
  std::string_view rest(types);
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view name = rest.substr(0, comma);
    const auto type = kernels::parse_type(name);
    if (!type) {
      throw std::invalid_argument(std::string(variable) + "='" + std::string(types) + "': '" + std::string(name) +
                                  "' is not a type (the types: " + joined(every, ", ", "") + ")");
    }
    std::erase(left_out, *type);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (left_out.empty()) return filter;
  const bool has_negative = filter.find('-') != std::string::npos;
  return filter + (has_negative ? ":" : "-") + joined(left_out, ":", "/*");
}

}  // namespace harness
