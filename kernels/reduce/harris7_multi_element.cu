// Harris step 7: multiple elements per thread.
//
// A grid that fills the device (not one block per chunk): each thread strides over the input,
// two values per step as in step 4, folding them serially in registers before the unrolled
// block tree of step 6. Far fewer blocks, far more work per thread; any length.
#include <kernels/reduce/detail/make_reduce_variant.cuh>
#include <kernels/reduce/detail/multi_pass.cuh>
#include <kernels/reduce/detail/unrolled_block_reduce.cuh>
#include <kernels/variant/reduce.cuh>

namespace kernels::detail {
namespace {

template <unsigned BlockSize, class OpT, class In, class Out>
__global__ void multi_element_kernel(const In* in, std::uint64_t count, Out* block_results) {
  Out* values = dynamic_shared<Out>();
  const OpT op;
  const unsigned tid = threadIdx.x;
  const std::uint64_t grid_stride = std::uint64_t(2 * BlockSize) * gridDim.x;
  Out v = OpT::identity();
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * (2 * BlockSize) + tid; i < count; i += grid_stride) {
    v = op(v, Out(in[i]));
    if (i + BlockSize < count) v = op(v, Out(in[i + BlockSize]));
  }
  values[tid] = v;
  __syncthreads();
  v = unrolled_block_reduce<BlockSize>(values, v, op);
  if (tid == 0) block_results[blockIdx.x] = v;
}

struct MultiElement : DeviceFillingGrid<2> {
  static constexpr bool kKeepsOperandOrder = false;  // a thread folds values a grid apart
  template <class OpT, class In, class Out>
  static auto kernel(int block_size) {
    return with_block_size(block_size,
                           [](auto block) { return &multi_element_kernel<decltype(block)::value, OpT, In, Out>; });
  }
};

}  // namespace

const bool registered = register_variant(make_reduce_variant<MultiPass<MultiElement>>({
    .name = "harris7_multi_element",
    .description = "Harris 7: device-filling grid, each thread folds many values, unrolled block tree",
    .block_sizes = {32, 1024, 256},
    .deterministic = true,
}));

}  // namespace kernels::detail
