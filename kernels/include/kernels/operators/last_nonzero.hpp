// Forward fill: the last non-zero value, 0 where there is none (data frames' ffill over a
// column whose missing entries are 0). Associative, identity 0, not commutative: a kernel that
// combines op(b, a) keeps the first non-zero value instead. Integers only: exact.
#pragma once

#include <cuda_runtime_api.h>

#include <type_traits>

namespace kernels::operators {

struct LastNonZero {
  static constexpr bool kCommutative = false;
  template <class T>
  static constexpr bool kTakes = std::is_integral_v<T>;

  template <class T>
  __host__ __device__ static constexpr T identity() {
    return T(0);
  }
  template <class T>
  __host__ __device__ static T combine(T earlier, T later) {
    return later != T(0) ? later : earlier;
  }
  template <class T>
  static T reference(T earlier, T later) {
    if (later == T(0)) return earlier;
    return later;
  }
};

}  // namespace kernels::operators
