// The three arithmetic operators' descriptors: commutative, every element type. Their device
// functors (wrapping integer sums, IEEE maximum and minimum) are in kernels/detail/ops.cuh.
#pragma once

namespace kernels::operators {

struct Commutative {
  static constexpr bool kCommutative = true;
  template <class T>
  static constexpr bool kTakes = true;
};
struct Sum : Commutative {};
struct Max : Commutative {};
struct Min : Commutative {};

}  // namespace kernels::operators
