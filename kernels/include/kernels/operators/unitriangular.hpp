// The product of 3x3 upper unitriangular matrices [[1, a, c], [0, 1, b], [0, 0, 1]] in a 64-bit word: a (mod
// 2^22) in bits 0-21, b (mod 2^21) in 22-42, c (mod 2^21) in 43-63. Multiplying adds the a's and the b's and gives
// c1 + c2 + a1 * b2, so op(x, y) and op(y, x) differ by a1 * b2 - a2 * b1. Every matrix has an inverse, so long
// products never collapse (unlike matrix2x2_mod16's), and the word 0 is the identity. c only needs a mod 2^21,
// which is why a keeps one more bit.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

namespace kernels::operators {

struct Unitriangular {
  static constexpr bool kCommutative = false;
  template <class T>
  static constexpr bool kTakes = std::is_integral_v<T> && sizeof(T) == 8;

  template <class T>
  __host__ __device__ static constexpr T identity() {
    return T(0);
  }
  template <class T>
  __host__ __device__ static T combine(T earlier, T later) {
    using U = unsigned long long;
    constexpr U kA = (U(1) << 22) - 1, kBC = (U(1) << 21) - 1;
    const U x = static_cast<U>(earlier), y = static_cast<U>(later);
    const U a = ((x & kA) + (y & kA)) & kA;
    const U b = (((x >> 22) & kBC) + ((y >> 22) & kBC)) & kBC;
    const U c = ((x >> 43) + (y >> 43) + (x & kA) * ((y >> 22) & kBC)) & kBC;
    return static_cast<T>((c << 43) | (b << 22) | a);
  }
  // The same product as 3x3 matrices of 64-bit integers, reduced when packed.
  template <class T>
  static T reference(T earlier, T later) {
    using Matrix = std::uint64_t[3][3];
    const auto unpack = [](T word, Matrix& m) {
      const auto bits = static_cast<std::uint64_t>(word);
      const std::uint64_t a = bits % (1ull << 22), b = (bits >> 22) % (1ull << 21), c = bits >> 43;
      const std::uint64_t rows[3][3] = {{1, a, c}, {0, 1, b}, {0, 0, 1}};
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) m[i][j] = rows[i][j];
    };
    Matrix left, right, product = {};
    unpack(earlier, left);
    unpack(later, right);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) product[i][j] += left[i][k] * right[k][j];
    const std::uint64_t a = product[0][1] % (1ull << 22), b = product[1][2] % (1ull << 21),
                        c = product[0][2] % (1ull << 21);
    return static_cast<T>(c << 43 | b << 22 | a);
  }
};

}  // namespace kernels::operators
