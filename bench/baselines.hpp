// The references a row is compared with, measured in the same process with the same timer and
// memoized, so that each is measured once per type and length whatever the number of rows
// needing it: a device-to-device copy of the row's input (copy_fraction) and the family's CUB
// variant on the row's own inputs (vs_cub).
#pragma once

#include "device_fill.hpp"
#include "device_session.hpp"
#include "gpu_timer.hpp"
#include "rotating_inputs.hpp"
#include "row_names.hpp"

#include <harness/memory/device_buffer.hpp>
#include <kernels/errors.hpp>
#include <kernels/registry.hpp>
#include <kernels/types.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

// The variant every family is measured against.
inline constexpr std::string_view kCubVariant = "cub";

// What measure() returned the first time this process asked for `key`.
double memoized_ms(const std::string& key, const std::function<double()>& measure);

// The median time of call(i) for i = 1, 2, ... after one call of warm-up: at least 15 calls and
// 20 ms of device time, at most 5000 calls.
template <class Call>
double median_call_ms(cudaStream_t stream, Call&& call) {
  constexpr std::size_t kMinCalls = 15, kMaxCalls = 5000;
  constexpr double kMinTotalMs = 20;
  call(std::size_t(0));
  kernels::check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (warm-up)");
  GpuTimer timer;
  std::vector<double> times;
  double total_ms = 0;
  for (std::size_t i = 1; times.size() < kMinCalls || (total_ms < kMinTotalMs && times.size() < kMaxCalls); ++i) {
    times.push_back(timer.time_ms(stream, [&] { call(i); }));
    total_ms += times.back();
  }
  const auto middle = times.begin() + std::ptrdiff_t(times.size() / 2);
  std::nth_element(times.begin(), middle, times.end());
  return *middle;
}

// cudaMemcpyAsync of n elements of T from device to device, on rotating buffers of its own.
template <class T>
double copy_ms(std::uint64_t n) {
  const std::string key = "copy/" + std::string(kernels::name(kernels::type_key_v<T>)) + "/" + std::to_string(n);
  return memoized_ms(key, [n] {
    const cudaStream_t stream = bench_stream();
    const RotatingBuffers<T> buffers(n, n, Values::random_bits, stream);
    return median_call_ms(stream, [&](std::size_t call) {
      kernels::check_cuda(
          cudaMemcpyAsync(buffers.output(call), buffers.input(call), n * sizeof(T), cudaMemcpyDeviceToDevice, stream),
          "cudaMemcpyAsync (copy baseline)");
    });
  });
}

// The family's CUB variant with the operator on `buffers` (a row's inputs), with a workspace of
// its own.
template <class Rows>
double cub_ms(kernels::Op op, std::uint64_t n, const RotatingBuffers<typename Rows::value_type>& buffers) {
  using T = typename Rows::value_type;
  return memoized_ms(row_name(Rows::family, kCubVariant, kernels::type_key_v<T>, op, n), [&] {
    const cudaStream_t stream = bench_stream();
    const harness::DeviceBuffer<std::byte> workspace(Rows::workspace_bytes(kCubVariant, op, n));
    const kernels::Workspace ws{workspace.data(), workspace.size()};
    return median_call_ms(stream, [&](std::size_t call) {
      Rows::run(kCubVariant, op, buffers.input(call), buffers.output(call), n, ws, stream);
    });
  });
}

}  // namespace bench
