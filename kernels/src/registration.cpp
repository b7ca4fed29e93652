// The families' variant tables, filled by the variants' own files as the library loads.
#include <kernels/detail/library_load.hpp>
#include <kernels/reduce/detail/reduce_variant.hpp>
#include <kernels/scan/detail/scan_variant.hpp>
#include <kernels/sort/detail/sort_variant.hpp>

#include <deque>
#include <optional>
#include <stdexcept>

namespace kernels::detail {
namespace {

// Tables live in a deque: registering another never moves the ones already registered.
template <class Variant>
struct FamilyTables {
  std::deque<Variant> tables;
  std::vector<const Variant*> in_order;
};

template <class Variant>
FamilyTables<Variant>& family_tables() {
  static FamilyTables<Variant> family;
  return family;
}

std::optional<LibraryRegistrations> library_load;  // set while load_variant_library runs dlopen

}  // namespace

void begin_library_load() { library_load.emplace(); }

bool refused_while_loading(const std::string& why) {
  if (library_load) library_load->refused.push_back(why);
  return library_load.has_value();
}

LibraryRegistrations end_library_load() {
  LibraryRegistrations made = std::move(*library_load);
  library_load.reset();
  return made;
}

template <class Variant>
const std::vector<const Variant*>& registered_variants() {
  return family_tables<Variant>().in_order;
}

template const std::vector<const ReduceVariant*>& registered_variants<ReduceVariant>();
template const std::vector<const ScanVariant*>& registered_variants<ScanVariant>();
template const std::vector<const SortVariant*>& registered_variants<SortVariant>();

}  // namespace kernels::detail

namespace kernels::variant {

template <class Variant>
bool register_variant(Variant variant) {
  using namespace detail;
  auto& family = family_tables<Variant>();
  const Variant& stored = family.tables.emplace_back(std::move(variant));
  try {
    add_to_registry(stored.info);
  } catch (const std::logic_error& refused) {
    family.tables.pop_back();
    if (!refused_while_loading(refused.what())) throw;
    return false;
  } catch (...) {
    family.tables.pop_back();
    throw;
  }
  family.in_order.push_back(&stored);
  if (library_load) library_load->registered.push_back(stored.info.id());
  return true;
}

template bool register_variant<detail::ReduceVariant>(detail::ReduceVariant);
template bool register_variant<detail::ScanVariant>(detail::ScanVariant);
template bool register_variant<detail::SortVariant>(detail::SortVariant);

}  // namespace kernels::variant
