#include "device_fill.hpp"

#include <kernels/errors.hpp>

#include <cstdint>
#include <type_traits>

namespace bench {
namespace {

// splitmix64's finaliser: consecutive indices give unrelated bits.
__device__ std::uint64_t hash_index(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t x = seed + (index + 1) * 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

template <class T>
__device__ T value_from_bits(std::uint64_t bits, Values values) {
  if constexpr (sizeof(T) == 8) {
    return static_cast<T>(bits);
  } else if constexpr (std::is_floating_point_v<T>) {
    const auto high = static_cast<std::uint32_t>(bits >> 32);
    if (values == Values::random_bits) return __uint_as_float(high);
    return static_cast<float>(static_cast<std::int32_t>(high)) * 0x1p-31f;  // [-1, 1)
  } else {
    return static_cast<T>(static_cast<std::uint32_t>(bits >> 32));
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

template void fill_device<int>(int*, std::uint64_t, Values, std::uint64_t, cudaStream_t);
template void fill_device<long long>(long long*, std::uint64_t, Values, std::uint64_t, cudaStream_t);
template void fill_device<float>(float*, std::uint64_t, Values, std::uint64_t, cudaStream_t);

}  // namespace bench
