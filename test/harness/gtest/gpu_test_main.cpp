// main() of every GPU test executable.
//
//   <exe> --list-variants [<library> [<family>]]
//                                    the gtest parameter names of the variants its tests are
//                                    instantiated for (that library's), one a line (ctest's test
//                                    discovery; touches no GPU)
//   <exe> [gtest flags]              runs the tests: exit 77 (ctest: Skipped) without a GPU,
//                                    unless KERNELS_REQUIRE_GPU=1 makes that a failure (a GPU
//                                    the driver lists but CUDA cannot reach always fails), and
//                                    when KERNELS_TEST_TYPES (gtest/type_filter.hpp) leaves it
//                                    no test; through the build's MPS daemon when it serves
//                                    (runner/mps_client.hpp)
#include "harness/diagnosis/failure_list.hpp"
#include "harness/diagnosis/stop_on_failure.hpp"
#include "harness/gtest/test_main.hpp"
#include "harness/gtest/type_filter.hpp"
#include "harness/gtest/variant_listing.hpp"
#include "harness/input/run_seed.hpp"
#include "harness/session/gpu_session.hpp"
#include "harness/session/mps_client.hpp"
#include "harness/session/phase_clock.hpp"
#include "harness/settings/environment.hpp"
#include "harness/settings/variant_libraries.hpp"

#include <gtest/gtest.h>
#include <algorithm>

#include <malloc.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <stdexcept>
#include <string>

namespace harness {

std::vector<const kernels::VariantInfo*> variants_where(kernels::Family family, kernels::TypeKey type,
                                                        const std::function<bool(const kernels::VariantInfo&)>& keep) {
  std::vector<const kernels::VariantInfo*> chosen;
  for (const kernels::VariantInfo* variant : kernels::variants_of(family)) {
    if (variant->supports(type) && keep(*variant)) chosen.push_back(variant);
  }
  return chosen;
}

std::vector<const kernels::VariantInfo*> variants_taking(kernels::Family family, kernels::TypeKey type,
                                                         std::uint64_t n) {
  return variants_where(family, type, [&](const kernels::VariantInfo& v) { return v.accepts_length(n, 0, type); });
}

std::vector<const kernels::VariantInfo*> variants_taking_any_type(kernels::Family family, std::uint64_t n) {
  std::vector<const kernels::VariantInfo*> chosen;
  for (const kernels::VariantInfo* variant : kernels::variants_of(family)) {
    const auto types = variant->types();
    if (std::any_of(types.begin(), types.end(),
                    [&](kernels::TypeKey type) { return variant->accepts_length(n, 0, type); }))
      chosen.push_back(variant);
  }
  return chosen;
}

namespace {

constexpr int kSkippedExitCode = 77;

// Counts what ran and catches skips that a GPU-required run does not accept.
class RunAccounting : public testing::EmptyTestEventListener {
 public:
  int ran = 0;
  int skipped = 0;
  int unaccepted_skips = 0;

  void OnTestPartResult(const testing::TestPartResult& result) override {
    if (!result.skipped()) return;
    ++skipped;
    const char* why = result.message();
    if (std::strstr(why, kMemorySkip) == nullptr && std::strstr(why, kContractSkip) == nullptr) ++unaccepted_skips;
  }
  void OnTestEnd(const testing::TestInfo& info) override {
    if (info.should_run()) ++ran;
  }
};

// A failed assertion tells the other entries of the run to stop (KERNELS_STOP_FILE), before gtest
// goes on (or breaks, under GTEST_BREAK_ON_FAILURE).
class FailureAnnouncement : public testing::EmptyTestEventListener {
 public:
  void OnTestPartResult(const testing::TestPartResult& result) override {
    if (result.failed()) tell_other_entries_of_failure();
  }
};

// A failure in a process that shares the GPU through MPS, whose context is lost: the fault may be
// another process's (runner/mps_client.hpp), so the entry runs again without MPS, before the
// failure tells other entries to stop.
class RerunWithoutMpsWhenContextLost : public testing::EmptyTestEventListener {
 public:
  void OnTestPartResult(const testing::TestPartResult& result) override {
    if (result.failed() && joined_mps() && cuda_context_lost())
      rerun_without_mps_if_joined("this process's CUDA context was lost while it shared the GPU");
  }
};

// RapidCheck draws its own random seed unless RC_PARAMS names one: tie it to the run seed, so
// the properties are as reproducible as everything else (an explicit seed= or reproduce= wins).
void seed_rapidcheck_from_run_seed() {
  const char* given = std::getenv("RC_PARAMS");
  std::string params = given ? given : "";
  if (params.find("seed=") != std::string::npos || params.find("reproduce=") != std::string::npos) return;
  if (!params.empty()) params += ' ';
  params += "seed=";
  params += std::to_string(run_seed());
  setenv("RC_PARAMS", params.c_str(), 1);
}

// The tests build and free host buffers of hundreds of megabytes batch after batch (images of
// the largest inputs). glibc maps each such buffer fresh and unmaps it when freed, so every
// batch faults its pages in again and the kernel zeroes them: about half of a reduction entry's
// time was system time, and with a process per CPU those faults slow every process. Served from
// the heap and kept there, freed memory is reused instead.
void reuse_freed_host_memory() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
}

// Two hardware work queues per context instead of CUDA's eight (unless CUDA_DEVICE_MAX_CONNECTIONS
// is set): the driver makes a GPU's contexts one at a time, and each queue is part of that work.
// On an H100, sixteen processes starting together took 2.3 to 4.6 s each to make their contexts
// with eight queues, 1.0 to 1.2 s with two, and the gpu preset took 78 s instead of 89 s
// (2026-11-25; bench/results/suite-timing.md in git history). A batch's eight run streams then share
// two queues: its runs still overlap, and the results do not depend on it.
void use_two_connections() { setenv("CUDA_DEVICE_MAX_CONNECTIONS", "2", 0); }

}  // namespace
}  // namespace harness

