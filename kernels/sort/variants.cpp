// The sort family's registry: every variant, in the order kcheck --list shows them.
// Registering a variant is one declaration and one entry here.
#include <kernels/sort/detail/sort_variant.hpp>

namespace kernels::detail {

const SortVariant& sort_odd_even_block();
const SortVariant& sort_odd_even_multi_block();
const SortVariant& sort_bitonic();
const SortVariant& sort_radix_lsd();
const SortVariant& sort_cub();

const std::vector<const SortVariant*>& sort_variants() {
  static const std::vector<const SortVariant*> variants{
      &sort_odd_even_block(),
      &sort_odd_even_multi_block(),
      &sort_bitonic(),
      &sort_radix_lsd(),
      &sort_cub(),
  };
  return variants;
}

}  // namespace kernels::detail
