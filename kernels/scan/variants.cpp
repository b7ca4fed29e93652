// The scan family's registry: every variant, in the order kcheck --list shows them (the ladder
// from the naive scan to the single-pass one, then CUB). Registering a variant is one
// declaration and one entry here.
#include <kernels/scan/detail/scan_variant.hpp>

namespace kernels::detail {

const ScanVariant& scan_naive();
const ScanVariant& scan_hillis_steele_two_barriers();
const ScanVariant& scan_hillis_steele_double_buffer();
const ScanVariant& scan_blelloch_plain();
const ScanVariant& scan_blelloch_padded();
const ScanVariant& scan_warp_shuffle();
const ScanVariant& scan_then_fan_hillis_steele_two_barriers();
const ScanVariant& scan_then_fan_hillis_steele_double_buffer();
const ScanVariant& scan_then_fan_blelloch_plain();
const ScanVariant& scan_then_fan_blelloch_padded();
const ScanVariant& scan_then_fan_warp_shuffle();
const ScanVariant& scan_decoupled_lookback();
const ScanVariant& scan_cub();

const std::vector<const ScanVariant*>& scan_variants() {
  static const std::vector<const ScanVariant*> variants{
      &scan_naive(),
      &scan_hillis_steele_two_barriers(),
      &scan_hillis_steele_double_buffer(),
      &scan_blelloch_plain(),
      &scan_blelloch_padded(),
      &scan_warp_shuffle(),
      &scan_then_fan_hillis_steele_two_barriers(),
      &scan_then_fan_hillis_steele_double_buffer(),
      &scan_then_fan_blelloch_plain(),
      &scan_then_fan_blelloch_padded(),
      &scan_then_fan_warp_shuffle(),
      &scan_decoupled_lookback(),
      &scan_cub(),
  };
  return variants;
}

}  // namespace kernels::detail
