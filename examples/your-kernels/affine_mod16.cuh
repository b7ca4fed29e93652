// affine_mod16: an outside project's operator (docs/operators.md, "Your own operator"), the composition of affine
// maps x -> a*x + b mod 2^16 packed in 32 bits (a in bits 0-15, b in 16-31): earlier, then later. Associative, not
// commutative; the identity map (a = 1, b = 0) is its identity. my_block_scan.cu takes it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

namespace my_project {

struct AffineMod16 {
  static constexpr const char* kName = "affine_mod16";
  static constexpr bool kCommutative = false;
  template <class T>
  static constexpr bool kTakes = std::is_same_v<T, int> || std::is_same_v<T, unsigned>;

  template <class T>
  __host__ __device__ static constexpr T identity() {
    return T(1);
  }
  // What kernels call: packed lanes, products wrapping in 32 bits (only their low 16 bits are kept).
  template <class T>
  __host__ __device__ static T combine(T earlier, T later) {
    const unsigned f = unsigned(earlier), g = unsigned(later);
    const unsigned a = (g & 0xffffu) * (f & 0xffffu), b = (g & 0xffffu) * (f >> 16) + (g >> 16);
    return T((a & 0xffffu) | (b << 16));
  }
  // The oracle's step, written apart: later(earlier(x)) = ga*(fa*x + fb) + gb on unpacked coefficients.
  template <class T>
  static T reference(T earlier, T later) {
    const std::uint64_t fa = std::uint32_t(earlier) % 65536, fb = std::uint32_t(earlier) / 65536;
    const std::uint64_t ga = std::uint32_t(later) % 65536, gb = std::uint32_t(later) / 65536;
    return T(std::uint32_t(ga * fa % 65536 + (ga * fb + gb) % 65536 * 65536));
  }
};

}  // namespace my_project
