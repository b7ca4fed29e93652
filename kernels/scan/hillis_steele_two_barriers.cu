// Hillis-Steele scan in one shared buffer, two barriers per step.
//
// At step k every thread adds the value 2^k places to its left (O(n log n) work). In one buffer a partner may
// overwrite a slot within the step: the first barrier puts every read before any write, the second every write
// before the next step's reads (dropping the first is the classic race). Alone and under scan-then-fan.
#include <kernels/scan/detail/make_scan_variant.cuh>
#include <kernels/scan/detail/tile_scan.cuh>
#include <kernels/variant/scan.cuh>

namespace kernels::detail {
namespace {

struct HillisSteeleTwoBarriers {
  static constexpr unsigned items_per_thread = 1;

  template <class T>
  static std::size_t shared_bytes(int block_size) {
    return std::size_t(block_size) * sizeof(T);
  }
  static std::uint64_t tile_depth(int block_size) { return log2_exact(block_size); }

  template <ScanKind kind, class OpT, class T>
  __device__ static T scan_tile(const T* in, T* out, unsigned count) {
    T* values = dynamic_shared<T>();
    const OpT op;
    const unsigned tid = threadIdx.x;
    values[tid] = tid < count ? in[tid] : OpT::identity();
    __syncthreads();
    for (unsigned offset = 1; offset < blockDim.x; offset *= 2) {
      const T left = tid >= offset ? values[tid - offset] : OpT::identity();
      __syncthreads();
      values[tid] = op(left, values[tid]);
      __syncthreads();
    }
    if (tid < count) {
      if constexpr (kind == ScanKind::inclusive) {
        out[tid] = values[tid];
      } else {
        out[tid] = tid == 0 ? OpT::identity() : values[tid - 1];
      }
    }
    return values[blockDim.x - 1];
  }
};

}  // namespace

const bool registered = register_variant(make_scan_variant<SingleBlock<HillisSteeleTwoBarriers>>({
    .name = "hillis_steele_two_barriers",
    .description = "Hillis-Steele, one shared buffer, two barriers per step; one block of one value per thread",
    .block_sizes = {2, 1024, 256},
    .deterministic = true,
    .in_place = true,
}));

const bool registered_under_fan = register_variant(make_scan_variant<ScanThenFan<HillisSteeleTwoBarriers>>({
    .name = "scan_then_fan/hillis_steele_two_barriers",
    .description = "scan-then-fan over Hillis-Steele tiles (two barriers per step), any length",
    .block_sizes = {2, 1024, 256},
    .deterministic = true,
    .in_place = true,
}));

}  // namespace kernels::detail
