// Reduction rows: the sum of n values into one.
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
  static std::size_t workspace_bytes(std::string_view variant, std::uint64_t n) {
    return kernels::reduce_workspace_bytes<T, T>(variant, kernels::Op::sum, n);
  }
  static void run(std::string_view variant, const T* in, T* out, std::uint64_t n, kernels::Workspace workspace,
                  cudaStream_t stream) {
    kernels::reduce<T, T>(variant, kernels::Op::sum, in, n, out, workspace, {}, stream);
  }
};

}  // namespace

void register_reduce_rows() { register_family_rows<ReduceRows>(); }

}  // namespace bench
