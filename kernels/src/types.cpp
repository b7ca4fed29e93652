#include <kernels/operator_registry.hpp>
#include <kernels/types.hpp>

#include <stdexcept>

namespace kernels {
namespace {

template <class Enum, std::size_t N>
std::optional<Enum> parse_by_name(std::string_view text, const std::array<Enum, N>& all) {
  for (Enum value : all) {
    if (name(value) == text) return value;
  }
  return std::nullopt;
}

}  // namespace

std::string_view name(Family family) {
  switch (family) {
    case Family::reduce: return "reduce";
    case Family::scan: return "scan";
    case Family::sort: return "sort";
  }
  return "?";
}

std::string_view name(TypeKey type) {
#define KERNELS_TYPE_NAME(key, in, out, label) \
  if (type == TypeKey::key) return #label;
  KERNELS_FOR_EACH_TYPE(KERNELS_TYPE_NAME)
#undef KERNELS_TYPE_NAME
  return "?";
}

std::string_view name(Op op) {
  try {
    return operator_info(op).name;
  } catch (const std::out_of_range&) {
    return "?";
  }
}

std::string_view name(ScanKind kind) { return kind == ScanKind::inclusive ? "inclusive" : "exclusive"; }

std::string_view name(SortForm form) { return form == SortForm::keys ? "keys" : "pairs"; }

std::optional<Family> parse_family(std::string_view text) { return parse_by_name(text, kAllFamilies); }
std::optional<TypeKey> parse_type(std::string_view text) { return parse_by_name(text, kAllTypeKeys); }
std::optional<Op> parse_op(std::string_view text) {
  for (Op op : all_ops()) {
    if (name(op) == text) return op;
  }
  return std::nullopt;
}
std::optional<ScanKind> parse_scan_kind(std::string_view text) { return parse_by_name(text, kAllScanKinds); }
std::optional<SortForm> parse_sort_form(std::string_view text) { return parse_by_name(text, kAllSortForms); }

}  // namespace kernels
