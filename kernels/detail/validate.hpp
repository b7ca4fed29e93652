// Checks shared by every family's host API: each throws ValidationError, before any CUDA call.
#pragma once

#include <kernels/registry.hpp>
#include <kernels/workspace.hpp>

#include <cstddef>
#include <cstdint>

namespace kernels::detail {

void require_type(const VariantInfo& info, TypeKey type);
void require_op(const VariantInfo& info, TypeKey type, Op op);
void require_kind(const VariantInfo& info, ScanKind kind);
void require_form(const VariantInfo& info, SortForm form);
int require_block_size(const VariantInfo& info, int requested);  // 0 selects the preferred size
void require_length(const VariantInfo& info, TypeKey type, std::uint64_t n, int block_size);
void require_pointer(const VariantInfo& info, const char* parameter, const void* pointer, std::size_t alignment);
void require_workspace(const VariantInfo& info, Workspace workspace, std::size_t required_bytes);
// `out` must not overlap `in`, except that out == in is allowed when `in_place_allowed`.
void require_disjoint(const VariantInfo& info, const char* parameter, const void* out, const void* in,
                      std::size_t bytes, bool in_place_allowed);

}  // namespace kernels::detail
