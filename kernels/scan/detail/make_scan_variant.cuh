// Builds a scan variant's dispatch table by instantiating its implementation for every type
// and kind it declares (detail/declared.hpp: every type but the reductions' widening one, both
// kinds, unless it lists kTypes or kKinds). An implementation `Impl` provides
//   template <ScanKind kind, class T> static void run(const T* in, T* out, const ScanCall&);
//   template <ScanKind kind, class T> static std::size_t workspace_bytes(std::uint64_t n, int block);
//   static std::uint64_t max_length(int block);
//   static std::uint64_t accumulation_depth(std::uint64_t n, int block);
//   static std::uint64_t tile_size(int block, TypeKey type);
#pragma once

#include <kernels/detail/declared.hpp>
#include <kernels/scan/detail/scan_variant.hpp>

#include <utility>

namespace kernels::detail {

template <class Impl, TypeKey type, ScanKind kind>
void run_scan_entry(const ScanCall& call) {
  using T = typename types_of<type>::in;
  Impl::template run<kind, T>(static_cast<const T*>(call.in), static_cast<T*>(call.out), call);
}

template <class Impl, TypeKey type, ScanKind kind>
void fill_scan_entry(ScanVariant& variant) {
  if constexpr (declares_type<Impl>(type, false) && declares_kind<Impl>(kind)) {
    using T = typename types_of<type>::in;
    variant.entries[index_of(type)][index_of(kind)] = {&run_scan_entry<Impl, type, kind>,
                                                       &Impl::template workspace_bytes<kind, T>};
  }
}

template <class Impl, std::size_t... T>
void fill_scan_entries(ScanVariant& variant, std::index_sequence<T...>) {
  (fill_scan_entry<Impl, kAllTypeKeys[T], ScanKind::inclusive>(variant), ...);
  (fill_scan_entry<Impl, kAllTypeKeys[T], ScanKind::exclusive>(variant), ...);
}

// `info` holds the name, description, block sizes, length rule, determinism and in-place
// capability; the types and kinds (a scan's op is the sum) and the limits come from Impl.
template <class Impl>
ScanVariant make_scan_variant(VariantInfo info) {
  info.family = Family::scan;
  info.type_ops.clear();
  for (TypeKey type : kAllTypeKeys) {
    if (declares_type<Impl>(type, false)) info.type_ops.push_back({type, {Op::sum}});
  }
  info.kinds.clear();
  for (ScanKind kind : kAllScanKinds) {
    if (declares_kind<Impl>(kind)) info.kinds.push_back(kind);
  }
  info.max_length = &Impl::max_length;
  info.accumulation_depth = &Impl::accumulation_depth;
  info.tile_size = &Impl::tile_size;
  ScanVariant variant{info, info.id()};
  fill_scan_entries<Impl>(variant, std::make_index_sequence<kTypeKeyCount>{});
  return variant;
}

}  // namespace kernels::detail
