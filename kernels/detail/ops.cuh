// The binary operators as device functors, each with the identity the kernels pad with.
//
// Integer sums are computed in the unsigned type so that overflow wraps instead of being
// undefined behaviour. Float max/min propagate NaN and order -0.0 below +0.0 (IEEE 754-2019
// maximum/minimum), so every evaluation order gives the same bits. The identities are the true
// ones (-0.0 for a float sum, -inf for a float max); the value an *empty* reduction returns is a separate choice,
// empty_result() below, which follows CUB (lowest() for max, max() for min).
#pragma once

#include <kernels/detail/describe_operator.hpp>
#include <kernels/detail/interface.hpp>
#include <kernels/types.hpp>

#include <cuda/std/cmath>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

namespace kernels::detail {

template <class T>
struct SumOp {
  static constexpr Op kind = Op::sum;
  // -0.0 for floats: -0.0 + x == x for every x, +0.0 + -0.0 would lose the sign of a sum of
  // negative zeros.
  __host__ __device__ static constexpr T identity() { return cuda::std::is_integral_v<T> ? T(0) : -T(0); }
  __host__ __device__ T operator()(T a, T b) const {
    if constexpr (cuda::std::is_integral_v<T>) {
      using U = cuda::std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    } else {
      return a + b;
    }
  }
};

template <class T>
struct MaxOp {
  static constexpr Op kind = Op::max;
  __host__ __device__ static constexpr T identity() {
    if constexpr (cuda::std::is_integral_v<T>) {
      return cuda::std::numeric_limits<T>::lowest();
    } else {
      return -cuda::std::numeric_limits<T>::infinity();
    }
  }
  __host__ __device__ T operator()(T a, T b) const {
    if constexpr (!cuda::std::is_integral_v<T>) {
      if (a != a) return a;
      if (b != b) return b;
      if (a == b) return cuda::std::signbit(a) ? b : a;  // +0.0 wins over -0.0
    }
    return a < b ? b : a;
  }
};

template <class T>
struct MinOp {
  static constexpr Op kind = Op::min;
  __host__ __device__ static constexpr T identity() {
    if constexpr (cuda::std::is_integral_v<T>) {
      return cuda::std::numeric_limits<T>::max();
    } else {
      return cuda::std::numeric_limits<T>::infinity();
    }
  }
  __host__ __device__ T operator()(T a, T b) const {
    if constexpr (!cuda::std::is_integral_v<T>) {
      if (a != a) return a;
      if (b != b) return b;
      if (a == b) return cuda::std::signbit(a) ? a : b;  // -0.0 wins over +0.0
    }
    return b < a ? b : a;
  }
};

// Any other suite operator's functor: its descriptor's identity and combine (kernels/operators/).
template <class Descriptor, Op op, class T>
struct DescribedOp {
  static constexpr Op kind = op;
  __host__ __device__ static constexpr T identity() { return Descriptor::template identity<T>(); }
  __host__ __device__ T operator()(T a, T b) const { return Descriptor::template combine<T>(a, b); }
};

// A registered operator's functor (docs/operators.md): its op is known once its library has loaded.
template <class Descriptor, class T>
struct RegisteredOp {
  static inline const Op kind = operator_key<Descriptor>();
  __host__ __device__ static constexpr T identity() { return Descriptor::template identity<T>(); }
  __host__ __device__ T operator()(T a, T b) const { return Descriptor::template combine<T>(a, b); }
};

template <Op op, class T>
struct op_functor {
  using type = DescribedOp<operator_of_t<op>, op, T>;
};
template <class T>
struct op_functor<Op::sum, T> {
  using type = SumOp<T>;
};
template <class T>
struct op_functor<Op::max, T> {
  using type = MaxOp<T>;
};
template <class T>
struct op_functor<Op::min, T> {
  using type = MinOp<T>;
};
template <Op op, class T>
using op_functor_t = typename op_functor<op, T>::type;

// What a reduction of zero elements returns, and a scan's empty prefix (exclusive[0]), for the functor OpT.
template <class OpT, class T>
__host__ __device__ constexpr T empty_result() {
  if constexpr (cuda::std::is_same_v<OpT, SumOp<T>>) {
    return T(0);  // +0.0, not the sum's identity -0.0
  } else if constexpr (cuda::std::is_same_v<OpT, MaxOp<T>>) {
    return cuda::std::numeric_limits<T>::lowest();
  } else if constexpr (cuda::std::is_same_v<OpT, MinOp<T>>) {
    return cuda::std::numeric_limits<T>::max();
  } else {
    return OpT::identity();
  }
}
// The same for a suite's op named at compile time, as the suite's kernels name it.
template <Op op, class T>
__host__ __device__ constexpr T empty_result() {
  return empty_result<op_functor_t<op, T>, T>();
}

}  // namespace kernels::detail

namespace kernels::variant {

// What a reduction of zero elements returns, and a scan's empty prefix (exclusive[0]): +0 for a sum (not its
// identity -0.0), lowest() for max and max() for min (CUB's choice), else the operator's identity.
template <class OpT, class T>
__host__ __device__ constexpr T empty_result() {
  return detail::empty_result<OpT, T>();
}

}  // namespace kernels::variant
