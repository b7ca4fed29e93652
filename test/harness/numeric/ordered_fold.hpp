// The oracle's fold for every operator but sum, max and min (the arithmetic ones have semantics of
// their own in the family oracles): the operator's host reference from its record (the suite's
// from kernels/operators.hpp, a library's from its registration), applied strictly left to right
// from its identity, so that a kernel that swaps or reorders operands disagrees with it whenever
// the operator is not commutative.
#pragma once

#include <kernels/operator_registry.hpp>
#include <kernels/types.hpp>

#include <stdexcept>
#include <string>

namespace harness {

// Whether the oracle folds `op` through its record's reference (every op but sum, max, min).
constexpr bool folds_by_reference(kernels::Op op) {
  return op != kernels::Op::sum && op != kernels::Op::max && op != kernels::Op::min;
}

// The identity of a reference-folded op on T; throws std::logic_error if the op does not take T.
template <class T>
T reference_identity(kernels::Op op) {
  const kernels::OperatorInfo& info = kernels::operator_info(op);
  if (info.identity == nullptr || !kernels::operator_takes(op, kernels::type_key_v<T>))
    throw std::logic_error("no reference fold of " + info.name + " for " +
                           std::string(kernels::name(kernels::type_key_v<T>)));
  T identity{};
  info.identity(kernels::type_key_v<T>, &identity);
  return identity;
}

// One step of the fold: everything before (`earlier`) combined with the next element (`later`).
template <class T>
T reference_step(kernels::Op op, T earlier, T later) {
  T result{};
  kernels::operator_info(op).reference(kernels::type_key_v<T>, &earlier, &later, &result);
  return result;
}

}  // namespace harness
