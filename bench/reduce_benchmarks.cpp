// Reduction rows: n values into one, by the sum or another operator the variant declares.
#include "benchmark_rows.hpp"
#include "families.hpp"

#include <kernels/reduce.hpp>

namespace bench {
namespace {

template <class T>
struct ReduceRows {
  using value_type = T;
  static constexpr kernels::Family family = kernels::Family::reduce;
  static constexpr Values input_values = Values::summable;

  static std::uint64_t outputs(std::uint64_t) { return 1; }
  // One read of the input.
  static double bytes_moved(const kernels::VariantInfo&, std::uint64_t n) { return double(n) * sizeof(T); }
  static std::size_t workspace_bytes(std::string_view variant, kernels::Op op, std::uint64_t n) {
    return kernels::reduce_workspace_bytes<T, T>(variant, op, n);
  }
  static void run(std::string_view variant, kernels::Op op, const T* in, T* out, std::uint64_t n,
                  kernels::Workspace workspace, cudaStream_t stream) {
    kernels::reduce<T, T>(variant, op, in, n, out, workspace, {}, stream);
  }
};

}  // namespace

// int, long long and float, and the ML types: half and bfloat16 (accumulated in their own type).
void register_reduce_rows() { register_family_rows<ReduceRows, int, long long, float, __half, __nv_bfloat16>(); }

}  // namespace bench
