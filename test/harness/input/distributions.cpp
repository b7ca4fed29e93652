#include "harness/input/distributions.hpp"

#include "harness/input/distribution_values.hpp"
#include "harness/numeric/element_traits.hpp"
#include "harness/session/host_threads.hpp"

#include <algorithm>
#include <functional>
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
    case Distribution::negative_zeros:
    case Distribution::denormals:
    case Distribution::cancellation:
    case Distribution::specials: return true;
    default: return false;
  }
}

// The values of distribution_value, made on the host's cores in pieces of kValuesWorthSplitting
// (an input of 2^24 values or more was a second of a single core's work).
template <class T>
std::vector<T> values_of(Distribution distribution, std::uint64_t n, std::uint64_t seed) {
  std::vector<T> values(n);
  parallel_for(n, kValuesWorthSplitting, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) values[i] = distribution_value<T>(distribution, n, seed, i);
  });
  return values;
}

// std::sort(values, before) on the host's cores: pieces of at least kValuesWorthSplitting values
// sorted side by side, then merged in pairs, round after round (sorting 2^20 values was most of a
// reduction group's input making). Equal random values are equal bit for bit (no NaN, no -0.0),
// so the order is std::sort's.
template <class T, class Before>
void sort_on_host_threads(std::vector<T>& values, Before before) {
  const std::size_t pieces = std::min<std::size_t>(host_threads(), values.size() / kValuesWorthSplitting);
  if (pieces <= 1) return std::sort(values.begin(), values.end(), before);
  std::vector<std::size_t> bounds;
  for (std::size_t k = 0; k <= pieces; ++k) bounds.push_back(values.size() * k / pieces);
  const auto at = [&](std::size_t piece) { return values.begin() + static_cast<std::ptrdiff_t>(bounds[piece]); };
  parallel_for(pieces, 1, [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) std::sort(at(k), at(k + 1), before);
  });
  for (std::size_t width = 1; width < pieces; width *= 2) {
    const std::size_t pairs = (pieces + 2 * width - 1) / (2 * width);
    parallel_for(pairs, 1, [&](std::size_t begin, std::size_t end) {
      for (std::size_t pair = begin; pair < end; ++pair) {
        const std::size_t first = 2 * width * pair;
        const std::size_t middle = std::min(first + width, pieces), last = std::min(first + 2 * width, pieces);
        if (middle < last) std::inplace_merge(at(first), at(middle), at(last), before);
      }
    });
  }
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
    case Distribution::negative_zeros: return "negative_zeros";
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
  if (is_float_only(distribution) && !is_float_v<T>)
    throw std::invalid_argument("distribution " + std::string(name(distribution)) + " needs a float type");
  if (distribution == Distribution::negative && std::is_unsigned_v<T>)
    throw std::invalid_argument("unsigned values cannot be negative");
  if (distribution == Distribution::every_digit && !std::is_integral_v<T>)
    throw std::invalid_argument("every_digit needs an integer type");
  std::vector<T> values = values_of<T>(distribution, n, seed);
  if (distribution == Distribution::sorted) sort_on_host_threads(values, std::less<T>());
  if (distribution == Distribution::reverse) sort_on_host_threads(values, std::greater<T>());
  return values;
}

#define HARNESS_INSTANTIATE_GENERATE(key, T, out, label) \
  template std::vector<T> generate<T>(Distribution, std::uint64_t, std::uint64_t);
KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_INSTANTIATE_GENERATE)
#undef HARNESS_INSTANTIATE_GENERATE

}  // namespace harness
