#include <kernels/reduce/detail/reduce_variant.hpp>
#include <kernels/registry.hpp>
#include <kernels/scan/detail/scan_variant.hpp>
#include <kernels/sort/detail/sort_variant.hpp>

#include <algorithm>

namespace kernels {

bool BlockSizes::accepts(int block_size) const {
  if (chosen_by_variant()) return block_size == 0;
  const bool power_of_two = block_size > 0 && (block_size & (block_size - 1)) == 0;
  return power_of_two && block_size >= min && block_size <= max;
}

std::vector<int> BlockSizes::all() const {
  if (chosen_by_variant()) return {0};
  std::vector<int> sizes;
  for (int size = min; size <= max; size *= 2) sizes.push_back(size);
  return sizes;
}

std::string VariantInfo::id() const { return std::string(kernels::name(family)) + "/" + std::string(name); }

bool VariantInfo::supports(TypeKey type) const { return std::find(types.begin(), types.end(), type) != types.end(); }

bool VariantInfo::supports(Op op) const { return std::find(ops.begin(), ops.end(), op) != ops.end(); }

bool VariantInfo::supports(TypeKey type, Op op) const {
  return supports(type) && supports(op) && (!is_widening(type) || op == Op::sum);
}

const std::vector<const VariantInfo*>& all_variants() {
  static const std::vector<const VariantInfo*> variants = [] {
    std::vector<const VariantInfo*> all;
    for (const auto* variant : detail::reduce_variants()) all.push_back(&variant->info);
    for (const auto* variant : detail::scan_variants()) all.push_back(&variant->info);
    for (const auto* variant : detail::sort_variants()) all.push_back(&variant->info);
    return all;
  }();
  return variants;
}

std::vector<const VariantInfo*> variants_of(Family family) {
  std::vector<const VariantInfo*> matching;
  for (const VariantInfo* info : all_variants()) {
    if (info->family == family) matching.push_back(info);
  }
  return matching;
}

const VariantInfo* find_variant(Family family, std::string_view variant_name) {
  for (const VariantInfo* info : all_variants()) {
    if (info->family == family && info->name == variant_name) return info;
  }
  return nullptr;
}

const VariantInfo* find_variant(std::string_view id) {
  const auto slash = id.find('/');
  if (slash == std::string_view::npos) return nullptr;
  const auto family = parse_family(id.substr(0, slash));
  return family ? find_variant(*family, id.substr(slash + 1)) : nullptr;
}

}  // namespace kernels
