// Modern block reduction through warp shuffles (as in the CUDA samples' cooperative-groups
// reduction): a device-filling grid, each thread folding its strided values in registers, then
// __shfl_down_sync within warps and one shared-memory exchange between them
// (shuffle_block_reduce.cuh). No shared-memory tree.
#include <kernels/reduce/detail/make_reduce_variant.cuh>
#include <kernels/reduce/detail/multi_pass.cuh>
#include <kernels/reduce/detail/shuffle_block_reduce.cuh>
#include <kernels/variant/reduce.cuh>

namespace kernels::detail {
namespace {

template <class OpT, class In, class Out>
__global__ void warp_shuffle_kernel(const In* in, std::uint64_t count, Out* block_results) {
  const OpT op;
  const std::uint64_t grid_stride = std::uint64_t(blockDim.x) * gridDim.x;
  Out v = OpT::identity();
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += grid_stride) {
    v = op(v, Out(in[i]));
  }
  v = block_reduce_shuffle(v, op);
  if (threadIdx.x == 0) block_results[blockIdx.x] = v;
}

struct WarpShuffle : DeviceFillingGrid<1> {
  static constexpr bool kKeepsOperandOrder = false;  // a thread folds values a grid apart
  template <class OpT, class In, class Out>
  static auto kernel(int) {
    return &warp_shuffle_kernel<OpT, In, Out>;
  }
  template <class Out>
  static std::size_t shared_bytes(int) {
    return 0;
  }
};

}  // namespace

const bool registered = register_variant(make_reduce_variant<MultiPass<WarpShuffle>>({
    .name = "warp_shuffle",
    .description = "warp-shuffle block reduction over a device-filling grid-stride loop",
    .block_sizes = {32, 1024, 256},
    .deterministic = true,
}));

}  // namespace kernels::detail
