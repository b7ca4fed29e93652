// CUB's DeviceScan, registered as a variant: the speed anchor and a second oracle. It chooses its own launch
// shape (block_size 0) and uses CUB's tuned sum (::cuda::std::plus) for sums. Exclusive scans start from the
// identity (-0.0 for a float sum), so that exclusive[i] equals inclusive[i-1] bit for bit; a float sum's element
// 0 is then set to +0.0. Like every decoupled look-back scan, float results are not bitwise deterministic.
#include <kernels/scan/detail/make_scan_variant.cuh>
#include <kernels/scan/detail/tile_scan.cuh>
#include <kernels/variant/scan.cuh>

#include <cub/device/device_scan.cuh>

#include <cuda/std/functional>

namespace kernels::detail {
namespace {

template <class F>
cudaError_t with_offset_type(std::uint64_t n, F&& f) {
  if (n <= std::uint64_t(std::numeric_limits<std::int32_t>::max())) return f(static_cast<std::int32_t>(n));
  return f(static_cast<std::int64_t>(n));
}

template <class T>
__global__ void write_value_kernel(T* out, T value) {
  *out = value;
}

// Sums through CUB's tuned InclusiveSum and ::cuda::std::plus; other operators through
// InclusiveScan and ExclusiveScan, which keep the operands' order.
template <ScanKind kind, class OpT, class T>
cudaError_t cub_scan(void* workspace, std::size_t& bytes, const T* in, T* out, std::uint64_t n, cudaStream_t stream) {
  constexpr bool sum = OpT::kind == Op::sum;
  return with_offset_type(n, [&](auto items) {
    if constexpr (kind == ScanKind::inclusive && sum) {
      return cub::DeviceScan::InclusiveSum(workspace, bytes, in, out, items, stream);
    } else if constexpr (kind == ScanKind::inclusive) {
      return cub::DeviceScan::InclusiveScan(workspace, bytes, in, out, OpT{}, items, stream);
    } else if constexpr (sum) {
      return cub::DeviceScan::ExclusiveScan(workspace, bytes, in, out, ::cuda::std::plus<>{}, OpT::identity(), items,
                                            stream);
    } else {
      return cub::DeviceScan::ExclusiveScan(workspace, bytes, in, out, OpT{}, OpT::identity(), items, stream);
    }
  });
}

struct CubScan {
  // CUB's sm_90 tiles for sums (tuning_scan.cuh), by width alone: 512 x 12 values of 2 bytes,
  // 128 x 24 of 4, 224 x 24 of 8.
  static std::uint64_t tile_size(int, TypeKey type) {
    switch (visit_type(type, [](auto value, auto) { return sizeof(value); })) {
      case 2: return 512 * 12;
      case 8: return 224 * 24;
      default: return 128 * 24;
    }
  }
  static std::uint64_t max_length(int) { return std::numeric_limits<std::int64_t>::max(); }

  template <ScanKind kind, class OpT, class T>
  static std::size_t workspace_bytes(std::uint64_t n, int) {
    std::size_t bytes = 0;
    check_cuda(cub_scan<kind, OpT, T>(nullptr, bytes, nullptr, nullptr, n, nullptr),
               "cub::DeviceScan (workspace query)");
    return bytes;
  }

  template <ScanKind kind, class OpT, class T>
  static void run(const T* in, T* out, const ScanCall& call) {
    std::size_t bytes = call.workspace.bytes;
    check_cuda(cub_scan<kind, OpT, T>(call.workspace.data, bytes, in, out, call.n, call.stream), "cub::DeviceScan");
    if constexpr (kind == ScanKind::exclusive && OpT::kind == Op::sum && !std::is_integral_v<T>) {
      const KernelLabel label{call.variant_id, type_key_v<T>, name(kind), "empty prefix"};
      launch_kernel(label, &write_value_kernel<T>, 1, 1, 0, call.stream, out, empty_result<Op::sum, T>());
    }
  }

  // CUB's sm_90 tuning (tuning_scan.cuh): tiles of >= 128 threads x 8 items, <= 24 serial items a thread, then
  // the block scan; tile prefixes chain through the look-back (7 roundings per earlier tile at most).
  static std::uint64_t accumulation_depth(std::uint64_t n, int) {
    const std::uint64_t tiles = ceil_div(n, 128 * 8);
    return 2 * (24 + 2 * 10 + 2) + 2 + 7 * tiles;
  }
};

}  // namespace

const bool registered = register_variant(make_scan_variant<CubScan>({
    .name = "cub",
    .description = "cub::DeviceScan (sums: InclusiveSum; other ops: InclusiveScan; ExclusiveScan from the identity)",
    .block_sizes = BlockSizes::chosen_by_variant(),
    .deterministic = false,
    .cross_block = true,
    .in_place = true,
}));

}  // namespace kernels::detail
