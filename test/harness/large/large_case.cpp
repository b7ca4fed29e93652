#include "harness/large/large_case.hpp"

#include "harness/diagnosis/hang_watchdog.hpp"
#include "harness/input/run_seed.hpp"
#include "harness/memory/device_allocation.hpp"
#include "harness/session/gpu_session.hpp"

namespace harness {
namespace {

// Kept free beside a large case: the context, and what the kernels allocate themselves.
constexpr std::size_t kHeadroomBytes = std::size_t(256) << 20;

}  // namespace

Case large_case(const kernels::VariantInfo& variant, kernels::TypeKey type, std::uint64_t n) {
  return Case{.family = variant.family,
              .variant = std::string(variant.name),
              .type = type,
              .n = n,
              .distribution = Distribution::large,
              .seed = case_seed(run_seed(), type, Distribution::large, n)};
}

std::optional<std::string> lacks_device_memory(std::size_t bytes) {
  const std::size_t needed = bytes + kHeadroomBytes;
  release_pooled_device_memory();  // what earlier tests of this process freed is free
  const std::size_t free = free_device_memory();
  if (free >= needed) return std::nullopt;
  return "needs " + std::to_string(needed >> 20) + " MiB of device memory, " + std::to_string(free >> 20) + " MiB free";
}

BatchReport large_case_report(const Case& c, const std::function<std::vector<LargeProblem>()>& run) {
  BatchReport report;
  report.cases = 1;
  std::vector<LargeProblem> problems;
  {
    const HangWatch watch(
        [&] {
          return CaseFailure{c, FailureKind::timeout, "it did not finish"}.lines();
        },
        HangWatch::whole_deadline());
    try {
      problems = run();
    } catch (const std::exception& error) {
      problems = {{FailureKind::launch_error, std::string("the call or its stream failed: ") + error.what()}};
    }
  }
  if (problems.empty()) {
    report.passes.push_back("PASS " + describe(c));
    return report;
  }
  // One failure per case: the first problem's kind, every problem said.
  std::string what;
  for (const LargeProblem& problem : problems) what += (what.empty() ? "" : "; ") + problem.what;
  report.failures.emplace_back(c, problems.front().kind, what);
  return report;
}

}  // namespace harness
