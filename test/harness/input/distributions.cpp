#include "harness/input/distributions.hpp"

#include "harness/input/random_bits.hpp"
#include "harness/numeric/element_traits.hpp"
#include "harness/runner/host_threads.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace harness {
namespace {

using kernels::TypeKey;

bool is_float_only(Distribution distribution) {
  switch (distribution) {
    case Distribution::nan:
    case Distribution::infinities:
    case Distribution::signed_zeros:
    case Distribution::denormals:
    case Distribution::cancellation:
    case Distribution::specials: return true;
    default: return false;
  }
}

// Uniform in [0, 1) with the full precision of T (exact in a double, and in T).
template <class T>
double unit_interval(std::uint64_t bits) {
  constexpr int digits = limits<T>::digits;
  return static_cast<double>(bits >> (64 - digits)) * std::ldexp(1.0, -digits);
}

template <class T>
T random_value(std::uint64_t bits) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(bits);
  } else {
    return from_double<T>(unit_interval<T>(bits) * 2 - 1);
  }
}

template <class T>
T negative_value(std::uint64_t bits) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    constexpr U sign = U(1) << (std::numeric_limits<U>::digits - 1);
    return static_cast<T>(static_cast<U>(bits) | sign);
  } else {
    return from_double<T>(-(1 - unit_interval<T>(bits)));  // in [-1, 0)
  }
}

// Every digit value at every position: byte b of value i is (i * m_b + a_b) mod 256 with odd m_b,
// a permutation of the 256 byte values over any 256 consecutive indices.
template <class T>
T every_digit_value(std::uint64_t seed, std::uint64_t i) {
  bits_t<T> value = 0;
  for (unsigned b = 0; b < sizeof(T); ++b) {
    const std::uint64_t salt = random_bits(derive_seed(seed, 3), b);
    const std::uint64_t digit = (i * (salt | 1) + (salt >> 8)) & 0xff;
    value = static_cast<bits_t<T>>(value | (digit << (8 * b)));
  }
  return std::bit_cast<T>(value);
}

// Replaces about one in 64 values, and always the one at a seed-chosen index, by `special(bits)`.
template <class T, class Special>
void sprinkle(std::vector<T>& values, std::uint64_t seed, Special special) {
  if (values.empty()) return;
  const std::uint64_t salt = derive_seed(seed, 0x5a17);
  for (std::uint64_t i = 0; i < values.size(); ++i) {
    const std::uint64_t bits = random_bits(salt, i);
    if (bits % 64 == 0) values[i] = special(bits >> 6);
  }
  values[random_bits(salt, values.size()) % values.size()] = special(random_bits(salt, ~0ull));
}

// A float of T's layout from its sign, exponent field and mantissa field.
template <class T>
T float_from_fields(bool negative, bits_t<T> exponent, bits_t<T> mantissa) {
  using Bits = bits_t<T>;
  constexpr int mantissa_bits = limits<T>::digits - 1;
  const Bits sign = negative ? static_cast<Bits>(Bits(1) << (sizeof(T) * 8 - 1)) : Bits(0);
  return std::bit_cast<T>(static_cast<Bits>(sign | static_cast<Bits>(exponent << mantissa_bits) | mantissa));
}

template <class T>
constexpr bits_t<T> mantissa_mask() {
  return static_cast<bits_t<T>>((bits_t<T>(1) << (limits<T>::digits - 1)) - 1);
}

template <class T>
T subnormal(std::uint64_t bits) {
  bits_t<T> mantissa = static_cast<bits_t<T>>(bits & mantissa_mask<T>());
  if (mantissa == 0) mantissa = 1;
  return float_from_fields<T>((bits >> 63) & 1, 0, mantissa);
}

// A NaN with a random payload, quiet or signalling, of either sign: sorts order NaNs by their
// bits (totalOrder), and a kernel that compares raw bits puts negative ones last.
template <class T>
T nan_with_payload(std::uint64_t bits) {
  const auto mantissa = static_cast<bits_t<T>>((bits >> 1) & mantissa_mask<T>());
  constexpr auto all_ones = static_cast<bits_t<T>>((bits_t<T>(1) << (sizeof(T) * 8 - limits<T>::digits)) - 1);
  return float_from_fields<T>(bits & 1, all_ones, mantissa == 0 ? bits_t<T>(1) : mantissa);
}

template <class T>
T infinity(bool negative) {
  return negative ? -limits<T>::infinity() : limits<T>::infinity();
}

// The values a pure function of the index gives, made on the host's cores in pieces of
// kValuesWorthSplitting (an input of 2^24 values or more was a second of a single core's work).
template <class T, class ValueAt>
std::vector<T> values_at(std::uint64_t n, ValueAt value_at) {
  std::vector<T> values(n);
  parallel_for(n, kValuesWorthSplitting, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) values[i] = value_at(i);
  });
  return values;
}

