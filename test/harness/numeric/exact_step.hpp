// The exact steps of the device judges (scan/scan_device_judge, reduce/reduce_device_judge): the
// three arithmetic ops are stated here (the sum wrapping, as the oracles' sums; integer max and
// min); every other op folds by its descriptor's combine(), which the kernels call too. The CPU
// oracles fold by reference() and judge a sampled short run of every batch that has one
// (runner/device_judgement.hpp), which is what catches a combine() that drifts.
#pragma once

#include "harness/input/random_bits.hpp"

#include <cuda/std/limits>
#include <kernels/operators.hpp>
#include <kernels/types.hpp>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace harness {

template <class T>
struct WrappingSum {
  HARNESS_HOST_DEVICE T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  }
  HARNESS_HOST_DEVICE static T identity() { return T(0); }
};
template <class T>
struct IntegerMax {
  HARNESS_HOST_DEVICE T operator()(T a, T b) const { return a < b ? b : a; }
  HARNESS_HOST_DEVICE static T identity() { return cuda::std::numeric_limits<T>::lowest(); }
};
template <class T>
struct IntegerMin {
  HARNESS_HOST_DEVICE T operator()(T a, T b) const { return b < a ? b : a; }
  HARNESS_HOST_DEVICE static T identity() { return cuda::std::numeric_limits<T>::max(); }
};
template <class T, class Descriptor>
struct Combined {
  HARNESS_HOST_DEVICE T operator()(T a, T b) const { return Descriptor::template combine<T>(a, b); }
  HARNESS_HOST_DEVICE static T identity() { return Descriptor::template identity<T>(); }
};

// Calls use(step) with the exact step of `op` over the integer type T, if it has one (an
// arithmetic op, or an op whose descriptor takes T and has a combine()); returns whether it did.
template <class T, class Use>
bool visit_exact_step(kernels::Op op, Use&& use) {
  static_assert(std::is_integral_v<T>, "the device judges take integers");
  switch (op) {
    case kernels::Op::sum: use(WrappingSum<T>{}); return true;
    case kernels::Op::max: use(IntegerMax<T>{}); return true;
    case kernels::Op::min: use(IntegerMin<T>{}); return true;
    default: break;
  }
  bool found = false;
  const auto visit = [&]<class Descriptor>(kernels::Op key) {
    if constexpr (Descriptor::template kTakes<T> && requires { Descriptor::template combine<T>(T{}, T{}); }) {
      if (op == key) found = true, use(Combined<T, Descriptor>{});
    }
  };
#define HARNESS_VISIT_STEP(key, descriptor) visit.template operator()<descriptor>(kernels::Op::key);
  KERNELS_FOR_EACH_OP(HARNESS_VISIT_STEP)
#undef HARNESS_VISIT_STEP
  return found;
}

// As visit_exact_step, for an op that must have a step: throws if it has none.
template <class T, class Use>
void with_exact_step(kernels::Op op, Use&& use) {
  if (!visit_exact_step<T>(op, use)) {
    throw std::logic_error("the device judge has no step of op " + std::string(kernels::name(op)));
  }
}

}  // namespace harness
