// Harris step 2: interleaved addressing with a strided index.
//
// Same pairs as step 1, but at distance s thread t works on index 2·s·t: whole warps work or idle, so no
// divergence and no `%`. The price is bank conflicts (a warp's accesses are 2·s words apart), which step 3
// removes.
#include <kernels/reduce/detail/make_reduce_variant.cuh>
#include <kernels/reduce/detail/multi_pass.cuh>
#include <kernels/variant/reduce.cuh>

namespace kernels::detail {
namespace {

template <class OpT, class In, class Out>
__global__ void interleaved_strided_kernel(const In* in, std::uint64_t count, Out* block_results) {
  Out* values = dynamic_shared<Out>();
  const OpT op;
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + tid;
  values[tid] = i < count ? Out(in[i]) : OpT::identity();
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    const unsigned index = 2 * stride * tid;
    if (index < blockDim.x) values[index] = op(values[index], values[index + stride]);
    __syncthreads();
  }
  if (tid == 0) block_results[blockIdx.x] = values[0];
}

struct InterleavedStrided : OneChunkPerBlock<1> {
  template <class OpT, class In, class Out>
  static auto kernel(int) {
    return &interleaved_strided_kernel<OpT, In, Out>;
  }
};

}  // namespace

const bool registered = register_variant(make_reduce_variant<MultiPass<InterleavedStrided>>({
    .name = "harris2_interleaved_strided",
    .description = "Harris 2: interleaved addressing, strided index, no divergence but bank conflicts",
    .block_sizes = {2, 1024, 256},
    .deterministic = true,
}));

}  // namespace kernels::detail
