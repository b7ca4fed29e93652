// Value i of an input of each distribution (input/distributions.hpp), a pure function of
// (distribution, n, seed, i), the same on the host and on the device: the host generates its
// inputs from it, and the device makes long ones itself (input/device_inputs.hpp), bit for bit
// the values the host would make. `sorted` and `reverse` are the `random` values before the
// host sorts them.
#pragma once

#include "harness/input/distributions.hpp"
#include "harness/input/random_bits.hpp"
#include "harness/numeric/element_traits.hpp"

#include <cuda/std/bit>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <cstdint>

namespace harness::distribution_detail {

// Uniform in [0, 1) with the full precision of T (exact in a double, and in T).
template <class T>
HARNESS_HOST_DEVICE double unit_interval(std::uint64_t bits) {
  constexpr int digits = limits<T>::digits;
  return static_cast<double>(bits >> (64 - digits)) / static_cast<double>(std::uint64_t(1) << digits);
}

template <class T>
HARNESS_HOST_DEVICE T random_value(std::uint64_t bits) {
  if constexpr (cuda::std::is_integral_v<T>) {
    return static_cast<T>(bits);
  } else {
    return from_double<T>(unit_interval<T>(bits) * 2 - 1);
  }
}

template <class T>
HARNESS_HOST_DEVICE T negative_value(std::uint64_t bits) {
  if constexpr (cuda::std::is_integral_v<T>) {
    using U = cuda::std::make_unsigned_t<T>;
    constexpr U sign = U(1) << (limits<U>::digits - 1);
    return static_cast<T>(static_cast<U>(bits) | sign);
  } else {
    return from_double<T>(-(1 - unit_interval<T>(bits)));  // in [-1, 0)
  }
}

// Every digit value at every position: byte b of value i is (i * m_b + a_b) mod 256 with odd m_b,
// a permutation of the 256 byte values over any 256 consecutive indices.
template <class T>
HARNESS_HOST_DEVICE T every_digit_value(std::uint64_t seed, std::uint64_t i) {
  bits_t<T> value = 0;
  const std::uint64_t digit_seed = derive_seed(seed, 3);
  for (unsigned b = 0; b < sizeof(T); ++b) {
    const std::uint64_t salt = random_bits(digit_seed, b);
    const std::uint64_t digit = (i * (salt | 1) + (salt >> 8)) & 0xff;
    value = static_cast<bits_t<T>>(value | (digit << (8 * b)));
  }
  return cuda::std::bit_cast<T>(value);
}

// A float of T's layout from its sign, exponent field and mantissa field.
template <class T>
HARNESS_HOST_DEVICE T float_from_fields(bool negative, bits_t<T> exponent, bits_t<T> mantissa) {
  using Bits = bits_t<T>;
  constexpr int mantissa_bits = limits<T>::digits - 1;
  const Bits sign = negative ? static_cast<Bits>(Bits(1) << (sizeof(T) * 8 - 1)) : Bits(0);
  return cuda::std::bit_cast<T>(static_cast<Bits>(sign | static_cast<Bits>(exponent << mantissa_bits) | mantissa));
}

template <class T>
HARNESS_HOST_DEVICE constexpr bits_t<T> mantissa_mask() {
  return static_cast<bits_t<T>>((bits_t<T>(1) << (limits<T>::digits - 1)) - 1);
}

template <class T>
HARNESS_HOST_DEVICE T subnormal(std::uint64_t bits) {
  bits_t<T> mantissa = static_cast<bits_t<T>>(bits & mantissa_mask<T>());
  if (mantissa == 0) mantissa = 1;
  return float_from_fields<T>((bits >> 63) & 1, 0, mantissa);
}

// A NaN with a random payload, quiet or signalling, of either sign: sorts order NaNs by their
// bits (totalOrder), and a kernel that compares raw bits puts negative ones last.
template <class T>
HARNESS_HOST_DEVICE T nan_with_payload(std::uint64_t bits) {
  const auto mantissa = static_cast<bits_t<T>>((bits >> 1) & mantissa_mask<T>());
  constexpr auto all_ones = static_cast<bits_t<T>>((bits_t<T>(1) << (sizeof(T) * 8 - limits<T>::digits)) - 1);
  return float_from_fields<T>(bits & 1, all_ones, mantissa == 0 ? bits_t<T>(1) : mantissa);
}

template <class T>
HARNESS_HOST_DEVICE T infinity(bool negative) {
  return negative ? -limits<T>::infinity() : limits<T>::infinity();
}

// Whether value i is replaced by a special one: about one in 64, and always the one at a
// seed-chosen index; what to make it from (the bits `special` takes).
struct Sprinkle {
  bool replaced;
  std::uint64_t bits;
};
HARNESS_HOST_DEVICE inline Sprinkle sprinkled(std::uint64_t n, std::uint64_t seed, std::uint64_t i) {
  const std::uint64_t salt = derive_seed(seed, 0x5a17);
  if (i == random_bits(salt, n) % n) return {true, random_bits(salt, ~0ull)};
  const std::uint64_t bits = random_bits(salt, i);
  return {bits % 64 == 0, bits >> 6};
}

template <class T>
HARNESS_HOST_DEVICE T float_only_value(Distribution distribution, std::uint64_t n, std::uint64_t seed,
                                       std::uint64_t i) {
  const T uniform = random_value<T>(random_bits(seed, i));
  switch (distribution) {
    case Distribution::nan: {
      const Sprinkle s = sprinkled(n, seed, i);
      return s.replaced ? nan_with_payload<T>(s.bits) : uniform;
    }
    case Distribution::infinities: {
      const Sprinkle s = sprinkled(n, seed, i);
      return s.replaced ? infinity<T>(!(s.bits & 1)) : uniform;
    }
    case Distribution::signed_zeros: return from_double<T>(random_bits(seed, i) & 1 ? 0.0 : -0.0);
    case Distribution::negative_zeros: return from_double<T>(-0.0);
    case Distribution::denormals: return subnormal<T>(random_bits(seed, i));
    case Distribution::specials: {
      const std::uint64_t bits = random_bits(derive_seed(seed, 2), i);
      const bool negative = !(bits & 1);
      switch ((bits >> 1) % 6) {
        case 0: return nan_with_payload<T>(bits >> 4);
        case 1: return infinity<T>(negative);
        case 2: return from_double<T>(negative ? -0.0 : 0.0);
        case 3: return subnormal<T>(bits);
        default: return uniform;
      }
    }
    case Distribution::cancellation: {
      // Pairs (b, -b + r) with |b| ~ 2^20, or a quarter of the range for half (whose largest
      // finite value is 65504); an odd length's last value stays uniform.
      const std::uint64_t first = i - i % 2;
      if (first + 1 >= n) return uniform;
      constexpr int big_exponent = 20 < limits<T>::max_exponent - 2 ? 20 : limits<T>::max_exponent - 2;
      const T big = from_double<T>((1 + unit_interval<T>(random_bits(seed, first))) *
                                   static_cast<double>(std::uint64_t(1) << big_exponent) *
                                   (random_bits(seed, first + 1) & 1 ? 1 : -1));
      if (i == first) return big;
      return from_double<T>(-as_double(big) + as_double(random_value<T>(random_bits(derive_seed(seed, 1), first))));
    }
    default: return uniform;
  }
}

}  // namespace harness::distribution_detail

