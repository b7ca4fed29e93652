// How the reduction dispatcher reaches a variant: its record plus a type-erased entry and workspace query per
// (type, op). Plain C++: the dispatcher and the registry compile without nvcc.
#pragma once

#include <kernels/detail/variant_table.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kernels::variant {

// One validated reduction call, with the pointers' types erased.
struct ReduceCall {
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

struct ReduceEntry {
  void (*run)(const ReduceCall&) = nullptr;
  std::size_t (*workspace_bytes)(std::uint64_t n, int block_size) = nullptr;
};

using ReduceVariant = VariantTable<ReduceEntry>;  // modes: index_of(op)

// Writes the empty-input result of (type, op) to `out` (a one-thread kernel).
void write_empty_reduce_result(TypeKey type, Op op, void* out, cudaStream_t stream);

}  // namespace kernels::detail
