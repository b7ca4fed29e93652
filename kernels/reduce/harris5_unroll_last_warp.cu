// Harris step 5: unroll the last warp.
//
// Step 4's load, then the shared-memory tree with barriers only while more than one warp's
// worth of values remains; the first warp finishes without __syncthreads() (last_warp.cuh,
// which synchronises the warp correctly on Volta and later). Needs whole warps: block >= 32.
#include <kernels/reduce/detail/last_warp.cuh>
#include <kernels/reduce/detail/make_reduce_variant.cuh>
#include <kernels/reduce/detail/multi_pass.cuh>
#include <kernels/variant/reduce.cuh>

namespace kernels::detail {
namespace {

template <class OpT, class In, class Out>
__global__ void unroll_last_warp_kernel(const In* in, std::uint64_t count, Out* block_results) {
  Out* values = dynamic_shared<Out>();
  const OpT op;
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t(blockIdx.x) * (2 * blockDim.x) + tid;
  Out v = i < count ? Out(in[i]) : OpT::identity();
  if (i + blockDim.x < count) v = op(v, Out(in[i + blockDim.x]));
  values[tid] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (tid < stride) values[tid] = v = op(v, values[tid + stride]);
    __syncthreads();
  }
  if (tid < 32) {
    if (blockDim.x >= 64) v = last_warp_step(values, v, 32, op);
    v = last_warp_step(values, v, 16, op);
    v = last_warp_step(values, v, 8, op);
    v = last_warp_step(values, v, 4, op);
    v = last_warp_step(values, v, 2, op);
    v = last_warp_step(values, v, 1, op);
  }
  if (tid == 0) block_results[blockIdx.x] = v;
}

struct UnrollLastWarp : OneChunkPerBlock<2> {
  static constexpr bool kKeepsOperandOrder = false;  // step 4's order: x[i] meets x[i + blockDim.x]
  template <class OpT, class In, class Out>
  static auto kernel(int) {
    return &unroll_last_warp_kernel<OpT, In, Out>;
  }
};

}  // namespace

const bool registered = register_variant(make_reduce_variant<MultiPass<UnrollLastWarp>>({
    .name = "harris5_unroll_last_warp",
    .description = "Harris 5: step 4 with the last warp unrolled, __syncwarp() between its steps",
    .block_sizes = {32, 1024, 256},
    .deterministic = true,
}));

}  // namespace kernels::detail
