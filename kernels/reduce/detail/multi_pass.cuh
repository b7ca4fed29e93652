// MultiPass: applies a block-local reduction kernel again to its per-block results until one value
// remains, so every variant built on it takes any length. The block kernel description `K` it takes is in
// docs/kernels.md#reduce; the grid policies below provide most of it.
#pragma once

#include <kernels/detail/declared.hpp>
#include <kernels/detail/device_query.hpp>
#include <kernels/detail/launch.cuh>
#include <kernels/detail/rounding.hpp>
#include <kernels/reduce/detail/reduce_variant.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>

namespace kernels::variant {

// One block per `block_size * PerThread` consecutive values (Harris steps 1 to 6). The grid is
// limited to 2^31 - 1 blocks, which limits the length.
template <unsigned PerThread>
struct OneChunkPerBlock {
  static unsigned grid_for(std::uint64_t count, int block_size) {
    return static_cast<unsigned>(ceil_div(count, std::uint64_t(block_size) * PerThread));
  }
  static std::uint64_t max_length(int block_size) {
    return std::uint64_t(std::numeric_limits<int>::max()) * std::uint64_t(block_size) * PerThread;
  }
  template <class Out>
  static std::size_t shared_bytes(int block_size) {
    return std::size_t(block_size) * sizeof(Out);
  }
};

// A grid that fills the device; each thread strides over the input taking PerStep values per
// step (Harris step 7, the shuffle reduction). Any length.
template <unsigned PerStep>
struct DeviceFillingGrid {
  static unsigned grid_for(std::uint64_t count, int block_size) {
    const std::uint64_t needed = ceil_div(count, std::uint64_t(block_size) * PerStep);
    return static_cast<unsigned>(std::min<std::uint64_t>(needed, device_filling_grid(block_size)));
  }
  static std::uint64_t max_length(int) { return std::numeric_limits<std::int64_t>::max(); }
  template <class Out>
  static std::size_t shared_bytes(int block_size) {
    return std::size_t(block_size) * sizeof(Out);
  }
};

template <class K>
struct MultiPass {
  // Later passes keep the block order, so the order is the block kernel's.
  static constexpr bool kKeepsOperandOrder = detail::keeps_operand_order<K>();
  static std::uint64_t max_length(int block_size) { return K::max_length(block_size); }

  // Values left after the first and the second pass; the passes alternate between two buffers
  // of these sizes (later passes are smaller still), the last pass writes the output.
  template <class OpT, class In, class Out>
  static std::size_t workspace_bytes(std::uint64_t n, int block_size) {
    const std::uint64_t first = K::grid_for(n, block_size);
    if (first <= 1) return 0;
    const std::uint64_t second = K::grid_for(first, block_size);
    return align_up(first * sizeof(Out)) + (second > 1 ? second * sizeof(Out) : 0);
  }

  template <class OpT, class In, class Out>
  static void run(const In* in, Out* out, const ReduceCall& call) {
    const int block = call.block_size;
    const std::uint64_t first = K::grid_for(call.n, block);
    Out* const buffers[2] = {
        static_cast<Out*>(call.workspace.data),
        reinterpret_cast<Out*>(static_cast<char*>(call.workspace.data) + align_up(first * sizeof(Out)))};
    const KernelLabel label{call.variant_id, type_key_v<In, Out>, name(OpT::kind), "pass"};

    unsigned grid = static_cast<unsigned>(first);
    Out* results = grid == 1 ? out : buffers[0];
    launch_kernel(label, K::template kernel<OpT, In, Out>(block), grid, block, K::template shared_bytes<Out>(block),
                  call.stream, in, call.n, results);
    for (int pass = 1; grid > 1; ++pass) {
      const std::uint64_t count = grid;
      const Out* values = results;
      grid = K::grid_for(count, block);
      results = grid == 1 ? out : buffers[pass % 2];
      launch_kernel(label, K::template kernel<OpT, Out, Out>(block), grid, block, K::template shared_bytes<Out>(block),
                    call.stream, values, count, results);
    }
  }

  // Each pass: a thread folds up to ceil(count / threads) values in sequence, then the block's
  // tree adds log2(block_size) levels.
  static std::uint64_t accumulation_depth(std::uint64_t n, int block_size) {
    const auto tree_levels = static_cast<std::uint64_t>(std::countr_zero(static_cast<unsigned>(block_size)));
    std::uint64_t depth = 0;
    std::uint64_t count = n;
    if (n <= 1) return 0;
    do {
      const unsigned grid = K::grid_for(count, block_size);
      depth += ceil_div(count, std::uint64_t(grid) * block_size) - 1 + tree_levels;
      count = grid;
    } while (count > 1);
    return depth;
  }
};

}  // namespace kernels::variant
