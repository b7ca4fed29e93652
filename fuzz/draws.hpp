// Properties whose every RapidCheck case checks several independent draws, with one wait for the
// device. Sixteen test processes share a GPU that runs one process's kernels at a time, so each
// wait is a turn of the GPU: with a draw per case, the properties spent three quarters of their
// time waiting (bench/results/suite-timing-2026-11-25-device-judges.md).
#pragma once

#include "fuzz/device_calls.hpp"
#include "harness/session/host_threads.hpp"
#include "harness/session/phase_clock.hpp"

#include <rapidcheck.h>

#include <functional>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace fuzz {

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
  return result.template is<rc::detail::SuccessResult>();
}

}  // namespace fuzz
