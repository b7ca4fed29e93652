// Keys as unsigned bits whose unsigned order is the sort order (IEEE 754 totalOrder for floats); a bijection.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>
#include <cuda/type_traits>

namespace kernels::variant {

template <class K>
using ordered_bits_t = cuda::std::conditional_t<
    sizeof(K) == 1, cuda::std::uint8_t,
    cuda::std::conditional_t<sizeof(K) == 2, cuda::std::uint16_t,
                             cuda::std::conditional_t<sizeof(K) == 4, cuda::std::uint32_t, cuda::std::uint64_t>>>;

template <class K>
__host__ __device__ constexpr ordered_bits_t<K> encode_order(K key) {
  using Bits = ordered_bits_t<K>;
  constexpr Bits sign = Bits(1) << (sizeof(K) * 8 - 1);
  const Bits bits = cuda::std::bit_cast<Bits>(key);
  if constexpr (cuda::is_floating_point_v<K>) {
    // Negatives reversed (all bits flipped), below all positives (sign bit set). Branch-free: a
    // negative's sign bit, shifted down and subtracted from zero, is the all-ones mask. (The
    // select form cost the one-sweep sort's float pass 44 bytes of register spills.)
    return bits ^ ((Bits(0) - (bits >> (sizeof(K) * 8 - 1))) | sign);
  } else if constexpr (cuda::std::is_signed_v<K>) {
    return bits ^ sign;
  } else {
    return bits;
  }
}

template <class K>
__host__ __device__ constexpr K decode_order(ordered_bits_t<K> bits) {
  using Bits = ordered_bits_t<K>;
  constexpr Bits sign = Bits(1) << (sizeof(K) * 8 - 1);
  if constexpr (cuda::is_floating_point_v<K>) {
    // encode_order undone: a set sign bit (a positive) is cleared, a clear one (a negative)
    // flips every bit back; the mask is built as in encode_order.
    return cuda::std::bit_cast<K>(Bits(bits ^ (((bits >> (sizeof(K) * 8 - 1)) - Bits(1)) | sign)));
  } else if constexpr (cuda::std::is_signed_v<K>) {
    return cuda::std::bit_cast<K>(Bits(bits ^ sign));
  } else {
    return bits;
  }
}

// a before b in the sort order.
template <class K>
__host__ __device__ constexpr bool ordered_before(K a, K b) {
  return encode_order(a) < encode_order(b);
}

}  // namespace kernels::variant
