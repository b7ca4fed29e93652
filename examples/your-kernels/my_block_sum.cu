// reduce/my_block_sum: an outside project's reduction, judged by the installed suite (docs/your-kernels.md).
// Each thread folds its grid-strided values, the block halves them in shared memory, and MultiPass repeats the
// kernel over the blocks' sums until one is left. Sums of int and float only; out of input order.
#include <kernels/variant/reduce.cuh>

#include <array>
#include <cstdint>

namespace my_project {
namespace {

using namespace kernels;
using namespace kernels::variant;

template <class OpT, class In, class Out>
__global__ void block_sum_kernel(const In* in, std::uint64_t count, Out* block_results) {
  Out* values = dynamic_shared<Out>();
  const OpT op;
  const unsigned tid = threadIdx.x;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  Out v = OpT::identity();
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + tid; i < count; i += stride) v = op(v, Out(in[i]));
  values[tid] = v;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (tid < half) values[tid] = v = op(v, values[tid + half]);
    __syncthreads();
  }
  if (tid == 0) block_results[blockIdx.x] = v;
}

struct BlockSumBlock : DeviceFillingGrid<1> {
  template <class OpT, class In, class Out>
  static auto kernel(int) {
    return &block_sum_kernel<OpT, In, Out>;
  }
};

struct BlockSum : MultiPass<BlockSumBlock> {
  static constexpr std::array kTypes{TypeKey::int32, TypeKey::float32};
  static constexpr std::array kOps{Op::sum};
  static constexpr bool kKeepsOperandOrder = false;  // a thread folds values a grid apart
};

const bool registered = register_variant(make_reduce_variant<BlockSum>({
    .name = "my_block_sum",
    .description = "an outside project's sum: grid-stride fold, shared-memory tree, multi-pass",
    .block_sizes = {32, 1024, 256},
    .deterministic = true,
}));

}  // namespace
}  // namespace my_project
