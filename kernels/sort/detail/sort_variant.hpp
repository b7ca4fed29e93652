// How the sort dispatcher reaches a variant: its record plus a type-erased entry and workspace query per key
// type and form. Plain C++.
#pragma once

#include <kernels/detail/variant_table.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace kernels::variant {

// One validated sort call, with the key pointers' types erased. The value pointers are null
// for the keys form.
struct SortCall {
  std::string_view variant_id;
  const void* keys_in;
  void* keys_out;
  const std::uint32_t* values_in;
  std::uint32_t* values_out;
  std::uint64_t n;  // > 0: the dispatcher answers empty inputs itself
  int block_size;   // resolved and validated
  Workspace workspace;
  cudaStream_t stream;
};

}  // namespace kernels::variant

namespace kernels::detail {

struct SortEntry {
  void (*run)(const SortCall&) = nullptr;
  std::size_t (*workspace_bytes)(std::uint64_t n, int block_size) = nullptr;
};

using SortVariant = VariantTable<SortEntry>;  // modes: index_of(form)

}  // namespace kernels::detail