namespace harness {

// Value i (< n) of `distribution`, which applies to T (applies_to) and is not `large`.
template <class T>
HARNESS_HOST_DEVICE T distribution_value(Distribution distribution, std::uint64_t n, std::uint64_t seed,
                                         std::uint64_t i) {
  using namespace distribution_detail;
  if constexpr (is_float_v<T>) {
    switch (distribution) {
      case Distribution::nan:
      case Distribution::infinities:
      case Distribution::signed_zeros:
      case Distribution::negative_zeros:
      case Distribution::denormals:
      case Distribution::specials:
      case Distribution::cancellation: return float_only_value<T>(distribution, n, seed, i);
      default: break;
    }
  }
  const std::uint64_t bits = random_bits(seed, i);
  switch (distribution) {
    case Distribution::ones: return T(1);
    case Distribution::max: return limits<T>::max();
    case Distribution::alternating: return i % 2 == 0 ? limits<T>::max() : limits<T>::lowest();
    case Distribution::negative:
      if constexpr (!cuda::std::is_unsigned_v<T>) return negative_value<T>(bits);
      return T(0);  // unsigned: never asked for
    case Distribution::two_values: return bits & 1 ? limits<T>::max() : limits<T>::lowest();
    case Distribution::duplicates: return random_value<T>(random_bits(seed, bits % 16));
    case Distribution::every_digit:
      if constexpr (cuda::std::is_integral_v<T>) return every_digit_value<T>(seed, i);
      return T(0);  // a float: never asked for
    case Distribution::sparse: {
      const Sprinkle s = sprinkled(n, seed, i);
      if (!s.replaced) return T(0);
      const T value = random_value<T>(s.bits);
      return value == T(0) ? T(1) : value;
    }
    default: return random_value<T>(bits);  // random, sorted, reverse
  }
}

}  // namespace harness
