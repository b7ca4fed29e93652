// The input distributions of every test: each a pure function of (length, seed), so that the
// seed a failure prints regenerates its input exactly.
#pragma once

#include <kernels/types.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace harness {

enum class Distribution {
  random,          // integers: uniform over all bit patterns (sums overflow); floats: uniform in [-1, 1)
  ones,            // every element 1
  max,             // every element numeric_limits<T>::max() (float sums overflow: past 65504 in half)
  alternating,     // max(), lowest(), max(), ... (sums overflow at every other step)
  negative,        // integers: uniform over the negative values; floats: uniform in [-1, 0)
  sorted,          // `random`, ascending
  reverse,         // `random`, descending
  nan,             // floats: `random` with NaNs at about 1 in 64 positions (at least one): random
                   // payloads, quiet and signalling, both signs
  infinities,      // floats: `random` with +inf and -inf at about 1 in 64 positions (at least one)
  signed_zeros,    // floats: +0.0 and -0.0 only
  negative_zeros,  // floats: -0.0 only (IEEE's sum is -0.0; an accumulator from +0.0 gives +0.0)
  denormals,       // floats: subnormal values of both signs only
  cancellation,    // floats: pairs (b, -b + r) with |b| ~ 2^20 and small r: tiny sum, huge sum of |x|
  two_values,      // two distinct values (lowest() and max()), randomly placed
  duplicates,      // values drawn from 16 distinct ones: long runs of equal keys
  specials,        // floats: a mix of NaNs (random payloads), +-inf, +-0.0, subnormals and normals
  sparse,          // zeros with `random` non-zero values at about 1 in 64 positions (at least one): the
                   // missing entries a forward fill (last_nonzero) carries values across
  every_digit,     // integers: every 8-bit digit value at every digit position in any 256 consecutive
                   // elements (radix sorts' digits; a digit taken sign-extended)
  // inputs of the 64-bit-index tests (2^31 elements and more), written and checked on the device:
  // ints in harness/large/large_input.hpp (reductions, scans), int or float keys in
  // harness/sort/sort_large_device.hpp (sorts).
  // Not in kAllDistributions: no host input, and such a case runs alone (harness/large/large_case.hpp).
  large,
};

inline constexpr std::array kAllDistributions{
    Distribution::random,
    Distribution::ones,
    Distribution::max,
    Distribution::alternating,
    Distribution::negative,
    Distribution::sorted,
    Distribution::reverse,
    Distribution::nan,
    Distribution::infinities,
    Distribution::signed_zeros,
    Distribution::negative_zeros,
    Distribution::denormals,
    Distribution::cancellation,
    Distribution::two_values,
    Distribution::duplicates,
    Distribution::specials,
    Distribution::sparse,
    Distribution::every_digit,
};

std::string_view name(Distribution distribution);
// Any distribution's name, `large` included.
std::optional<Distribution> parse_distribution(std::string_view text);

// Whether the distribution makes sense for the input type of `type` (the float-only ones need
// a float type, every_digit an integer one; unsigned has no negative values; `large` is ints,
// widened or not, and a sort's float keys: which family takes which is large_case_breach's).
bool applies_to(Distribution distribution, kernels::TypeKey type);

// n values of T drawn from `distribution` with `seed`. Defined for every element type of
// kernels/include/kernels/types.hpp, and for every distribution but `large` (std::invalid_argument).
template <class T>
std::vector<T> generate(Distribution distribution, std::uint64_t n, std::uint64_t seed);

}  // namespace harness
