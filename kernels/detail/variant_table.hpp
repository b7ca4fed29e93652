// A family's view of one variant: its registry record plus, for every element type and every
// mode of the family (the op of a reduction, the kind of a scan, keys or pairs for a sort), a
// type-erased entry point. Entries left empty are combinations the variant does not declare.
// Plain C++.
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

// Every registered variant of one family's table type (ReduceVariant, ScanVariant, SortVariant),
// in registration order. Defined for the three in src/registration.cpp.
template <class Variant>
const std::vector<const Variant*>& registered_variants();

// Registers a variant: its table joins its family, its record the registry (after a check that
// the record is coherent; an incoherent one or a duplicate name throws std::logic_error). A
// variant's file calls it once, during the static initialisation of the library that holds it:
//   const bool registered = register_variant(make_reduce_variant<Impl>({...}));
template <class Variant>
bool register_variant(Variant variant);

// Adds a record to the registry (src/registry.cpp).
void add_to_registry(const VariantInfo& info);

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
