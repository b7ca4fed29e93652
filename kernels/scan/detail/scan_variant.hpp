// How the scan dispatcher reaches a variant: its record plus, for every type and kind, a
// type-erased entry point and workspace query. Plain C++.
#pragma once

#include <kernels/detail/variant_table.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace kernels::variant {

// One validated scan call, with the pointers' types erased.
struct ScanCall {
  std::string_view variant_id;
  const void* in;
  std::uint64_t n;  // > 0: the dispatcher answers empty inputs itself
  void* out;
  int block_size;  // resolved and validated
  Workspace workspace;
  cudaStream_t stream;
};

}  // namespace kernels::variant

namespace kernels::detail {

struct ScanEntry {
  void (*run)(const ScanCall&) = nullptr;
  std::size_t (*workspace_bytes)(std::uint64_t n, int block_size) = nullptr;
};

// Entries indexed by type and by scan kind and op together.
constexpr int scan_mode_index(ScanKind kind, Op op) {
  return index_of(op) * static_cast<int>(kAllScanKinds.size()) + index_of(kind);
}
using ScanVariant = VariantTable<ScanEntry>;

}  // namespace kernels::detail