template <class T>
std::vector<T> generate_float_only(Distribution distribution, std::uint64_t n, std::uint64_t seed) {
  std::vector<T> values = values_at<T>(n, [seed](std::uint64_t i) { return random_value<T>(random_bits(seed, i)); });
  switch (distribution) {
    case Distribution::nan: sprinkle(values, seed, nan_with_payload<T>); break;
    case Distribution::infinities:
      sprinkle(values, seed, [](std::uint64_t bits) { return infinity<T>(!(bits & 1)); });
      break;
    case Distribution::signed_zeros:
      for (std::uint64_t i = 0; i < n; ++i) values[i] = from_double<T>(random_bits(seed, i) & 1 ? 0.0 : -0.0);
      break;
    case Distribution::denormals:
      for (std::uint64_t i = 0; i < n; ++i) values[i] = subnormal<T>(random_bits(seed, i));
      break;
    case Distribution::specials:
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t bits = random_bits(derive_seed(seed, 2), i);
        const bool negative = !(bits & 1);
        switch ((bits >> 1) % 6) {
          case 0: values[i] = nan_with_payload<T>(bits >> 4); break;
          case 1: values[i] = infinity<T>(negative); break;
          case 2: values[i] = from_double<T>(negative ? -0.0 : 0.0); break;
          case 3: values[i] = subnormal<T>(bits); break;
          default: break;  // the uniform value drawn above
        }
      }
      break;
    case Distribution::cancellation: {
      // |b| ~ 2^20, or a quarter of the range for half (whose largest finite value is 65504).
      const int big_exponent = std::min(20, limits<T>::max_exponent - 2);
      for (std::uint64_t i = 0; i + 1 < n; i += 2) {
        const T big = from_double<T>(std::ldexp(1 + unit_interval<T>(random_bits(seed, i)), big_exponent) *
                                     (random_bits(seed, i + 1) & 1 ? 1 : -1));
        values[i] = big;
        values[i + 1] =
            from_double<T>(-as_double(big) + as_double(random_value<T>(random_bits(derive_seed(seed, 1), i))));
      }
      break;
    }
    default: break;
  }
  return values;
}

}  // namespace

std::string_view name(Distribution distribution) {
  switch (distribution) {
    case Distribution::random: return "random";
    case Distribution::ones: return "ones";
    case Distribution::max: return "max";
    case Distribution::alternating: return "alternating";
    case Distribution::negative: return "negative";
    case Distribution::sorted: return "sorted";
    case Distribution::reverse: return "reverse";
    case Distribution::nan: return "nan";
    case Distribution::infinities: return "infinities";
    case Distribution::signed_zeros: return "signed_zeros";
    case Distribution::denormals: return "denormals";
    case Distribution::cancellation: return "cancellation";
    case Distribution::two_values: return "two_values";
    case Distribution::duplicates: return "duplicates";
    case Distribution::specials: return "specials";
    case Distribution::sparse: return "sparse";
    case Distribution::every_digit: return "every_digit";
    case Distribution::large: return "large";
  }
  return "?";
}

std::optional<Distribution> parse_distribution(std::string_view text) {
  for (Distribution distribution : kAllDistributions) {
    if (name(distribution) == text) return distribution;
  }
  if (text == name(Distribution::large)) return Distribution::large;
  return std::nullopt;
}

bool applies_to(Distribution distribution, TypeKey type) {
  return kernels::visit_type(type, [&](auto in, auto) {
    using In = decltype(in);
    if (is_float_only(distribution)) return is_float_v<In>;
    if (distribution == Distribution::negative) return !std::is_unsigned_v<In>;
    if (distribution == Distribution::every_digit) return std::is_integral_v<In>;
    if (distribution == Distribution::large) {  // which family takes which: large_case_breach
      return type == TypeKey::int32 || type == TypeKey::int32_to_int64 || type == TypeKey::float32;
    }
    return true;
  });
}

template <class T>
std::vector<T> generate(Distribution distribution, std::uint64_t n, std::uint64_t seed) {
  if (distribution == Distribution::large) throw std::invalid_argument("large inputs are generated on the device");
  if (is_float_only(distribution)) {
    if constexpr (is_float_v<T>) {
      return generate_float_only<T>(distribution, n, seed);
    } else {
      throw std::invalid_argument("distribution " + std::string(name(distribution)) + " needs a float type");
    }
  }
  if (distribution == Distribution::negative && std::is_unsigned_v<T>)
    throw std::invalid_argument("unsigned values cannot be negative");
  if (distribution == Distribution::every_digit && !std::is_integral_v<T>)
    throw std::invalid_argument("every_digit needs an integer type");
  std::vector<T> values = values_at<T>(n, [distribution, seed](std::uint64_t i) -> T {
    const std::uint64_t bits = random_bits(seed, i);
    switch (distribution) {
      case Distribution::ones: return T(1);
      case Distribution::max: return limits<T>::max();
      case Distribution::alternating: return i % 2 == 0 ? limits<T>::max() : limits<T>::lowest();
      case Distribution::negative:
        if constexpr (!std::is_unsigned_v<T>) return negative_value<T>(bits);
        return T(0);  // unsigned: refused above
      case Distribution::two_values: return bits & 1 ? limits<T>::max() : limits<T>::lowest();
      case Distribution::duplicates: return random_value<T>(random_bits(seed, bits % 16));
      case Distribution::every_digit:
        if constexpr (std::is_integral_v<T>) return every_digit_value<T>(seed, i);
        return T(0);                          // a float: refused above
      default: return random_value<T>(bits);  // random, sorted, reverse
    }
  });
  if (distribution == Distribution::sparse) {
    std::fill(values.begin(), values.end(), T(0));
    sprinkle(values, seed, [](std::uint64_t bits) {
      const T value = random_value<T>(bits);
      return value == T(0) ? T(1) : value;
    });
  }
  if (distribution == Distribution::sorted) std::sort(values.begin(), values.end());
  if (distribution == Distribution::reverse) std::sort(values.begin(), values.end(), std::greater<T>());
  return values;
}

#define HARNESS_INSTANTIATE_GENERATE(key, T, out, label) \
  template std::vector<T> generate<T>(Distribution, std::uint64_t, std::uint64_t);
KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_INSTANTIATE_GENERATE)
#undef HARNESS_INSTANTIATE_GENERATE

}  // namespace harness
