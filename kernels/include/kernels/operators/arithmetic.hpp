// The arithmetic operators' descriptors: commutative, every type; device functors in kernels/detail/ops.cuh.
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
