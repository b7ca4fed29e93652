// The sort family's host API: find the variant, validate the call completely, then hand it to
// the variant's entry point for its key type and form.
#include <kernels/detail/validate.hpp>
#include <kernels/sort.hpp>
#include <kernels/sort/detail/sort_variant.hpp>

namespace kernels {
namespace {

struct ValidatedShape {
  const detail::SortVariant& variant;
  int block_size;
};

ValidatedShape validate_shape(std::string_view variant_name, TypeKey type, SortForm form, std::uint64_t n,
                              const SortConfig& config) {
  const auto& variant = detail::find_in_family<detail::SortVariant>(Family::sort, variant_name);
  detail::require_type(variant.info, type);
  detail::require_form(variant.info, form);
  const int block_size = detail::require_block_size(variant.info, config.block_size);
  detail::require_length(variant.info, type, n, block_size);
  return {variant, block_size};
}

template <class K>
void run_sort(std::string_view variant, SortForm form, const K* keys_in, K* keys_out, const std::uint32_t* values_in,
              std::uint32_t* values_out, std::uint64_t n, Workspace workspace, SortConfig config, cudaStream_t stream) {
  const ValidatedShape shape = validate_shape(variant, type_key_v<K>, form, n, config);
  const VariantInfo& info = shape.variant.info;
  if (n == 0) return;
  detail::require_pointer(info, "keys_in", keys_in, alignof(K));
  detail::require_pointer(info, "keys_out", keys_out, alignof(K));
  detail::require_disjoint(info, "keys_out", keys_out, keys_in, n * sizeof(K), false);
  if (form == SortForm::pairs) {
    detail::require_pointer(info, "values_in", values_in, alignof(std::uint32_t));
    detail::require_pointer(info, "values_out", values_out, alignof(std::uint32_t));
    detail::require_disjoint(info, "values_out", values_out, values_in, n * sizeof(std::uint32_t), false);
  }
  const detail::SortEntry& entry = shape.variant.entry(type_key_v<K>, index_of(form));
  detail::require_workspace(info, workspace, entry.workspace_bytes(n, shape.block_size));
  entry.run({shape.variant.id, keys_in, keys_out, values_in, values_out, n, shape.block_size, workspace, stream});
}

}  // namespace

template <class K>
std::size_t sort_workspace_bytes(std::string_view variant, SortForm form, std::uint64_t n, SortConfig config) {
  const ValidatedShape shape = validate_shape(variant, type_key_v<K>, form, n, config);
  if (n == 0) return 0;
  return shape.variant.entry(type_key_v<K>, index_of(form)).workspace_bytes(n, shape.block_size);
}

template <class K>
void sort_keys(std::string_view variant, const K* keys_in, K* keys_out, std::uint64_t n, Workspace workspace,
               SortConfig config, cudaStream_t stream) {
  run_sort<K>(variant, SortForm::keys, keys_in, keys_out, nullptr, nullptr, n, workspace, config, stream);
}

template <class K>
void sort_pairs(std::string_view variant, const K* keys_in, K* keys_out, const std::uint32_t* values_in,
                std::uint32_t* values_out, std::uint64_t n, Workspace workspace, SortConfig config,
                cudaStream_t stream) {
  run_sort<K>(variant, SortForm::pairs, keys_in, keys_out, values_in, values_out, n, workspace, config, stream);
}

#define KERNELS_INSTANTIATE_SORT(key, K, out, label)                                                               \
  template std::size_t sort_workspace_bytes<K>(std::string_view, SortForm, std::uint64_t, SortConfig);             \
  template void sort_keys<K>(std::string_view, const K*, K*, std::uint64_t, Workspace, SortConfig, cudaStream_t);  \
  template void sort_pairs<K>(std::string_view, const K*, K*, const std::uint32_t*, std::uint32_t*, std::uint64_t, \
                              Workspace, SortConfig, cudaStream_t);
KERNELS_FOR_EACH_ELEMENT_TYPE(KERNELS_INSTANTIATE_SORT)
#undef KERNELS_INSTANTIATE_SORT

}  // namespace kernels
