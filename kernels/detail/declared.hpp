// What a variant's implementation declares at compile time: the types, ops and scan kinds it is instantiated for
// (optional lists kTypes, kOps, kKinds; by default all its family takes), the registered operators it takes besides
// (Operators), and kKeepsOperandOrder (docs/kernels.md).
// make_<family>_variant writes the same into the record, so that record and code cannot disagree.
#pragma once

#include <kernels/detail/interface.hpp>
#include <kernels/registry.hpp>
#include <kernels/types.hpp>

namespace kernels::variant {

// The operators of an outside project a variant takes, beyond the suite's: using Operators = OperatorList<A, B>;
// each is registered with the variant (docs/operators.md) and runs on every type it and the variant take.
template <class... Descriptors>
struct OperatorList {};

}  // namespace kernels::variant

namespace kernels::detail {

template <class List, class Value>
constexpr bool lists(const List& list, Value value) {
  for (const auto& entry : list) {
    if (entry == value) return true;
  }
  return false;
}

template <class Impl>
constexpr bool declares_type(Family family, TypeKey type) {
  if (!family_takes(family, type)) return false;
  if constexpr (requires { Impl::kTypes; }) {
    return lists(Impl::kTypes, type);
  } else {
    return true;
  }
}

// An implementation that combines values out of input order says so: kKeepsOperandOrder = false. It then takes
// commutative operators only; by default it keeps order, and every operator that is not commutative checks that.
template <class Impl>
constexpr bool keeps_operand_order() {
  static_assert(
      !requires { Impl::kCommutativeOnly; }, "kCommutativeOnly is now kKeepsOperandOrder = false");
  if constexpr (requires { Impl::kKeepsOperandOrder; }) {
    return Impl::kKeepsOperandOrder;
  } else {
    return true;
  }
}

// A float sum whose accumulator starts at +0.0 declares kZeroSum = ZeroSum::positive; by default, IEEE's zeros.
template <class Impl>
constexpr ZeroSum zero_sum() {
  if constexpr (requires { Impl::kZeroSum; }) {
    return Impl::kZeroSum;
  } else {
    return ZeroSum::ieee;
  }
}

// Scans offer every operator but max and min (docs/operators.md); reductions offer all.
constexpr bool family_offers(Family family, Op op) {
  return family != Family::scan || (op != Op::max && op != Op::min);
}

template <class Impl>
constexpr bool declares_op(Family family, TypeKey type, Op op) {
  if (!family_offers(family, op) || !builtin_takes(op, type)) return false;
  if (!keeps_operand_order<Impl>() && !builtin_commutative(op)) return false;
  if constexpr (requires { Impl::kOps; }) {
    return lists(Impl::kOps, op);
  } else {
    return true;
  }
}

template <class Impl, class Body>
void for_each_registered_operator(Body&& body) {
  if constexpr (requires { typename Impl::Operators; }) {
    [&]<class... Descriptors>(OperatorList<Descriptors...>) {
      (body.template operator()<Descriptors>(), ...);
    }(typename Impl::Operators{});
  }
}

// A sort that also sorts (key, uint32 value) pairs declares kSortsPairs = true; by default it sorts keys alone.
template <class Impl>
constexpr bool sorts_pairs() {
  static_assert(
      !requires { Impl::sorts_pairs; }, "sorts_pairs is now kSortsPairs, optional (default false)");
  if constexpr (requires { Impl::kSortsPairs; }) {
    return Impl::kSortsPairs;
  } else {
    return false;
  }
}

template <class Impl>
constexpr bool declares_kind(ScanKind kind) {
  if constexpr (requires { Impl::kKinds; }) {
    return lists(Impl::kKinds, kind);
  } else {
    return true;
  }
}

// A vector path declares vector_values(TypeKey) and tile_size(int, TypeKey); the record carries them so that the
// tests place ragged ends inside its last vectors.
template <class Impl>
void declare_vector_path(VariantInfo& info) {
  if constexpr (requires { &Impl::vector_values; }) {
    info.vector_values = &Impl::vector_values;
    info.tile_size = &Impl::tile_size;
  }
}

}  // namespace kernels::detail
