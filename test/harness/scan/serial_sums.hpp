// The float sums a serial kernel writes, each step rounded to T: outputs within the bound of
// accumulation depth n, which the tests of the float judges pass to both judges (test/cpu and
// test/judges).
#pragma once

#include "harness/numeric/element_traits.hpp"

#include <kernels/types.hpp>

#include <cstddef>
#include <vector>

namespace harness {

template <class T>
std::vector<T> serial_sums(kernels::ScanKind kind, const std::vector<T>& in) {
  std::vector<T> out(in.size());
  T sum = from_double<T>(0.0);
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (kind == kernels::ScanKind::inclusive) sum = from_double<T>(as_double(sum) + as_double(in[i]));
    out[i] = sum;
    if (kind == kernels::ScanKind::exclusive) sum = from_double<T>(as_double(sum) + as_double(in[i]));
  }
  return out;
}

}  // namespace harness
