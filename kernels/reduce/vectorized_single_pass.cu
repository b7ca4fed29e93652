// Single-pass vectorised reduction.
//
// One launch reads the input once: a device-filling grid of threads strides over it in 16-byte
// vectors (four in flight per thread), each block reduces through shuffles and writes one
// partial result; the last block to finish, found with a device-scope atomic ticket, reduces
// the partials in a fixed order, so the result is bitwise deterministic whatever the order in
// which blocks finish. Values before the first 16-byte boundary (`in` need only be aligned to
// its element) and after the last whole vector are folded in by the first threads.
#include <kernels/reduce/detail/make_reduce_variant.cuh>
#include <kernels/reduce/detail/multi_pass.cuh>
#include <kernels/reduce/detail/shuffle_block_reduce.cuh>
#include <kernels/variant/reduce.cuh>

#include <cuda/atomic>

#include <bit>
#include <cstdint>

namespace kernels::detail {
namespace {

template <class T>
struct alignas(16) Vector16 {
  static constexpr int size = 16 / sizeof(T);
  T lanes[size];
};

template <class OpT, class Out, class In>
__device__ Out fold_vector(Out acc, const Vector16<In>& vector, const OpT& op) {
#pragma unroll
  for (int lane = 0; lane < Vector16<In>::size; ++lane) acc = op(acc, Out(vector.lanes[lane]));
  return acc;
}

template <class OpT, class In, class Out>
__global__ void vectorized_single_pass_kernel(const In* in, std::uint64_t n, Out* block_results, unsigned* blocks_done,
                                              Out* out) {
  using Vector = Vector16<In>;
  const OpT op;
  const std::uint64_t misalignment = reinterpret_cast<std::uintptr_t>(in) % sizeof(Vector);
  const std::uint64_t to_boundary = misalignment == 0 ? 0 : (sizeof(Vector) - misalignment) / sizeof(In);
  const std::uint64_t head = to_boundary < n ? to_boundary : n;
  const std::uint64_t vectors = (n - head) / Vector::size;
  const std::uint64_t tail = head + vectors * Vector::size;
  const Vector* body = reinterpret_cast<const Vector*>(in + head);

  const std::uint64_t thread = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  Out acc = OpT::identity();
  std::uint64_t v = thread;
  for (; v + 3 * stride < vectors; v += 4 * stride) {
    const Vector a = body[v], b = body[v + stride], c = body[v + 2 * stride], d = body[v + 3 * stride];
    acc = fold_vector(fold_vector(fold_vector(fold_vector(acc, a, op), b, op), c, op), d, op);
  }
  for (; v < vectors; v += stride) acc = fold_vector(acc, body[v], op);
  if (thread < head) acc = op(acc, Out(in[thread]));
  if (tail + thread < n) acc = op(acc, Out(in[tail + thread]));

  acc = block_reduce_shuffle(acc, op);
  __shared__ bool last_block;
  if (threadIdx.x == 0) {
    block_results[blockIdx.x] = acc;
    // Release publishes this block's result before its ticket; the acquire of the block that
    // draws the last ticket makes every result visible to it (and, through the barrier below,
    // to all its threads).
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> done(*blocks_done);
    last_block = done.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block) return;
  acc = OpT::identity();
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) acc = op(acc, block_results[b]);
  acc = block_reduce_shuffle(acc, op);
  if (threadIdx.x == 0) *out = acc;
}

struct VectorizedSinglePass {
  static constexpr bool kKeepsOperandOrder = false;  // a thread folds vectors a grid apart, then the head and tail
  static std::uint64_t max_length(int) { return std::numeric_limits<std::int64_t>::max(); }

  static std::uint64_t vector_values(TypeKey type) {
    return visit_type(type, [](auto in, auto) { return std::uint64_t(Vector16<decltype(in)>::size); });
  }
  // One step of a block: a vector per thread.
  static std::uint64_t tile_size(int block_size, TypeKey type) { return block_size * vector_values(type); }

  // Workspace: the ticket counter, then one result per block.
  template <class OpT, class In, class Out>
  static std::size_t workspace_bytes(std::uint64_t, int block_size) {
    return align_up(sizeof(unsigned)) + std::size_t(device_filling_grid(block_size)) * sizeof(Out);
  }

  template <class OpT, class In, class Out>
  static void run(const In* in, Out* out, const ReduceCall& call) {
    auto* blocks_done = static_cast<unsigned*>(call.workspace.data);
    auto* block_results = reinterpret_cast<Out*>(static_cast<char*>(call.workspace.data) + align_up(sizeof(unsigned)));
    check_cuda(cudaMemsetAsync(blocks_done, 0, sizeof(unsigned), call.stream), "cudaMemsetAsync(ticket counter)");
    const KernelLabel label{call.variant_id, type_key_v<In, Out>, name(OpT::kind), "single pass"};
    launch_kernel(label, &vectorized_single_pass_kernel<OpT, In, Out>, device_filling_grid(call.block_size),
                  call.block_size, 0, call.stream, in, call.n, block_results, blocks_done, out);
  }

  // A thread folds whole vectors: at most ceil(n / threads) values plus one vector's lanes less
  // one (16 for 1-byte types, 8 for half), a head and a tail value; then the block tree. The
  // last block folds ceil(grid / block) results per thread and runs its own tree.
  static std::uint64_t accumulation_depth(std::uint64_t n, int block_size) {
    constexpr std::uint64_t kMostLanes = 16;
    const std::uint64_t grid = device_filling_grid(block_size);
    const auto tree_levels = static_cast<std::uint64_t>(std::countr_zero(static_cast<unsigned>(block_size)));
    const std::uint64_t per_thread = ceil_div(n, grid * block_size) + (kMostLanes - 1) + 2;
    return per_thread + tree_levels + ceil_div(grid, block_size) + tree_levels;
  }
};

}  // namespace

const bool registered = register_variant(make_reduce_variant<VectorizedSinglePass>({
    .name = "vectorized_single_pass",
    .description = "one pass of 16-byte loads over a device-filling grid, last block finishes in fixed order",
    .block_sizes = {32, 1024, 256},
    .deterministic = true,
    .cross_block = true,
}));

}  // namespace kernels::detail
