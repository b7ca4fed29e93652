// The scan family's host API: find the variant, validate the call completely, then hand it to
// the variant's entry point for its type, kind and op.
#include <kernels/detail/validate.hpp>
#include <kernels/scan.hpp>
#include <kernels/scan/detail/scan_variant.hpp>

namespace kernels {
namespace {

struct ValidatedShape {
  const detail::ScanVariant& variant;
  int block_size;
};

ValidatedShape validate_shape(std::string_view variant_name, TypeKey type, ScanKind kind, Op op, std::uint64_t n,
                              const ScanConfig& config) {
  const auto& variant = detail::find_in_family<detail::ScanVariant>(Family::scan, variant_name);
  detail::require_type(variant.info, type);
  detail::require_kind(variant.info, kind);
  detail::require_op(variant.info, type, op);
  const int block_size = detail::require_block_size(variant.info, config.block_size);
  detail::require_length(variant.info, type, n, block_size);
  return {variant, block_size};
}

}  // namespace

template <class T>
std::size_t scan_workspace_bytes(std::string_view variant, ScanKind kind, Op op, std::uint64_t n, ScanConfig config) {
  const ValidatedShape shape = validate_shape(variant, type_key_v<T>, kind, op, n, config);
  if (n == 0) return 0;
  return shape.variant.entry(type_key_v<T>, detail::scan_mode_index(kind, op)).workspace_bytes(n, shape.block_size);
}

template <class T>
void scan(std::string_view variant, ScanKind kind, Op op, const T* in, std::uint64_t n, T* out, Workspace workspace,
          ScanConfig config, cudaStream_t stream) {
  const ValidatedShape shape = validate_shape(variant, type_key_v<T>, kind, op, n, config);
  const VariantInfo& info = shape.variant.info;
  if (n == 0) return;
  detail::require_pointer(info, "in", in, alignof(T));
  detail::require_pointer(info, "out", out, alignof(T));
  detail::require_disjoint(info, "out", out, in, n * sizeof(T), info.in_place);
  const detail::ScanEntry& entry = shape.variant.entry(type_key_v<T>, detail::scan_mode_index(kind, op));
  detail::require_workspace(info, workspace, entry.workspace_bytes(n, shape.block_size));
  entry.run({shape.variant.id, in, n, out, shape.block_size, workspace, stream});
}

#define KERNELS_INSTANTIATE_SCAN(key, T, out, label)                                                        \
  template std::size_t scan_workspace_bytes<T>(std::string_view, ScanKind, Op, std::uint64_t, ScanConfig);  \
  template void scan<T>(std::string_view, ScanKind, Op, const T*, std::uint64_t, T*, Workspace, ScanConfig, \
                        cudaStream_t);
KERNELS_FOR_EACH_SCAN_TYPE(KERNELS_INSTANTIATE_SCAN)
#undef KERNELS_INSTANTIATE_SCAN

}  // namespace kernels
