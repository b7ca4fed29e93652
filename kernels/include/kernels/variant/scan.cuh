// The scans' variant interface, kernels::variant (the shared part: launch.cuh). An Impl provides
//   template <ScanKind kind, class OpT, class T> static void run(const T* in, T* out, const ScanCall& call);
//   template <ScanKind kind, class OpT, class T> static std::size_t workspace_bytes(std::uint64_t n, int block);
//   static std::uint64_t max_length(int block);
//   static std::uint64_t accumulation_depth(std::uint64_t n, int block);  // roundings any output passes through
//   static std::uint64_t tile_size(int block, TypeKey type);              // the values one block takes at once
// and optionally launch.cuh's declarations, and
//   static constexpr std::array kKinds{ScanKind::...};                    the kinds it offers
// ScanCall carries variant_id, n (> 0), block_size (resolved), workspace and stream; out == in for an in-place
// call (only if the record declares in_place).
//   make_scan_variant<Impl>(VariantInfo)     the record's table: every declared (type, kind, op) instantiated
#pragma once

#include <kernels/scan/detail/make_scan_variant.cuh>
#include <kernels/variant/launch.cuh>
