// The one list of binary operators. Each entry: the key (Op::key, also the name tests, ctest
// labels and kcheck use) and the descriptor that states its semantics (kernels/operators/).
//
// A descriptor says whether the operator is commutative and which element types it takes:
//   static constexpr bool kCommutative;
//   template <class T> static constexpr bool kTakes;
// and, for every operator but the three arithmetic ones (whose device functors are in
// kernels/detail/ops.cuh and whose oracle is test/harness/reduce/reduce_oracle.cpp's own):
//   template <class T> __host__ __device__ static constexpr T identity();
//   template <class T> __host__ __device__ static T combine(T a, T b);  // what kernels call
//   template <class T> static T reference(T a, T b);  // the oracle's step, folded left to right
// Adding an operator is a header in kernels/operators/ and one line here (docs/operators.md).
#pragma once

#include <kernels/operators/arithmetic.hpp>
#include <kernels/operators/last_nonzero.hpp>
#include <kernels/operators/matrix2x2_mod16.hpp>
#include <kernels/operators/unitriangular.hpp>

#define KERNELS_FOR_EACH_OP(X)                        \
  X(sum, kernels::operators::Sum)                     \
  X(max, kernels::operators::Max)                     \
  X(min, kernels::operators::Min)                     \
  X(last_nonzero, kernels::operators::LastNonZero)    \
  X(unitriangular, kernels::operators::Unitriangular) \
  X(matrix2x2_mod16, kernels::operators::Matrix2x2Mod16)
