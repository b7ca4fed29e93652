// Scan rows: the inclusive scan of n values, out of place, by the sum or another operator.
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
  static std::size_t workspace_bytes(std::string_view variant, kernels::Op op, std::uint64_t n) {
    return kernels::scan_workspace_bytes<T>(variant, kernels::ScanKind::inclusive, op, n);
  }
  static void run(std::string_view variant, kernels::Op op, const T* in, T* out, std::uint64_t n,
                  kernels::Workspace workspace, cudaStream_t stream) {
    kernels::scan<T>(variant, kernels::ScanKind::inclusive, op, in, n, out, workspace, {}, stream);
  }
};

}  // namespace

// int, long long and float.
void register_scan_rows() { register_family_rows<ScanRows, int, long long, float>(); }

}  // namespace bench
