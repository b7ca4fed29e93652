// A slowdown planted in the benchmark harness, to measure what bench/perf_regression.py catches:
// KERNELS_BENCH_SLOWDOWN=<row regex>=<fraction>, e.g. '^scan/naive/=0.10' (docs/benchmarks.md).
// The kernels are untouched: each timed call of a matching row ends, inside the same CUDA-event
// region, with a spin kernel on its stream lasting `fraction` of the row's own unplanted time.
#pragma once

#include "gpu_timer.hpp"
#include "spin.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bench {

// Reads KERNELS_BENCH_SLOWDOWN once; a malformed value throws std::invalid_argument naming the
// variable, the value and the expected form (main.cpp exits 2 on it before any row runs).
void check_planted_slowdown();

// The fraction planted in the row named `row` (family/variant/type/n, as row_name() makes it,
// without /manual_time; an ECMAScript regex searched anywhere in it), or nullopt.
std::optional<double> planted_fraction(const std::string& row);

inline double median_ms(std::vector<double> times) {
  const auto middle = times.begin() + std::ptrdiff_t(times.size() / 2);
  std::nth_element(times.begin(), middle, times.end());
  return *middle;
}

// The spin a planted row's timed calls end with: `fraction` of the median of a few untimed calls,
// less what an empty spin adds by itself (its launch), so that a call with its spin takes about
// (1 + fraction) of its unplanted time, to the resolution of %globaltimer.
template <class Call>
std::uint64_t planted_spin_ns(double fraction, cudaStream_t stream, GpuTimer& timer, Call&& call) {
  constexpr int kSamples = 5;
  std::vector<double> bare, with_empty_spin;
  for (int i = 0; i < kSamples; ++i) {
    bare.push_back(timer.time_ms(stream, call));
    with_empty_spin.push_back(timer.time_ms(stream, [&] {
      call();
      enqueue_spin(stream, 0);
    }));
  }
  const double unplanted_ms = median_ms(bare);
  const double launch_ms = std::max(0.0, median_ms(with_empty_spin) - unplanted_ms);
  return std::uint64_t(std::max(0.0, fraction * unplanted_ms - launch_ms) * 1e6);
}

}  // namespace bench
