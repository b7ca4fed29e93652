// Hillis-Steele scan with a double buffer, one barrier per step.
//
// As the two-barrier version, but each step reads one buffer and writes the other, so reads and
// writes of a step never touch the same slot and one barrier (before the next step's reads)
// suffices. Twice the shared memory.
//
// Registered alone (one block: lengths up to blockDim) and under scan-then-fan (any length).
#include <kernels/scan/detail/make_scan_variant.cuh>
#include <kernels/scan/detail/tile_scan.cuh>
#include <kernels/variant/scan.cuh>

namespace kernels::detail {
namespace {

struct HillisSteeleDoubleBuffer {
  static constexpr unsigned items_per_thread = 1;

  template <class T>
  static std::size_t shared_bytes(int block_size) {
    return 2 * std::size_t(block_size) * sizeof(T);
  }
  static std::uint64_t tile_depth(int block_size) { return log2_exact(block_size); }

  template <ScanKind kind, class OpT, class T>
  __device__ static T scan_tile(const T* in, T* out, unsigned count) {
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
    if (tid < count) {
      if constexpr (kind == ScanKind::inclusive) {
        out[tid] = source[tid];
      } else {
        out[tid] = tid == 0 ? OpT::identity() : source[tid - 1];
      }
    }
    return source[blockDim.x - 1];
  }
};

}  // namespace

const bool registered = register_variant(make_scan_variant<SingleBlock<HillisSteeleDoubleBuffer>>({
    .name = "hillis_steele_double_buffer",
    .description = "Hillis-Steele with two shared buffers, one barrier per step; one block of one value per thread",
    .block_sizes = {2, 1024, 256},
    .deterministic = true,
    .in_place = true,
}));

const bool registered_under_fan = register_variant(make_scan_variant<ScanThenFan<HillisSteeleDoubleBuffer>>({
    .name = "scan_then_fan/hillis_steele_double_buffer",
    .description = "scan-then-fan over double-buffered Hillis-Steele tiles, any length",
    .block_sizes = {2, 1024, 256},
    .deterministic = true,
    .in_place = true,
}));

}  // namespace kernels::detail
