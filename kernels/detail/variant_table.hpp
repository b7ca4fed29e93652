// A family's view of one variant: its registry record plus, for every element type and every
// mode of the family (the op of a reduction, the kind of a scan, keys or pairs for a sort), a
// type-erased entry point. Entries left empty are unsupported combinations. Plain C++.
#pragma once

#include <kernels/errors.hpp>
#include <kernels/registry.hpp>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace kernels::detail {

template <class Entry, int Modes>
struct VariantTable {
  VariantInfo info;
  std::string id;
  std::array<std::array<Entry, Modes>, kTypeKeyCount> entries{};

  const Entry& entry(TypeKey type, int mode) const { return entries[index_of(type)][mode]; }
};

// The variant of `family` called `name`, or a ValidationError listing the registered ones.
template <class Variant>
const Variant& find_in_family(const std::vector<const Variant*>& variants, Family family, std::string_view name) {
  std::string known;
  for (const Variant* candidate : variants) {
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
