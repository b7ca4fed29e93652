// Scan rows: the inclusive prefix sum of n values, out of place.
#include "benchmark_rows.hpp"
#include "families.hpp"

#include <kernels/scan.hpp>

namespace bench {
namespace {

template <class T>
struct ScanRows {
  using value_type = T;
  static constexpr kernels::Family family = kernels::Family::scan;
  static constexpr Values input_values = Values::summable;

  static std::uint64_t outputs(std::uint64_t n) { return n; }
  // One read of the input and one write of the output.
  static double bytes_moved(const kernels::VariantInfo&, std::uint64_t n) { return 2.0 * double(n) * sizeof(T); }
  static std::size_t workspace_bytes(std::string_view variant, std::uint64_t n) {
    return kernels::scan_workspace_bytes<T>(variant, kernels::ScanKind::inclusive, n);
  }
  static void run(std::string_view variant, const T* in, T* out, std::uint64_t n, kernels::Workspace workspace,
                  cudaStream_t stream) {
    kernels::scan<T>(variant, kernels::ScanKind::inclusive, in, n, out, workspace, {}, stream);
  }
};

}  // namespace

void register_scan_rows() { register_family_rows<ScanRows>(); }

}  // namespace bench
