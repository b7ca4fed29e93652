// What the harness asks of an element type, for every type of kernels/include/kernels/types.hpp.
// std's traits and <cmath> do not know __half and __nv_bfloat16, and those convert to a wider
// type only through float (their conversions to every integer type make a direct one
// ambiguous); libcu++'s traits, limits and classification functions know all of them.
#pragma once

#include "harness/numeric/host_device.hpp"

#include <kernels/types.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda/std/cmath>
#include <cuda/std/limits>
#include <cuda/type_traits>

#include <bit>
#include <cstdint>
#include <type_traits>

namespace harness {

// float, double, __half and __nv_bfloat16.
template <class T>
inline constexpr bool is_float_v = cuda::is_floating_point_v<T>;

// The float element types, for the explicit instantiations of the float judges (an explicit
// instantiation cannot be made conditional on a type list's entries). Checked against the one
// list, kernels/include/kernels/types.hpp: a float type added there and not here fails to compile.
#define HARNESS_FOR_EACH_FLOAT(X) X(__half) X(__nv_bfloat16) X(float) X(double)
#define HARNESS_COUNT_FLOAT_KEY(key, in, out, label) +(is_float_v<in> ? 1 : 0)
#define HARNESS_COUNT_LISTED_FLOAT(T) +(is_float_v<T> ? 1 : 0)
static_assert((0 KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_COUNT_FLOAT_KEY)) ==
                  (0 HARNESS_FOR_EACH_FLOAT(HARNESS_COUNT_LISTED_FLOAT)),
              "HARNESS_FOR_EACH_FLOAT must name every float type of kernels/include/kernels/types.hpp");
#undef HARNESS_COUNT_FLOAT_KEY
#undef HARNESS_COUNT_LISTED_FLOAT

// __half and __nv_bfloat16: stored in 16 bits, computed with on the host through float.
template <class T>
inline constexpr bool is_half_float_v = is_float_v<T> && sizeof(T) == 2;

template <class T>
using limits = cuda::std::numeric_limits<T>;

// The unsigned integer of T's width, and T's bits in it.
template <class T>
using bits_t = std::conditional_t<sizeof(T) == 1, std::uint8_t,
                                  std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                                     std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
template <class T>
bits_t<T> bits_of(T value) {
  return std::bit_cast<bits_t<T>>(value);
}

// The value as a double: exact for every element type but 64-bit integers beyond 2^53.
template <class T>
HARNESS_HOST_DEVICE double as_double(T value) {
  if constexpr (is_half_float_v<T>) {
    return static_cast<double>(static_cast<float>(value));
  } else {
    return static_cast<double>(value);
  }
}

// x rounded to T (to nearest, ties to even, as one IEEE conversion; the same on the device).
template <class T>
HARNESS_HOST_DEVICE T from_double(double x) {
  return static_cast<T>(x);
}

// -x with x's bits but the sign: on the host a 16-bit float's minus goes through float, which
// turns a NaN into the positive canonical one.
template <class T>
T negated(T value) {
  return std::bit_cast<T>(static_cast<bits_t<T>>(bits_of(value) ^ (bits_t<T>(1) << (8 * sizeof(T) - 1))));
}

template <class T>
bool is_nan(T value) {
  if constexpr (is_float_v<T>) {
    return cuda::std::isnan(value);
  } else {
    return false;
  }
}

// Equal as the suite compares results: integers by value, floats by bits except that every NaN
// equals every other (operators need not keep a particular payload).
template <class T>
bool same_value(T a, T b) {
  if constexpr (is_float_v<T>) {
    if (is_nan(a) || is_nan(b)) return is_nan(a) && is_nan(b);
    return bits_of(a) == bits_of(b);
  } else {
    return a == b;
  }
}

}  // namespace harness
