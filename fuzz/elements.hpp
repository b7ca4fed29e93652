// What the properties draw and over which types they run: every type of the lists in
// kernels/include/kernels/types.hpp, each property once per type the variant declares.
#pragma once

#include "harness/input/random_bits.hpp"
#include "harness/numeric/element_traits.hpp"
#include "harness/session/phase_clock.hpp"

#include <kernels/types.hpp>

#include <rapidcheck.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace fuzz {

// Calls f(In{}, Out{}) for every type key of a family's list: reductions every key, scans the
// scan types, sorts every element type.
#define FUZZ_CALL_WITH_TYPES(key, in, out, label) f(std::type_identity_t<in>{}, std::type_identity_t<out>{});
template <class F>
void for_each_type(F&& f) {
  KERNELS_FOR_EACH_TYPE(FUZZ_CALL_WITH_TYPES)
}
template <class F>
void for_each_scan_type(F&& f) {
  KERNELS_FOR_EACH_SCAN_TYPE(FUZZ_CALL_WITH_TYPES)
}
template <class F>
void for_each_element_type(F&& f) {
  KERNELS_FOR_EACH_ELEMENT_TYPE(FUZZ_CALL_WITH_TYPES)
}
#undef FUZZ_CALL_WITH_TYPES

// A kind of element value, two ways: drawn one at a time by RapidCheck (each value then shrinks
// on its own), or made from 64 random bits of the suite's counter-based generator.
template <class T>
struct Element {
  rc::Gen<T> drawn;
  T (*from_bits)(std::uint64_t bits);
};

// Inputs up to this long are drawn value by value; longer ones from one drawn seed (they shrink
// by length and seed). Drawing every value of a 300000-value input through RapidCheck took most
// of the properties' time.
inline constexpr std::size_t kDrawnOneByOne = 5000;

// n values of `element`.
template <class T>
std::vector<T> values(std::size_t n, const Element<T>& element) {
  return harness::timed(harness::Phase::generate, [&] {
    if (n <= kDrawnOneByOne) return *rc::gen::container<std::vector<T>>(n, element.drawn);
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    std::vector<T> made(n);
    for (std::size_t i = 0; i < n; ++i) made[i] = element.from_bits(harness::random_bits(seed, i));
    return made;
  });
}

// Any value of T: every bit pattern of a float type (NaNs with any payload, infinities,
// subnormals, both zeros), every value of an integer type.
template <class T>
T any_value_from(std::uint64_t bits) {
  if constexpr (harness::is_float_v<T>) {
    return std::bit_cast<T>(static_cast<harness::bits_t<T>>(bits));
  } else {
    return static_cast<T>(bits);
  }
}
template <class T>
Element<T> any_value() {
  if constexpr (harness::is_float_v<T>) {
    return {rc::gen::map(rc::gen::arbitrary<harness::bits_t<T>>(),
                         [](harness::bits_t<T> bits) { return std::bit_cast<T>(bits); }),
            any_value_from<T>};
  } else {
    return {rc::gen::arbitrary<T>(), any_value_from<T>};
  }
}

// Any finite value of T: what sums and scans take, whose NaN and infinity rules the unit tests
// cover.
template <class T>
T finite_value_from(std::uint64_t bits) {
  T value = any_value_from<T>(bits);
  if constexpr (harness::is_float_v<T>) {
    while (!cuda::std::isfinite(value)) value = any_value_from<T>(bits = harness::mix64(bits));
  }
  return value;
}
template <class T>
Element<T> finite_value() {
  if constexpr (harness::is_float_v<T>) {
    return {rc::gen::suchThat(any_value<T>().drawn, [](T x) { return static_cast<bool>(cuda::std::isfinite(x)); }),
            finite_value_from<T>};
  } else {
    return any_value<T>();
  }
}

// Sort keys: any value, and often one of a few small ones (runs of equal keys, where stability
// shows) or, for floats, a special value (NaN of either sign, infinities, zeros).
template <class T>
T special_key(int k) {
  using harness::limits;
  const T specials[] = {limits<T>::quiet_NaN(),       harness::negated(limits<T>::quiet_NaN()),
                        limits<T>::infinity(),        -limits<T>::infinity(),
                        harness::from_double<T>(0.0), harness::from_double<T>(-0.0)};
  return specials[k];
}
template <class T>
T small_key(int k) {
  return static_cast<T>(std::is_signed_v<T> ? k - 8 : k);
}
template <class T>
T sort_key_from(std::uint64_t bits) {
  if constexpr (harness::is_float_v<T>) {
    return bits % 7 == 0 ? special_key<T>(static_cast<int>((bits >> 3) % 6)) : any_value_from<T>(harness::mix64(bits));
  } else {
    return bits % 2 == 0 ? small_key<T>(static_cast<int>((bits >> 1) % 16)) : any_value_from<T>(harness::mix64(bits));
  }
}
template <class T>
Element<T> sort_keys() {
  if constexpr (harness::is_float_v<T>) {
    return {rc::gen::weightedOneOf<T>(
                {{6, any_value<T>().drawn}, {1, rc::gen::map(rc::gen::inRange(0, 6), special_key<T>)}}),
            sort_key_from<T>};
  } else {
    return {rc::gen::oneOf(rc::gen::map(rc::gen::inRange(0, 16), small_key<T>), any_value<T>().drawn),
            sort_key_from<T>};
  }
}

}  // namespace fuzz
