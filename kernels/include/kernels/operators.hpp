// The one list of binary operators: the key (its name in tests, ctest labels and kcheck) and the descriptor that
// states its semantics (kernels/operators/; what a descriptor provides: docs/operators.md).
#pragma once

#include <kernels/operators/arithmetic.hpp>
#include <kernels/operators/last_nonzero.hpp>
#include <kernels/operators/unitriangular.hpp>

// clang-format off
#define KERNELS_FOR_EACH_OP(X) \
  X(sum, kernels::operators::Sum) \
  X(max, kernels::operators::Max) \
  X(min, kernels::operators::Min) \
  X(last_nonzero, kernels::operators::LastNonZero) \
  X(unitriangular, kernels::operators::Unitriangular)
// clang-format on
