// Builds a sort variant's dispatch table: its implementation instantiated for every key type it declares
// (detail/declared.hpp) and the forms it offers. What an `Impl` provides: docs/kernels.md#sort.
#pragma once

#include <kernels/detail/declared.hpp>
#include <kernels/sort/detail/sort_variant.hpp>

#include <cstdint>
#include <utility>

namespace kernels::detail {

template <class Impl, TypeKey type, SortForm form>
void run_sort_entry(const SortCall& call) {
  using K = typename types_of<type>::in;
  Impl::template run<form, K>(static_cast<const K*>(call.keys_in), static_cast<K*>(call.keys_out), call);
}

template <class Impl, TypeKey type, SortForm form>
void fill_sort_entry(SortVariant& variant) {
  if constexpr (declares_type<Impl>(Family::sort, type) && (form == SortForm::keys || sorts_pairs<Impl>())) {
    using K = typename types_of<type>::in;
    variant.set(type, index_of(form), {&run_sort_entry<Impl, type, form>, &Impl::template workspace_bytes<form, K>});
  }
}

template <class Impl, std::size_t... T>
void fill_sort_entries(SortVariant& variant, std::index_sequence<T...>) {
  (fill_sort_entry<Impl, kAllTypeKeys[T], SortForm::keys>(variant), ...);
  (fill_sort_entry<Impl, kAllTypeKeys[T], SortForm::pairs>(variant), ...);
}

inline std::uint64_t no_accumulation(std::uint64_t, int) { return 0; }

}  // namespace kernels::detail

namespace kernels::variant {

// `info` holds the name, description, block sizes, length rule, determinism and stability; the
// key types, forms and limit come from Impl.
template <class Impl>
detail::SortVariant make_sort_variant(VariantInfo info) {
  using namespace detail;
  info.family = Family::sort;
  info.type_ops.clear();
  for (TypeKey type : kAllTypeKeys) {
    if (declares_type<Impl>(Family::sort, type)) info.type_ops.push_back({type, {}});
  }
  info.forms = {SortForm::keys};
  if (sorts_pairs<Impl>()) info.forms.push_back(SortForm::pairs);
  info.max_length = &Impl::max_length;
  info.accumulation_depth = &no_accumulation;
  SortVariant variant{info, info.id()};
  fill_sort_entries<Impl>(variant, std::make_index_sequence<kTypeKeyCount>{});
  return variant;
}

}  // namespace kernels::variant
