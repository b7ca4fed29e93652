#include "device_fill.hpp"

#include <kernels/errors.hpp>
#include <kernels/types.hpp>

#include <cuda/std/bit>
#include <cuda/std/type_traits>
#include <cuda/type_traits>

#include <cstdint>

namespace bench {
namespace {

// splitmix64's finaliser: consecutive indices give unrelated bits.
__device__ std::uint64_t hash_index(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t x = seed + (index + 1) * 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The top bits of `bits`, as many as T has.
template <class T>
__device__ auto top_bits(std::uint64_t bits) {
  using Bits = cuda::std::conditional_t<
      sizeof(T) == 1, std::uint8_t,
      cuda::std::conditional_t<sizeof(T) == 2, std::uint16_t,
                               cuda::std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
  return static_cast<Bits>(bits >> (64 - 8 * sizeof(T)));
}

template <class T>
__device__ T value_from_bits(std::uint64_t bits, Values values) {
  if constexpr (cuda::is_floating_point_v<T>) {
    if (values == Values::random_bits) return cuda::std::bit_cast<T>(top_bits<T>(bits));
    return static_cast<T>(static_cast<float>(static_cast<std::int32_t>(bits >> 32)) * 0x1p-31f);  // [-1, 1)
  } else {
    return static_cast<T>(top_bits<T>(bits));
  }
}

template <class T>
__global__ void fill_kernel(T* data, std::uint64_t count, Values values, std::uint64_t seed) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    data[i] = value_from_bits<T>(hash_index(seed, i), values);
  }
}

}  // namespace

template <class T>
void fill_device(T* data, std::uint64_t count, Values values, std::uint64_t seed, cudaStream_t stream) {
  if (count == 0) return;
  constexpr unsigned kBlock = 256, kMaxBlocks = 8192;  // grid-stride beyond 2M elements
  const std::uint64_t blocks = (count + kBlock - 1) / kBlock;
  const unsigned grid = blocks < kMaxBlocks ? unsigned(blocks) : kMaxBlocks;
  fill_kernel<T><<<grid, kBlock, 0, stream>>>(data, count, values, seed);
  kernels::check_cuda(cudaGetLastError(), "fill_kernel (benchmark input)");
}

#define BENCH_INSTANTIATE_FILL(key, T, out, label) \
  template void fill_device<T>(T*, std::uint64_t, Values, std::uint64_t, cudaStream_t);
KERNELS_FOR_EACH_ELEMENT_TYPE(BENCH_INSTANTIATE_FILL)
#undef BENCH_INSTANTIATE_FILL

}  // namespace bench
