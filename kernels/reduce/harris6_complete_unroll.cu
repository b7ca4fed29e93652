// Harris step 6: completely unrolled.
//
// Step 5 with the block size a template parameter: the whole tree is unrolled at compile time
// (unrolled_block_reduce.cuh) and the run-time block size selects the instantiation.
#include <kernels/reduce/detail/make_reduce_variant.cuh>
#include <kernels/reduce/detail/multi_pass.cuh>
#include <kernels/reduce/detail/unrolled_block_reduce.cuh>
#include <kernels/variant/reduce.cuh>

namespace kernels::detail {
namespace {

template <unsigned BlockSize, class OpT, class In, class Out>
__global__ void complete_unroll_kernel(const In* in, std::uint64_t count, Out* block_results) {
  Out* values = dynamic_shared<Out>();
  const OpT op;
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t(blockIdx.x) * (2 * BlockSize) + tid;
  Out v = i < count ? Out(in[i]) : OpT::identity();
  if (i + BlockSize < count) v = op(v, Out(in[i + BlockSize]));
  values[tid] = v;
  __syncthreads();
  v = unrolled_block_reduce<BlockSize>(values, v, op);
  if (tid == 0) block_results[blockIdx.x] = v;
}

struct CompleteUnroll : OneChunkPerBlock<2> {
  static constexpr bool kKeepsOperandOrder = false;  // step 4's order: x[i] meets x[i + blockDim.x]
  template <class OpT, class In, class Out>
  static auto kernel(int block_size) {
    return with_block_size(block_size,
                           [](auto block) { return &complete_unroll_kernel<decltype(block)::value, OpT, In, Out>; });
  }
};

}  // namespace

const bool registered = register_variant(make_reduce_variant<MultiPass<CompleteUnroll>>({
    .name = "harris6_complete_unroll",
    .description = "Harris 6: step 5 with the tree unrolled at compile time for each block size",
    .block_sizes = {32, 1024, 256},
    .deterministic = true,
}));

}  // namespace kernels::detail
