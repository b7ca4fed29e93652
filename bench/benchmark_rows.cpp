#include "benchmark_rows.hpp"

namespace bench {
namespace {

constexpr std::uint64_t kShortest = std::uint64_t(1) << 10;
constexpr std::uint64_t kLongest = std::uint64_t(1) << 28;

}  // namespace

std::vector<std::uint64_t> row_lengths(const kernels::VariantInfo& variant) {
  const std::uint64_t limit = variant.max_length_with(0);
  std::vector<std::uint64_t> lengths;
  for (std::uint64_t n = kShortest; n <= kLongest && n <= limit; n *= 4) lengths.push_back(n);
  if (limit < kLongest && (lengths.empty() || lengths.back() != limit)) lengths.push_back(limit);
  return lengths;
}

bool has_rows(const kernels::VariantInfo& variant, kernels::TypeKey type) {
  switch (variant.family) {
    case kernels::Family::reduce: return variant.supports(type, kernels::Op::sum);
    case kernels::Family::scan:
      return variant.supports(type, kernels::Op::sum) && variant.supports(kernels::ScanKind::inclusive);
    case kernels::Family::sort: return variant.supports(type);
  }
  return false;
}

std::vector<kernels::Op> other_ops(const kernels::VariantInfo& variant, kernels::TypeKey type) {
  std::vector<kernels::Op> ops;
  if (variant.family == kernels::Family::sort) return ops;
  if (variant.family == kernels::Family::scan && !variant.supports(kernels::ScanKind::inclusive)) return ops;
  for (kernels::Op op : variant.ops(type)) {
    if (op != kernels::Op::sum) ops.push_back(op);
  }
  return ops;
}

void configure_row(benchmark::internal::Benchmark& row) { row.UseManualTime()->Unit(benchmark::kMillisecond); }

void report_row(benchmark::State& state, const RowTraffic& traffic, const RowTimes& times) {
  using benchmark::Counter;
  // Rates per iteration over the manual time: the values are per call.
  state.counters["elements_per_second"] = Counter(traffic.elements, Counter::kIsIterationInvariantRate);
  state.counters["bytes_per_second"] = Counter(traffic.bytes, Counter::kIsIterationInvariantRate);
  const double row_bandwidth = traffic.bytes / times.call_ms;
  const double copy_bandwidth = traffic.copy_bytes / times.copy_ms;
  state.counters["copy_fraction"] = row_bandwidth / copy_bandwidth;
  if (times.is_cub) {
    state.counters["vs_cub"] = 1.0;
  } else if (times.cub_ms) {
    state.counters["vs_cub"] = *times.cub_ms / times.call_ms;
  }
}

}  // namespace bench
