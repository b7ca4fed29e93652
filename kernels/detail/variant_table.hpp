// A family's view of one variant: its record plus a type-erased entry per element type and mode (op, scan
// kind and op, or sort form); empty entries are combinations the variant does not declare. The rows grow with the
// modes set, so no count of operators is built in. Plain C++.
#pragma once

#include <kernels/detail/interface.hpp>
#include <kernels/errors.hpp>
#include <kernels/registry.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace kernels::detail {

template <class Entry>
struct VariantTable {
  VariantInfo info;
  std::string id;
  std::vector<std::vector<Entry>> entries = std::vector<std::vector<Entry>>(kTypeKeyCount);

  const Entry& entry(TypeKey type, int mode) const {
    static const Entry none{};
    const std::vector<Entry>& row = entries[index_of(type)];
    return mode >= 0 && mode < static_cast<int>(row.size()) ? row[mode] : none;
  }
  void set(TypeKey type, int mode, Entry entry) {
    std::vector<Entry>& row = entries[index_of(type)];
    if (mode >= static_cast<int>(row.size())) row.resize(mode + 1);
    row[mode] = entry;
  }
};

template <class Variant>
const std::vector<const Variant*>& registered_variants();  // in registration order (src/registration.cpp)

void add_to_registry(const VariantInfo& info);  // src/registry.cpp

// The variant of `family` called `name`, or a ValidationError listing the registered ones.
template <class Variant>
const Variant& find_in_family(Family family, std::string_view name) {
  std::string known;
  for (const Variant* candidate : registered_variants<Variant>()) {
    if (candidate->info.name == name) return *candidate;
    if (!known.empty()) known += ", ";
    known += candidate->info.name;
  }
  std::string id(kernels::name(family));
  id += '/';
  id += name;
  throw ValidationError(id, "variant", std::string(name), "registered: " + known);
}

}  // namespace kernels::detail

namespace kernels::variant {

// Joins a variant to its family and the registry (std::logic_error for an incoherent record or a duplicate
// name); once per variant file: const bool registered = register_variant(make_reduce_variant<Impl>({...}));
template <class Variant>
bool register_variant(Variant variant);

}  // namespace kernels::variant