int main(int argc, char** argv) {
  harness::refuse_retired_variables();
  harness::load_variant_libraries(harness::library_to_list(argc, argv));
  harness::join_mps_if_serving();
  testing::InitGoogleTest(&argc, argv);
  if (const auto listed = harness::list_variants_if_asked(argc, argv)) return *listed;
  if (testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();

  const auto started = std::chrono::steady_clock::now();
  bool print_phase_times = false;
  const char* types = harness::suite_variable("KERNELS_TEST_TYPES");
  try {
    print_phase_times = harness::parse_phase_times(harness::suite_variable("KERNELS_PHASE_TIMES"));
    const std::string group_filter = harness::filter_for_types(
        testing::GTEST_FLAG(filter), harness::suite_variable("KERNELS_TEST_TYPE_GROUP"), "KERNELS_TEST_TYPE_GROUP");
    testing::GTEST_FLAG(filter) = harness::filter_for_types(group_filter, types);
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "FAIL: %s\n", error.what());
    return 1;
  }
  std::optional<harness::PhaseTimer> starting(harness::Phase::start);
  harness::reuse_freed_host_memory();
  harness::use_two_connections();
  harness::clear_failure_list();
  harness::use_ctest_assigned_gpu();
  std::printf("%s\n", harness::describe_run_seed().c_str());
  harness::seed_rapidcheck_from_run_seed();
  const harness::GpuProbe gpu = harness::probe_gpu();
  starting.reset();
  if (!gpu.available) {
    harness::rerun_without_mps_if_joined("no usable device through MPS: " + gpu.description);
    if (gpu.lost) {
      std::printf("GPU LOST: %s; this executable's GPU tests did not run, which is a failure, not a skip\n",
                  gpu.description.c_str());
      return 1;
    }
    if (harness::gpu_required()) {
      std::fprintf(stderr, "FAIL: KERNELS_REQUIRE_GPU is set but there is no usable CUDA device: %s\n",
                   gpu.description.c_str());
      return 1;
    }
    std::printf("SKIP: no usable CUDA device (%s); this executable's GPU tests did not run\n", gpu.description.c_str());
    return harness::kSkippedExitCode;
  }
  std::printf("device: %s\n", gpu.description.c_str());

  auto* accounting = new harness::RunAccounting;  // owned by gtest once appended
  testing::UnitTest::GetInstance()->listeners().Append(accounting);
  testing::UnitTest::GetInstance()->listeners().Append(new harness::RerunWithoutMpsWhenContextLost);
  testing::UnitTest::GetInstance()->listeners().Append(new harness::FailureAnnouncement);
  harness::stop_when_another_entry_fails();
  const int status = RUN_ALL_TESTS();
  if (print_phase_times) {
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("%s\n", harness::phase_line(wall_s, double(std::clock()) / CLOCKS_PER_SEC).c_str());
  }
  if (accounting->ran == 0 && types != nullptr && *types != '\0') {
    std::printf("SKIP: KERNELS_TEST_TYPES=%s leaves this entry no test\n", types);
    return harness::kSkippedExitCode;
  }
  if (accounting->ran == 0) {
    std::fprintf(stderr, "FAIL: no test matched (check --gtest_filter)\n");
    return 1;
  }
  if (status != 0) return status;
  if (harness::gpu_required() && accounting->unaccepted_skips > 0) {
    std::fprintf(stderr, "FAIL: KERNELS_REQUIRE_GPU is set and %d test(s) skipped for a reason other than memory\n",
                 accounting->unaccepted_skips);
    return 1;
  }
  if (accounting->skipped == accounting->ran) return harness::kSkippedExitCode;
  return 0;
}
