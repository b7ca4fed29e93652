// The naive scan: every output sums its own prefix.
//
// Thread i adds in[0..i] (inclusive) or in[0..i) (exclusive) one by one: O(n^2) work, no
// cooperation, no barriers, any number of blocks. The quadratic work limits it to 2^16 values
// (about 2 * 10^9 additions). Threads read inputs that others overwrite, so it is not in-place.
#include <kernels/scan/detail/make_scan_variant.cuh>
#include <kernels/scan/detail/tile_scan.cuh>
#include <kernels/variant/scan.cuh>

namespace kernels::detail {
namespace {

template <ScanKind kind, class OpT, class T>
__global__ void naive_scan_kernel(const T* in, T* out, std::uint64_t n) {
  const OpT op;
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint64_t end = kind == ScanKind::inclusive ? i + 1 : i;
  T sum = OpT::identity();
  for (std::uint64_t j = 0; j < end; ++j) sum = op(sum, in[j]);
  out[i] = end == 0 ? empty_result<OpT::kind, T>() : sum;  // a sum's empty prefix is +0.0, not -0.0
}

struct Naive {
  static std::uint64_t tile_size(int block_size, TypeKey) { return std::uint64_t(block_size); }
  static std::uint64_t max_length(int) { return std::uint64_t(1) << 16; }
  static std::uint64_t accumulation_depth(std::uint64_t n, int) { return n; }

  template <ScanKind kind, class OpT, class T>
  static std::size_t workspace_bytes(std::uint64_t, int) {
    return 0;
  }

  template <ScanKind kind, class OpT, class T>
  static void run(const T* in, T* out, const ScanCall& call) {
    const KernelLabel label{call.variant_id, type_key_v<T>, name(kind), "prefixes"};
    launch_kernel(label, &naive_scan_kernel<kind, OpT, T>, static_cast<unsigned>(ceil_div(call.n, call.block_size)),
                  call.block_size, 0, call.stream, in, out, call.n);
  }
};

}  // namespace

const bool registered = register_variant(make_scan_variant<Naive>({
    .name = "naive",
    .description = "each thread sums its own prefix: O(n^2) work, at most 2^16 values",
    .block_sizes = {32, 1024, 256},
    .deterministic = true,
    .in_place = false,
}));

}  // namespace kernels::detail
