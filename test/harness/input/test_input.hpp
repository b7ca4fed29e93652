// One generated test input: its values and what regenerates them.
#pragma once

#include "harness/input/distributions.hpp"
#include "harness/runner/phase_clock.hpp"

#include <cstdint>
#include <vector>

namespace harness {

template <class T>
struct TestInput {
  Distribution distribution = Distribution::random;
  std::uint64_t seed = 0;
  unsigned offset = 0;  // elements past a 16-byte boundary where the device copy starts
  std::vector<T> values;
};

template <class T>
TestInput<T> make_test_input(Distribution distribution, std::uint64_t n, std::uint64_t seed, unsigned offset = 0) {
  return {distribution, seed, offset, timed(Phase::generate, [&] { return generate<T>(distribution, n, seed); })};
}

}  // namespace harness
