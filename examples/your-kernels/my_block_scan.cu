// scan/my_block_scan: an outside project's inclusive scan of up to one block of values: Hillis-Steele over
// shared memory, two buffers, op(left, right) at every step (so it keeps operand order). Int and float only, with
// the suite's operators and the project's own affine_mod16 (affine_mod16.cuh).
#include "affine_mod16.cuh"

#include <kernels/variant/scan.cuh>

#include <array>
#include <bit>
#include <cstdint>

namespace my_project {
namespace {

using namespace kernels;
using namespace kernels::variant;

template <class OpT, class T>
__global__ void block_scan_kernel(const T* in, T* out, unsigned count) {
  T* source = dynamic_shared<T>();
  T* target = source + blockDim.x;
  const OpT op;
  const unsigned tid = threadIdx.x;
  source[tid] = tid < count ? in[tid] : OpT::identity();
  __syncthreads();
  for (unsigned offset = 1; offset < blockDim.x; offset *= 2) {
    target[tid] = tid >= offset ? op(source[tid - offset], source[tid]) : source[tid];
    __syncthreads();
    T* const written = target;
    target = source;
    source = written;
  }
  if (tid < count) out[tid] = source[tid];
}

struct BlockScan {
  static constexpr std::array kTypes{TypeKey::int32, TypeKey::float32};
  static constexpr std::array kKinds{ScanKind::inclusive};
  using Operators = OperatorList<AffineMod16>;
  static std::uint64_t max_length(int block_size) { return std::uint64_t(block_size); }
  static std::uint64_t tile_size(int block_size, TypeKey) { return std::uint64_t(block_size); }

  // Output i is a tree of its prefix: at most ceil(log2(n)) operations on any value's path.
  static std::uint64_t accumulation_depth(std::uint64_t n, int) { return n <= 1 ? 0 : std::bit_width(n - 1); }

  template <ScanKind kind, class OpT, class T>
  static std::size_t workspace_bytes(std::uint64_t, int) {
    return 0;
  }

  template <ScanKind kind, class OpT, class T>
  static void run(const T* in, T* out, const ScanCall& call) {
    const KernelLabel label{call.variant_id, type_key_v<T>, name(OpT::kind), "block scan"};
    launch_kernel(label, &block_scan_kernel<OpT, T>, 1, call.block_size, 2 * std::size_t(call.block_size) * sizeof(T),
                  call.stream, in, out, static_cast<unsigned>(call.n));
  }
};

const bool registered = register_variant(make_scan_variant<BlockScan>({
    .name = "my_block_scan",
    .description = "an outside project's inclusive scan of one block: Hillis-Steele in shared memory",
    .block_sizes = {32, 1024, 256},
    .deterministic = true,
}));

}  // namespace
}  // namespace my_project
