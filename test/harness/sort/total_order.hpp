// The sort oracle's statement of the order, on the host and the device: integers by value,
// floats by IEEE 754 totalOrder (-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN, NaNs by
// payload), as a signed integer whose comparison is the order. It tells every bit pattern of a
// float apart, so keys equal in the order are equal bit for bit.
#pragma once

#include "harness/input/random_bits.hpp"
#include "harness/numeric/element_traits.hpp"

#include <cuda/std/bit>

#include <type_traits>

namespace harness {

template <class K>
HARNESS_HOST_DEVICE auto total_order_key(K key) {
  if constexpr (is_float_v<K>) {
    using Signed = std::make_signed_t<bits_t<K>>;
    using Unsigned = std::make_unsigned_t<Signed>;
    const auto bits = cuda::std::bit_cast<Signed>(key);
    // Cast before the shift: a 16-bit ~0 would be promoted to the int -1, which shifts to -1.
    const auto magnitude_mask = static_cast<Unsigned>(static_cast<Unsigned>(~Unsigned(0)) >> 1);
    return bits < 0 ? static_cast<Signed>(static_cast<Unsigned>(bits) ^ magnitude_mask) : bits;
  } else {
    return key;
  }
}

}  // namespace harness
