// kernels_bench: every registered variant of every family at lengths 2^10 to 2^28, timed with
// CUDA events next to CUB and a device-to-device copy (bench/README.md).
//
//   kernels_bench [Google Benchmark flags]   e.g. --benchmark_filter='^scan/'
//                                            --benchmark_out=bench.json --benchmark_out_format=json
//
// Without a GPU it exits 77 (ctest: Skipped), or 1 under KERNELS_REQUIRE_GPU=1; listing the rows
// (--benchmark_list_tests) needs no GPU.
#include "device_session.hpp"
#include "families.hpp"
#include "planted_slowdown.hpp"

#include <benchmark/benchmark.h>
#include <harness/session/gpu_session.hpp>

#include <cstdio>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace {

constexpr int kSkippedExitCode = 77;

// Google Benchmark parses its flags but does not expose them: whether it will only list rows.
bool listing_requested(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--benchmark_list_tests" || arg == "--benchmark_list_tests=true" || arg == "--benchmark_list_tests=1") {
      return true;
    }
  }
  return false;
}

// Flags placed before the command line's, which override them. As flags rather than settings
// of each row, they keep the row names bare (a row's own setting appends itself to its name).
//  - 5 repetitions, reported as their mean, median (what the scripts read), stddev and cv;
//  - each repetition gathers at least 20 ms of device time: about 2000 calls at 2^10 (where
//    a call is launch-bound, ~10 us), about 50 for a 2^28 reduction, and a single call where
//    one takes longer (the quadratic variants near their limits, bitonic at 2^28). This is
//    what bounds the whole run; bench/README.md estimates its length.
constexpr const char* kDefaultFlags[] = {
    "--benchmark_repetitions=5",
    "--benchmark_report_aggregates_only=true",
    "--benchmark_min_time=0.02",
};

std::vector<char*> with_default_flags(int argc, char** argv) {
  std::vector<char*> args{argv[0]};
  for (const char* flag : kDefaultFlags) args.push_back(const_cast<char*>(flag));
  args.insert(args.end(), argv + 1, argv + argc);
  args.push_back(nullptr);
  return args;
}

}  // namespace

int main(int argc, char** argv) {
  harness::use_ctest_assigned_gpu();
  const bool listing = listing_requested(argc, argv);
  std::vector<char*> args = with_default_flags(argc, argv);
  int arg_count = static_cast<int>(args.size()) - 1;
  benchmark::Initialize(&arg_count, args.data());
  if (benchmark::ReportUnrecognizedArguments(arg_count, args.data())) return 1;
  try {
    bench::check_planted_slowdown();  // a malformed value stops the run before any row
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "kernels_bench: %s\n", error.what());
    return 2;
  }
  bench::register_reduce_rows();
  bench::register_scan_rows();
  bench::register_sort_rows();

  if (!listing) {
    const harness::GpuProbe gpu = harness::probe_gpu();
    if (!gpu.available) {
      const bool required = harness::gpu_required() || gpu.lost;
      std::fprintf(stderr, "kernels_bench: no GPU (%s); %s\n", gpu.description.c_str(),
                   required ? "a GPU is required or was lost: failing" : "skipped");
      return required ? 1 : kSkippedExitCode;
    }
    bench::describe_device_in_context();
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
