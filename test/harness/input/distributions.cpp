#include "harness/input/distributions.hpp"

#include "harness/input/random_bits.hpp"

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

// Uniform in [0, 1) with the full precision of T.
template <class T>
T unit_interval(std::uint64_t bits) {
  constexpr int digits = std::numeric_limits<T>::digits;
  return static_cast<T>(bits >> (64 - digits)) * std::ldexp(T(1), -digits);
}

template <class T>
T random_value(std::uint64_t bits) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(bits);
  } else {
    return unit_interval<T>(bits) * T(2) - T(1);
  }
}

template <class T>
T negative_value(std::uint64_t bits) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    constexpr U sign = U(1) << (std::numeric_limits<U>::digits - 1);
    return static_cast<T>(static_cast<U>(bits) | sign);
  } else {
    return -(T(1) - unit_interval<T>(bits));  // in [-1, 0)
  }
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

template <class T>
T subnormal(std::uint64_t bits) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  constexpr int mantissa_bits = std::numeric_limits<T>::digits - 1;
  constexpr Bits mantissa_mask = (Bits(1) << mantissa_bits) - 1;
  Bits mantissa = static_cast<Bits>(bits) & mantissa_mask;
  if (mantissa == 0) mantissa = 1;
  const Bits sign = static_cast<Bits>((bits >> 63) & 1) << (sizeof(T) * 8 - 1);
  return std::bit_cast<T>(static_cast<Bits>(sign | mantissa));
}

template <class T>
std::vector<T> generate_float_only(Distribution distribution, std::uint64_t n, std::uint64_t seed) {
  std::vector<T> values(n);
  for (std::uint64_t i = 0; i < n; ++i) values[i] = random_value<T>(random_bits(seed, i));
  switch (distribution) {
    case Distribution::nan:
      sprinkle(values, seed, [](std::uint64_t bits) {
        return std::copysign(std::numeric_limits<T>::quiet_NaN(), bits & 1 ? T(1) : T(-1));
      });
      break;
    case Distribution::infinities:
      sprinkle(values, seed, [](std::uint64_t bits) {
        return bits & 1 ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
      });
      break;
    case Distribution::signed_zeros:
      for (std::uint64_t i = 0; i < n; ++i) values[i] = random_bits(seed, i) & 1 ? T(0) : -T(0);
      break;
    case Distribution::denormals:
      for (std::uint64_t i = 0; i < n; ++i) values[i] = subnormal<T>(random_bits(seed, i));
      break;
    case Distribution::specials:
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t bits = random_bits(derive_seed(seed, 2), i);
        const T sign = bits & 1 ? T(1) : T(-1);
        switch ((bits >> 1) % 6) {
          case 0: values[i] = std::copysign(std::numeric_limits<T>::quiet_NaN(), sign); break;
          case 1: values[i] = std::copysign(std::numeric_limits<T>::infinity(), sign); break;
          case 2: values[i] = std::copysign(T(0), sign); break;
          case 3: values[i] = subnormal<T>(bits); break;
          default: break;  // the uniform value drawn above
        }
      }
      break;
    case Distribution::cancellation:
      for (std::uint64_t i = 0; i + 1 < n; i += 2) {
        const T big = std::ldexp(T(1) + unit_interval<T>(random_bits(seed, i)), 20) *
                      (random_bits(seed, i + 1) & 1 ? T(1) : T(-1));
        values[i] = big;
        values[i + 1] = -big + random_value<T>(random_bits(derive_seed(seed, 1), i));
      }
      break;
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
  const bool float_input = type == TypeKey::float32 || type == TypeKey::float64;
  if (is_float_only(distribution)) return float_input;
  if (distribution == Distribution::negative) return type != TypeKey::uint32;
  if (distribution == Distribution::large) {  // which family takes which: large_case_breach
    return type == TypeKey::int32 || type == TypeKey::int32_to_int64 || type == TypeKey::float32;
  }
  return true;
}

template <class T>
std::vector<T> generate(Distribution distribution, std::uint64_t n, std::uint64_t seed) {
  if (distribution == Distribution::large) throw std::invalid_argument("large inputs are generated on the device");
  if (is_float_only(distribution)) {
    if constexpr (std::is_floating_point_v<T>) {
      return generate_float_only<T>(distribution, n, seed);
    } else {
      throw std::invalid_argument("distribution " + std::string(name(distribution)) + " needs a float type");
    }
  }
  std::vector<T> values(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t bits = random_bits(seed, i);
    switch (distribution) {
      case Distribution::ones: values[i] = T(1); break;
      case Distribution::max: values[i] = std::numeric_limits<T>::max(); break;
      case Distribution::alternating:
        values[i] = i % 2 == 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
        break;
      case Distribution::negative:
        if constexpr (std::is_unsigned_v<T>) throw std::invalid_argument("unsigned values cannot be negative");
        values[i] = negative_value<T>(bits);
        break;
      case Distribution::two_values:
        values[i] = bits & 1 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
        break;
      case Distribution::duplicates: values[i] = random_value<T>(random_bits(seed, bits % 16)); break;
      default: values[i] = random_value<T>(bits); break;  // random, sorted, reverse
    }
  }
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

template std::vector<int> generate<int>(Distribution, std::uint64_t, std::uint64_t);
template std::vector<unsigned> generate<unsigned>(Distribution, std::uint64_t, std::uint64_t);
template std::vector<long long> generate<long long>(Distribution, std::uint64_t, std::uint64_t);
template std::vector<float> generate<float>(Distribution, std::uint64_t, std::uint64_t);
template std::vector<double> generate<double>(Distribution, std::uint64_t, std::uint64_t);

}  // namespace harness
