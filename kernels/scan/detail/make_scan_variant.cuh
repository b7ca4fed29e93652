// Builds a scan variant's dispatch table: its implementation instantiated for every type, kind and op it
// declares (detail/declared.hpp). What an `Impl` provides: docs/kernels.md#scan.
#pragma once

#include <kernels/detail/declared.hpp>
#include <kernels/detail/ops.cuh>
#include <kernels/scan/detail/scan_variant.hpp>

#include <utility>

namespace kernels::detail {

template <class Impl, TypeKey type, ScanKind kind, Op op>
void run_scan_entry(const ScanCall& call) {
  using T = typename types_of<type>::in;
  Impl::template run<kind, op_functor_t<op, T>, T>(static_cast<const T*>(call.in), static_cast<T*>(call.out), call);
}

template <class Impl, TypeKey type, ScanKind kind, Op op>
void fill_scan_entry(ScanVariant& variant) {
  if constexpr (declares_type<Impl>(Family::scan, type) && declares_kind<Impl>(kind) &&
                declares_op<Impl>(Family::scan, type, op)) {
    using T = typename types_of<type>::in;
    variant.set(type, scan_mode_index(kind, op),
                {&run_scan_entry<Impl, type, kind, op>, &Impl::template workspace_bytes<kind, op_functor_t<op, T>, T>});
  }
}

template <class Impl, TypeKey type, ScanKind kind, class Descriptor>
void run_registered_scan_entry(const ScanCall& call) {
  using T = typename types_of<type>::in;
  Impl::template run<kind, RegisteredOp<Descriptor, T>, T>(static_cast<const T*>(call.in), static_cast<T*>(call.out),
                                                           call);
}

// A registered operator on every scan type both it and the variant take, in each kind the variant declares.
template <class Impl, class Descriptor, std::size_t... T>
void fill_registered_scan_entries(ScanVariant& variant, Op op, std::index_sequence<T...>) {
  const auto fill = [&]<TypeKey type, ScanKind kind>() {
    using In = typename types_of<type>::in;
    if constexpr (declares_type<Impl>(Family::scan, type) && declares_kind<Impl>(kind) &&
                  Descriptor::template kTakes<In>) {
      variant.set(type, scan_mode_index(kind, op),
                  {&run_registered_scan_entry<Impl, type, kind, Descriptor>,
                   &Impl::template workspace_bytes<kind, RegisteredOp<Descriptor, In>, In>});
    }
  };
  (fill.template operator()<kAllTypeKeys[T], ScanKind::inclusive>(), ...);
  (fill.template operator()<kAllTypeKeys[T], ScanKind::exclusive>(), ...);
}

template <class Impl, std::size_t... T, std::size_t... O>
void fill_scan_entries(ScanVariant& variant, std::index_sequence<T...>, std::index_sequence<O...>) {
  auto for_type = [&](auto type_index) {
    constexpr TypeKey type = kAllTypeKeys[decltype(type_index)::value];
    (fill_scan_entry<Impl, type, ScanKind::inclusive, kBuiltinOps[O]>(variant), ...);
    (fill_scan_entry<Impl, type, ScanKind::exclusive, kBuiltinOps[O]>(variant), ...);
  };
  (for_type(std::integral_constant<std::size_t, T>{}), ...);
}

}  // namespace kernels::detail

namespace kernels::variant {

// `info` holds the name, description, block sizes, length rule, determinism and in-place capability; the
// types, ops and kinds, operand order and the limits come from Impl.
template <class Impl>
detail::ScanVariant make_scan_variant(VariantInfo info) {
  using namespace detail;
  info.family = Family::scan;
  ScanVariant variant{info, info.id()};
  fill_scan_entries<Impl>(variant, std::make_index_sequence<kTypeKeyCount>{},
                          std::make_index_sequence<kBuiltinOpCount>{});
  for_each_registered_operator<Impl>([&]<class Descriptor>() {
    fill_registered_scan_entries<Impl, Descriptor>(variant, operator_key<Descriptor>(),
                                                   std::make_index_sequence<kTypeKeyCount>{});
  });
  info.type_ops.clear();
  for (TypeKey type : kAllTypeKeys) {
    if (!declares_type<Impl>(Family::scan, type)) continue;
    TypeOps declared{type, {}};
    const std::size_t modes = variant.entries[index_of(type)].size();
    for (std::size_t mode = 0; mode < modes; mode += kAllScanKinds.size()) {
      const Op op = static_cast<Op>(mode / kAllScanKinds.size());
      const bool any_kind = variant.entry(type, scan_mode_index(ScanKind::inclusive, op)).run != nullptr ||
                            variant.entry(type, scan_mode_index(ScanKind::exclusive, op)).run != nullptr;
      if (any_kind) declared.ops.push_back(op);
    }
    info.type_ops.push_back(declared);
  }
  info.kinds.clear();
  for (ScanKind kind : kAllScanKinds) {
    if (declares_kind<Impl>(kind)) info.kinds.push_back(kind);
  }
  info.keeps_operand_order = keeps_operand_order<Impl>();
  info.zero_sum = zero_sum<Impl>();
  info.max_length = &Impl::max_length;
  info.accumulation_depth = &Impl::accumulation_depth;
  info.tile_size = &Impl::tile_size;
  declare_vector_path<Impl>(info);
  variant.info = info;
  variant.id = info.id();
  return variant;
}

}  // namespace kernels::variant
