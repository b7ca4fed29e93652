// What the properties draw and over which types they run: every type of the lists in
// kernels/include/kernels/types.hpp, each property once per type the variant declares.
#pragma once

#include "harness/numeric/element_traits.hpp"

#include <kernels/types.hpp>

#include <rapidcheck.h>

#include <bit>
#include <type_traits>

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

// Any value of T: every bit pattern of a float type (NaNs with any payload, infinities,
// subnormals, both zeros), every value of an integer type.
template <class T>
rc::Gen<T> any_value() {
  if constexpr (harness::is_float_v<T>) {
    return rc::gen::map(rc::gen::arbitrary<harness::bits_t<T>>(),
                        [](harness::bits_t<T> bits) { return std::bit_cast<T>(bits); });
  } else {
    return rc::gen::arbitrary<T>();
  }
}

// Any finite value of T: what sums and scans take, whose NaN and infinity rules the unit tests
// cover.
template <class T>
rc::Gen<T> finite_value() {
  if constexpr (harness::is_float_v<T>) {
    return rc::gen::suchThat(any_value<T>(), [](T x) { return static_cast<bool>(cuda::std::isfinite(x)); });
  } else {
    return any_value<T>();
  }
}

// Sort keys: any value, and often one of a few small ones (runs of equal keys, where stability
// shows) or, for floats, a special value (NaN of either sign, infinities, zeros).
template <class T>
rc::Gen<T> sort_keys() {
  if constexpr (harness::is_float_v<T>) {
    using harness::limits;
    return rc::gen::weightedOneOf<T>(
        {{6, any_value<T>()},
         {1, rc::gen::element(limits<T>::quiet_NaN(), harness::negated(limits<T>::quiet_NaN()), limits<T>::infinity(),
                              -limits<T>::infinity(), harness::from_double<T>(0.0), harness::from_double<T>(-0.0))}});
  } else {
    return rc::gen::oneOf(
        rc::gen::map(rc::gen::inRange(0, 16), [](int k) { return static_cast<T>(std::is_signed_v<T> ? k - 8 : k); }),
        any_value<T>());
  }
}

}  // namespace fuzz
