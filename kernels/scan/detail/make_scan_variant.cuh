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
    variant.entries[index_of(type)][scan_mode_index(kind, op)] = {
        &run_scan_entry<Impl, type, kind, op>, &Impl::template workspace_bytes<kind, op_functor_t<op, T>, T>};
  }
}

template <class Impl, std::size_t... T, std::size_t... O>
void fill_scan_entries(ScanVariant& variant, std::index_sequence<T...>, std::index_sequence<O...>) {
  auto for_type = [&](auto type_index) {
    constexpr TypeKey type = kAllTypeKeys[decltype(type_index)::value];
    (fill_scan_entry<Impl, type, ScanKind::inclusive, kAllOps[O]>(variant), ...);
    (fill_scan_entry<Impl, type, ScanKind::exclusive, kAllOps[O]>(variant), ...);
  };
  (for_type(std::integral_constant<std::size_t, T>{}), ...);
}

// `info` holds the name, description, block sizes, length rule, determinism and in-place capability; the
// types, ops and kinds, operand order and the limits come from Impl.
template <class Impl>
ScanVariant make_scan_variant(VariantInfo info) {
  info.family = Family::scan;
  info.type_ops.clear();
  for (TypeKey type : kAllTypeKeys) {
    if (!declares_type<Impl>(Family::scan, type)) continue;
    TypeOps declared{type, {}};
    for (Op op : kAllOps) {
      if (declares_op<Impl>(Family::scan, type, op)) declared.ops.push_back(op);
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
  ScanVariant variant{info, info.id()};
  fill_scan_entries<Impl>(variant, std::make_index_sequence<kTypeKeyCount>{}, std::make_index_sequence<kOpCount>{});
  return variant;
}

}  // namespace kernels::detail
