// Harris step 4: first add during load.
//
// Each thread loads two values, blockDim apart, and combines them before the tree, so a block
// covers 2·blockDim values and half as many blocks run. Both loads are bounds-checked: on a
// ragged length the second value of the last block's threads lies past the end. The grid is
// sized for two values per thread (OneChunkPerBlock<2>).
#include <kernels/reduce/detail/make_reduce_variant.cuh>
#include <kernels/reduce/detail/multi_pass.cuh>
#include <kernels/variant/reduce.cuh>

namespace kernels::detail {
namespace {

template <class OpT, class In, class Out>
__global__ void first_add_during_load_kernel(const In* in, std::uint64_t count, Out* block_results) {
  Out* values = dynamic_shared<Out>();
  const OpT op;
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t(blockIdx.x) * (2 * blockDim.x) + tid;
  Out v = i < count ? Out(in[i]) : OpT::identity();
  if (i + blockDim.x < count) v = op(v, Out(in[i + blockDim.x]));
  values[tid] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) values[tid] = v = op(v, values[tid + stride]);
    __syncthreads();
  }
  if (tid == 0) block_results[blockIdx.x] = v;
}

struct FirstAddDuringLoad : OneChunkPerBlock<2> {
  static constexpr bool kKeepsOperandOrder = false;  // x[i] meets x[i + blockDim.x], then sequential addressing
  template <class OpT, class In, class Out>
  static auto kernel(int) {
    return &first_add_during_load_kernel<OpT, In, Out>;
  }
};

}  // namespace

const bool registered = register_variant(make_reduce_variant<MultiPass<FirstAddDuringLoad>>({
    .name = "harris4_first_add_during_load",
    .description = "Harris 4: two values per thread combined during the load, then sequential addressing",
    .block_sizes = {1, 1024, 256},
    .deterministic = true,
}));

}  // namespace kernels::detail
