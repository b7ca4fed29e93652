// CUB's DeviceReduce, registered as a variant: the speed anchor every other variant is measured
// against, and a second oracle on the GPU. It chooses its own launch shape (block_size 0).
// Called with the suite's own op functors, so NaN and signed-zero semantics match the others.
#include <kernels/reduce/detail/make_reduce_variant.cuh>
#include <kernels/reduce/detail/multi_pass.cuh>
#include <kernels/variant/reduce.cuh>

#include <cub/device/device_reduce.cuh>

#include <cstdint>
#include <limits>

namespace kernels::detail {
namespace {

// CUB's offsets follow num_items' type: 32-bit where the length fits, as most callers use.
template <class F>
cudaError_t with_offset_type(std::uint64_t n, F&& f) {
  if (n <= std::uint64_t(std::numeric_limits<std::int32_t>::max())) return f(static_cast<std::int32_t>(n));
  return f(static_cast<std::int64_t>(n));
}

struct CubReduce {
  // cub::DeviceReduce documents that it does not support non-commutative operators.
  static constexpr bool kKeepsOperandOrder = false;
  static std::uint64_t max_length(int) { return std::numeric_limits<std::int64_t>::max(); }

  template <class OpT, class In, class Out>
  static std::size_t workspace_bytes(std::uint64_t n, int) {
    std::size_t bytes = 0;
    check_cuda(with_offset_type(n,
                                [&](auto items) {
                                  return cub::DeviceReduce::Reduce(nullptr, bytes, static_cast<const In*>(nullptr),
                                                                   static_cast<Out*>(nullptr), items, OpT{},
                                                                   OpT::identity());
                                }),
               "cub::DeviceReduce::Reduce (workspace query)");
    return bytes;
  }

  template <class OpT, class In, class Out>
  static void run(const In* in, Out* out, const ReduceCall& call) {
    std::size_t bytes = call.workspace.bytes;
    check_cuda(with_offset_type(call.n,
                                [&](auto items) {
                                  return cub::DeviceReduce::Reduce(call.workspace.data, bytes, in, out, items, OpT{},
                                                                   OpT::identity(), call.stream);
                                }),
               "cub::DeviceReduce::Reduce");
  }

  // CUB's Policy600 (tuning_reduce.cuh): 256 threads x 16 items a tile, folded serially per thread, then a block
  // tree; the single-tile pass folds at most 5 x 8 blocks x multiprocessors partials the same way.
  static std::uint64_t accumulation_depth(std::uint64_t n, int) {
    constexpr std::uint64_t threads = 256, items = 16, tile = threads * items, tree_levels = 8;
    const std::uint64_t blocks = multiprocessor_count();
    const std::uint64_t first_pass = items * ceil_div(ceil_div(n, tile), blocks) + tree_levels;
    const std::uint64_t second_pass = ceil_div(5 * 8 * blocks, threads) + tree_levels;
    return first_pass + second_pass;
  }
};

}  // namespace

const bool registered = register_variant(make_reduce_variant<CubReduce>({
    .name = "cub",
    .description = "cub::DeviceReduce::Reduce with the suite's op functors (speed anchor, second oracle)",
    .block_sizes = BlockSizes::chosen_by_variant(),
    .deterministic = true,
}));

}  // namespace kernels::detail
