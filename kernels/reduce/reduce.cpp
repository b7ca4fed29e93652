// The reduction family's host API: find the variant, validate the call completely, then hand it
// to the variant's entry point for its types and op.
#include <kernels/detail/validate.hpp>
#include <kernels/errors.hpp>
#include <kernels/reduce.hpp>
#include <kernels/reduce/detail/reduce_variant.hpp>

#include <string>

namespace kernels {
namespace {

struct ValidatedShape {
  const detail::ReduceVariant& variant;
  int block_size;
};

ValidatedShape validate_shape(std::string_view variant_name, TypeKey type, Op op, std::uint64_t n,
                              const ReduceConfig& config) {
  const auto& variant = detail::find_in_family<detail::ReduceVariant>(Family::reduce, variant_name);
  detail::require_type(variant.info, type);
  detail::require_op(variant.info, type, op);
  const int block_size = detail::require_block_size(variant.info, config.block_size);
  detail::require_length(variant.info, type, n, block_size);
  return {variant, block_size};
}

}  // namespace

template <class In, class Out>
std::size_t reduce_workspace_bytes(std::string_view variant, Op op, std::uint64_t n, ReduceConfig config) {
  constexpr TypeKey type = type_key_v<In, Out>;
  const ValidatedShape shape = validate_shape(variant, type, op, n, config);
  if (n == 0) return 0;
  return shape.variant.entry(type, index_of(op)).workspace_bytes(n, shape.block_size);
}

template <class In, class Out>
void reduce(std::string_view variant, Op op, const In* in, std::uint64_t n, Out* out, Workspace workspace,
            ReduceConfig config, cudaStream_t stream) {
  constexpr TypeKey type = type_key_v<In, Out>;
  const ValidatedShape shape = validate_shape(variant, type, op, n, config);
  const VariantInfo& info = shape.variant.info;
  if (n > 0) detail::require_pointer(info, "in", in, alignof(In));
  detail::require_pointer(info, "out", out, alignof(Out));
  if (n == 0) {
    detail::write_empty_reduce_result(type, op, out, stream);
    return;
  }
  const detail::ReduceEntry& entry = shape.variant.entry(type, index_of(op));
  detail::require_workspace(info, workspace, entry.workspace_bytes(n, shape.block_size));
  entry.run({shape.variant.id, in, n, out, shape.block_size, workspace, stream});
}

#define KERNELS_INSTANTIATE_REDUCE(key, In, Out, label)                                                        \
  template std::size_t reduce_workspace_bytes<In, Out>(std::string_view, Op, std::uint64_t, ReduceConfig);     \
  template void reduce<In, Out>(std::string_view, Op, const In*, std::uint64_t, Out*, Workspace, ReduceConfig, \
                                cudaStream_t);
KERNELS_FOR_EACH_TYPE(KERNELS_INSTANTIATE_REDUCE)
#undef KERNELS_INSTANTIATE_REDUCE

}  // namespace kernels
