// What every family's rows share: which rows exist, how one is timed and what it reports.
//
// A row is one variant, one element type, one operator (reductions and scans) and one length n,
// registered with Google Benchmark under row_name(). A family supplies its calls as a class
// template Rows<T>
// (reduce_benchmarks.cpp, scan_benchmarks.cpp, sort_benchmarks.cpp) with
//   using value_type = T;
//   static constexpr kernels::Family family;
//   static constexpr Values input_values;                       // how inputs are filled
//   static std::uint64_t outputs(std::uint64_t n);              // elements one call writes
//   static double bytes_moved(const kernels::VariantInfo&, std::uint64_t n);  // the primitive's traffic
//   static std::size_t workspace_bytes(std::string_view variant, kernels::Op, std::uint64_t n);
//   static void run(std::string_view variant, kernels::Op, const T* in, T* out, std::uint64_t n,
//                   kernels::Workspace, cudaStream_t);                   (sorts take no op: Op::sum)
// and registers its rows with register_family_rows<Rows>().
#pragma once

#include "baselines.hpp"
#include "device_session.hpp"
#include "gpu_timer.hpp"
#include "planted_slowdown.hpp"
#include "rotating_inputs.hpp"
#include "row_names.hpp"

#include <benchmark/benchmark.h>
#include <harness/memory/device_buffer.hpp>
#include <kernels/errors.hpp>
#include <kernels/registry.hpp>
#include <kernels/types.hpp>
#include <kernels/workspace.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <vector>

namespace bench {

// The lengths a variant is benchmarked at: 2^10, 2^12, ..., 2^28 up to its limit with its
// preferred block size, and that limit itself when it is below 2^28 (single-block and
// quadratic variants stop there).
std::vector<std::uint64_t> row_lengths(const kernels::VariantInfo& variant);

// Whether a row exists for the variant and type: the variant takes the type and, where the
// family has operations, the sum (reductions and scans are timed on the sum at every length;
// sorts have none).
bool has_rows(const kernels::VariantInfo& variant, kernels::TypeKey type);

// The variant's other operators on the type (every declared op but the sum; none for sorts),
// each timed at the variant's longest row length.
std::vector<kernels::Op> other_ops(const kernels::VariantInfo& variant, kernels::TypeKey type);

// Google Benchmark's settings of every row: manual (CUDA event) time, in ms. (Repetitions and
// the time each gathers are flags with defaults: main.cpp.)
void configure_row(benchmark::internal::Benchmark& row);

// A row's measurements, from which it reports its counters.
struct RowTimes {
  double call_ms = 0;            // mean over the repetition's timed calls
  double copy_ms = 0;            // the copy baseline for the same type and n
  std::optional<double> cub_ms;  // the CUB baseline; none for the CUB row itself
  bool is_cub = false;
};
struct RowTraffic {
  double elements = 0;    // n
  double bytes = 0;       // what the primitive must move
  double copy_bytes = 0;  // what the copy baseline moves: n elements read and written
};

// elements_per_second and bytes_per_second (rates over the manual time), copy_fraction (the
// row's bytes/s over the copy's) and vs_cub (CUB's time over the row's; 1 for CUB itself).
void report_row(benchmark::State& state, const RowTraffic& traffic, const RowTimes& times);

template <class Rows>
void run_row(benchmark::State& state, const kernels::VariantInfo& variant, kernels::Op op, std::uint64_t n) {
  using T = typename Rows::value_type;
  try {
    const cudaStream_t stream = bench_stream();
    const RotatingBuffers<T> buffers(n, Rows::outputs(n), Rows::input_values, stream);
    const harness::DeviceBuffer<std::byte> workspace(Rows::workspace_bytes(variant.name, op, n));
    const kernels::Workspace ws{workspace.data(), workspace.size()};
    std::size_t calls = 0;
    const auto call = [&] {
      Rows::run(variant.name, op, buffers.input(calls), buffers.output(calls), n, ws, stream);
      ++calls;
    };

    RowTimes times;
    times.is_cub = variant.name == kCubVariant;
    times.copy_ms = copy_ms<T>(n);
    // Beside CUB wherever CUB takes the operator (DeviceReduce takes commutative ones only).
    const kernels::VariantInfo* cub = kernels::find_variant(Rows::family, kCubVariant);
    const bool cub_takes_op =
        Rows::family == kernels::Family::sort || (cub && cub->supports(kernels::type_key_v<T>, op));
    if (!times.is_cub && cub != nullptr && cub_takes_op) times.cub_ms = cub_ms<Rows>(op, n, buffers);

    call();  // warm-up: loads the variant's kernels on first use
    kernels::check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (warm-up)");
    GpuTimer timer;
    // KERNELS_BENCH_SLOWDOWN: a matching row's timed calls each end with a spin, measured here, untimed.
    const std::optional<double> planted =
        planted_fraction(row_name(Rows::family, variant.name, kernels::type_key_v<T>, op, n));
    const std::uint64_t spin_ns = planted ? planted_spin_ns(*planted, stream, timer, call) : 0;
    const auto timed_call = [&] {
      call();
      if (planted) enqueue_spin(stream, spin_ns);
    };
    double total_ms = 0;
    for (auto _ : state) {
      const double ms = timer.time_ms(stream, timed_call);
      state.SetIterationTime(ms * 1e-3);
      total_ms += ms;
    }
    times.call_ms = total_ms / double(state.iterations());
    report_row(state, {double(n), Rows::bytes_moved(variant, n), 2.0 * double(n) * sizeof(T)}, times);
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
  }
}

template <class Rows>
void register_rows_of_type() {
  constexpr kernels::TypeKey type = kernels::type_key_v<typename Rows::value_type>;
  const auto add_row = [](const kernels::VariantInfo* variant, kernels::Op op, std::uint64_t n) {
    configure_row(*benchmark::RegisterBenchmark(
        row_name(Rows::family, variant->name, type, op, n).c_str(),
        [variant, op, n](benchmark::State& state) { run_row<Rows>(state, *variant, op, n); }));
  };
  for (const kernels::VariantInfo* variant : kernels::variants_of(Rows::family)) {
    if (has_rows(*variant, type)) {
      for (std::uint64_t n : row_lengths(*variant)) add_row(variant, kernels::Op::sum, n);
    }
    for (kernels::Op op : other_ops(*variant, type)) add_row(variant, op, row_lengths(*variant).back());
  }
}

// Registers the family's rows for each of `Types`, in that order, each type's variants in
// registry order and each variant's lengths ascending.
template <template <class> class Rows, class... Types>
void register_family_rows() {
  (register_rows_of_type<Rows<Types>>(), ...);
}

}  // namespace bench
