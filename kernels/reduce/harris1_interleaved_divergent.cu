// Harris step 1: interleaved addressing with a divergent branch.
//
// At distance s (1, 2, 4, ...) the threads whose index is a multiple of 2s add their partner's value; the
// `%` and the branch that idles most lanes of every warp are what step 2 removes. Out-of-range threads load
// the identity rather than return early, so every thread reaches the __syncthreads().
#include <kernels/reduce/detail/make_reduce_variant.cuh>
#include <kernels/reduce/detail/multi_pass.cuh>
#include <kernels/variant/reduce.cuh>

namespace kernels::detail {
namespace {

template <class OpT, class In, class Out>
__global__ void interleaved_divergent_kernel(const In* in, std::uint64_t count, Out* block_results) {
  Out* values = dynamic_shared<Out>();
  const OpT op;
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + tid;
  values[tid] = i < count ? Out(in[i]) : OpT::identity();
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (tid % (2 * stride) == 0) values[tid] = op(values[tid], values[tid + stride]);
    __syncthreads();
  }
  if (tid == 0) block_results[blockIdx.x] = values[0];
}

struct InterleavedDivergent : OneChunkPerBlock<1> {
  template <class OpT, class In, class Out>
  static auto kernel(int) {
    return &interleaved_divergent_kernel<OpT, In, Out>;
  }
};

}  // namespace

const bool registered = register_variant(make_reduce_variant<MultiPass<InterleavedDivergent>>({
    .name = "harris1_interleaved_divergent",
    .description = "Harris 1: interleaved addressing, modulo test, divergent warps; one value per thread",
    .block_sizes = {2, 1024, 256},
    .deterministic = true,
}));

}  // namespace kernels::detail
