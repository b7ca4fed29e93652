// The scan family's registry: every variant, in the order kcheck --list shows them.
// Registering a variant is one declaration and one entry here.
#include <kernels/scan/detail/scan_variant.hpp>

namespace kernels::detail {

const std::vector<const ScanVariant*>& scan_variants() {
  static const std::vector<const ScanVariant*> variants{};
  return variants;
}

}  // namespace kernels::detail
