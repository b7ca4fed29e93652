// Properties whose every RapidCheck case checks several independent draws, with one wait for the
// device. Sixteen test processes share a GPU that runs one process's kernels at a time, so each
// wait is a turn of the GPU: with a draw per case, the properties spent three quarters of their
// time waiting (an H100, 2026-11-25; bench/results/suite-timing.md in git history).
#pragma once

#include "fuzz/device_calls.hpp"
#include "harness/session/host_threads.hpp"
#include "harness/session/phase_clock.hpp"

#include <kernels/types.hpp>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

// How RapidCheck shows the suite's enumerations in a counterexample (found by argument-dependent lookup): by
// name, as rerun lines do, where it printed "<???>".
namespace kernels {
inline void showValue(Op op, std::ostream& os) { os << name(op); }
inline void showValue(TypeKey type, std::ostream& os) { os << name(type); }
inline void showValue(ScanKind kind, std::ostream& os) { os << name(kind); }
inline void showValue(SortForm form, std::ostream& os) { os << name(form); }
}  // namespace kernels

namespace fuzz {

// The line that replays a failed property's shrunk case as it ran: RapidCheck's reproduce string for it and the
// ctest entry that ran it (KERNELS_TEST_NAME), or, run by hand, this program and the test.
inline std::string property_rerun_line(const rc::detail::TestMetadata& metadata, const rc::detail::Reproduce& failed) {
  rc::detail::Configuration replay = rc::detail::configuration();
  replay.reproduce = {{metadata.id, failed}};
  std::string line = "RC_PARAMS=\"" + rc::detail::configToString(replay) + "\" ";
  std::error_code error;
  const std::string here = std::filesystem::current_path(error).string();
  if (const char* entry = std::getenv("KERNELS_TEST_NAME"); entry != nullptr && *entry != '\0')
    return line + "ctest --test-dir " + here + " -R '^" + entry + "$' --output-on-failure";
  if (const char* libraries = std::getenv("KERNELS_VARIANT_LIBRARIES"); libraries != nullptr && *libraries != '\0')
    line += "KERNELS_VARIANT_LIBRARIES=" + std::string(libraries) + " ";
  const testing::TestInfo* test = testing::UnitTest::GetInstance()->current_test_info();
  return line + std::filesystem::read_symlink("/proc/self/exe", error).string() + " --gtest_filter='" +
         (test ? std::string(test->test_suite_name()) + "." + test->name() : "*") + "'";
}

inline constexpr int kDrawsPerCase = 10;

// What checks one draw's results (RC_ASSERT), run once its case's calls have been waited for;
// empty for a draw outside the property's precondition.
using DrawCheck = std::function<void()>;

// Checks a property as rc::check does, each case making kDrawsPerCase draws: `draw(calls)` draws
// one input, queues its device calls on `calls` and returns its DrawCheck. RapidCheck's number of
// cases (RC_PARAMS max_success, 100 by default) counts draws: the property runs
// max_success / kDrawsPerCase cases, rounded up. A case whose draws are all outside the
// precondition is discarded (RapidCheck gives up after too many). A failing case shrinks as any
// other, each draw as far as the case still fails (the failing draw to its smallest); its
// reproduce string replays it whole.
template <class Draw>
bool check_draws(const std::string& description, Draw&& draw) {
  rc::detail::configuration();  // prints the configuration before the description, as rc::check
  std::cerr << "\n- " << description << " (" << kDrawsPerCase << " draws a case)\n";
  rc::detail::TestMetadata metadata;
  metadata.id = description;
  metadata.description = description;
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = (params.maxSuccess + kDrawsPerCase - 1) / kDrawsPerCase;
  const auto result = rc::detail::checkTestable(
      [&] {
        harness::DeviceCalls calls;
        std::vector<DrawCheck> checks;
        for (int k = 0; k < kDrawsPerCase; ++k) {
          if (DrawCheck check = draw(calls)) checks.push_back(std::move(check));
        }
        RC_PRE(!checks.empty());
        calls.wait();
        // The draws' checks side by side: their oracles are most of a property's host work.
        harness::timed(harness::Phase::judge, [&] { harness::run_all(checks); });
      },
      metadata, params);
  rc::detail::printResultMessage(result, std::cerr);
  std::cerr << std::endl;
  if (rc::detail::FailureResult failure; result.match(failure))
    std::cerr << "     rerun: " << property_rerun_line(metadata, failure.reproduce) << std::endl;
  return result.template is<rc::detail::SuccessResult>();
}

}  // namespace fuzz
