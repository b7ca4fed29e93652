// Harris step 3: sequential addressing.
//
// At each level the lower half of the active threads adds the upper half (distance s = half the
// remaining values), so a warp reads consecutive words: no bank conflicts. Half the threads idle
// from the first level on, which step 4 addresses.
#include <kernels/reduce/detail/make_reduce_variant.cuh>
#include <kernels/reduce/detail/multi_pass.cuh>
#include <kernels/variant/reduce.cuh>

namespace kernels::detail {
namespace {

template <class OpT, class In, class Out>
__global__ void sequential_kernel(const In* in, std::uint64_t count, Out* block_results) {
  Out* values = dynamic_shared<Out>();
  const OpT op;
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + tid;
  values[tid] = i < count ? Out(in[i]) : OpT::identity();
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) values[tid] = op(values[tid], values[tid + stride]);
    __syncthreads();
  }
  if (tid == 0) block_results[blockIdx.x] = values[0];
}

struct Sequential : OneChunkPerBlock<1> {
  static constexpr bool kKeepsOperandOrder = false;  // x[tid] meets x[tid + stride], not its neighbour
  template <class OpT, class In, class Out>
  static auto kernel(int) {
    return &sequential_kernel<OpT, In, Out>;
  }
};

}  // namespace

const bool registered = register_variant(make_reduce_variant<MultiPass<Sequential>>({
    .name = "harris3_sequential",
    .description = "Harris 3: sequential addressing, conflict-free, half the threads idle at once",
    .block_sizes = {2, 1024, 256},
    .deterministic = true,
}));

}  // namespace kernels::detail
