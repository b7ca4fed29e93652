// The reduction family's registry: every variant, in the order kcheck --list shows them.
// Registering a variant is one declaration and one entry here; every generic test, property
// and kcheck then covers it.
#include <kernels/reduce/detail/reduce_variant.hpp>

namespace kernels::detail {

const ReduceVariant& reduce_harris1_interleaved_divergent();
const ReduceVariant& reduce_harris2_interleaved_strided();
const ReduceVariant& reduce_harris3_sequential();
const ReduceVariant& reduce_harris4_first_add_during_load();
const ReduceVariant& reduce_harris5_unroll_last_warp();
const ReduceVariant& reduce_harris6_complete_unroll();
const ReduceVariant& reduce_harris7_multi_element();
const ReduceVariant& reduce_warp_shuffle();
const ReduceVariant& reduce_vectorized_single_pass();
const ReduceVariant& reduce_cub();

const std::vector<const ReduceVariant*>& reduce_variants() {
  static const std::vector<const ReduceVariant*> variants{
      &reduce_harris1_interleaved_divergent(),
      &reduce_harris2_interleaved_strided(),
      &reduce_harris3_sequential(),
      &reduce_harris4_first_add_during_load(),
      &reduce_harris5_unroll_last_warp(),
      &reduce_harris6_complete_unroll(),
      &reduce_harris7_multi_element(),
      &reduce_warp_shuffle(),
      &reduce_vectorized_single_pass(),
      &reduce_cub(),
  };
  return variants;
}

}  // namespace kernels::detail
