// A user's operator, brought the way docs/operators.md describes: the product of 2x2 matrices
// [[a, b], [c, d]] with entries mod 2^16, packed in a 64-bit word (a in bits 0-15, b in 16-31, c
// in 32-47, d in 48-63); the identity matrix is its identity. Associative, not commutative.
// test/fixtures/fixture_matrix_product.cu is a variant that takes it alone.
// Long random products mod 2^16 tend to zero, so it tests order weakly: the suite's own is unitriangular.hpp.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

namespace kernels::operators {

struct Matrix2x2Mod16 {
  static constexpr bool kCommutative = false;
  template <class T>
  static constexpr bool kTakes = std::is_integral_v<T> && sizeof(T) == 8;

  template <class T>
  __host__ __device__ static constexpr T identity() {
    return static_cast<T>(1ull | 1ull << 48);
  }
  template <class T>
  __host__ __device__ static T combine(T earlier, T later) {
    using U = unsigned long long;
    const U x = static_cast<U>(earlier), y = static_cast<U>(later);
    const auto entry = [](U word, int k) { return unsigned((word >> (16 * k)) & 0xffffu); };
    const unsigned a = entry(x, 0) * entry(y, 0) + entry(x, 1) * entry(y, 2);
    const unsigned b = entry(x, 0) * entry(y, 1) + entry(x, 1) * entry(y, 3);
    const unsigned c = entry(x, 2) * entry(y, 0) + entry(x, 3) * entry(y, 2);
    const unsigned d = entry(x, 2) * entry(y, 1) + entry(x, 3) * entry(y, 3);
    return static_cast<T>(U(a & 0xffffu) | U(b & 0xffffu) << 16 | U(c & 0xffffu) << 32 | U(d & 0xffffu) << 48);
  }
  template <class T>
  static T reference(T earlier, T later) {
    std::uint64_t left[2][2], right[2][2], packed = 0;
    for (int k = 0; k < 4; ++k) {
      left[k / 2][k % 2] = (static_cast<std::uint64_t>(earlier) >> (16 * k)) % 65536;
      right[k / 2][k % 2] = (static_cast<std::uint64_t>(later) >> (16 * k)) % 65536;
    }
    for (int k = 0; k < 4; ++k) {
      const std::uint64_t entry = left[k / 2][0] * right[0][k % 2] + left[k / 2][1] * right[1][k % 2];
      packed |= (entry % 65536) << (16 * k);
    }
    return static_cast<T>(packed);
  }
};

}  // namespace kernels::operators
