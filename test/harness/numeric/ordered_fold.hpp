// The oracle's fold for the operators of kernels/operators.hpp other than sum, max and min (the
// arithmetic ones have semantics of their own in the family oracles): each operator's host
// reference, applied strictly left to right from its identity, so that a kernel that swaps or
// reorders operands disagrees with it whenever the operator is not commutative.
#pragma once

#include <kernels/types.hpp>

#include <concepts>
#include <stdexcept>
#include <string>

namespace harness {

// Whether the oracle folds `op` through its descriptor's reference (every op but sum, max, min).
constexpr bool folds_by_reference(kernels::Op op) {
  return op != kernels::Op::sum && op != kernels::Op::max && op != kernels::Op::min;
}

// A descriptor with a host reference that takes T.
template <class Descriptor, class T>
concept ReferenceFolded = Descriptor::template kTakes<T>&& requires(T value) {
  { Descriptor::template reference<T>(value, value) } -> std::same_as<T>;
  { Descriptor::template identity<T>() } -> std::same_as<T>;
};

// Calls use.template operator()<Descriptor>() with the descriptor of `op`, which must fold T by
// reference; returns what it returns.
template <class T, class Use>
T with_reference_descriptor(kernels::Op op, Use use) {
  T result{};
  bool found = false;
  const auto visit = [&]<class Descriptor>(kernels::Op key) {
    if constexpr (ReferenceFolded<Descriptor, T>) {
      if (op == key) result = use.template operator()<Descriptor>(), found = true;
    }
  };
#define HARNESS_VISIT_REFERENCE(key, descriptor) visit.template operator()<descriptor>(kernels::Op::key);
  KERNELS_FOR_EACH_OP(HARNESS_VISIT_REFERENCE)
#undef HARNESS_VISIT_REFERENCE
  if (!found) throw std::logic_error("no reference fold of " + std::string(kernels::name(op)) + " for this type");
  return result;
}

// The identity of a reference-folded op, and one step of its fold: the result of combining
// everything before (`earlier`) with the next element (`later`). For the types the op takes.
template <class T>
T reference_identity(kernels::Op op) {
  return with_reference_descriptor<T>(op, []<class Descriptor>() { return Descriptor::template identity<T>(); });
}

template <class T>
T reference_step(kernels::Op op, T earlier, T later) {
  return with_reference_descriptor<T>(
      op, [&]<class Descriptor>() { return Descriptor::template reference<T>(earlier, later); });
}

}  // namespace harness
