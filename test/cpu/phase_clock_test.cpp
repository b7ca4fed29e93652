// The phase clock of the batch runner (harness/session/phase_clock.hpp): a step charges its own
// time, a step inside it pauses it, timed() passes its function's result on, the exit line names
// every step, and KERNELS_PHASE_TIMES takes exactly 0 or 1.
#include "harness/session/phase_clock.hpp"
#include "test/cpu/switch_wiring.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

namespace {

using harness::Phase;
using harness::PhaseTimer;
using namespace std::chrono_literals;

double seconds_of(Phase phase) { return harness::phase_seconds()[std::size_t(phase)]; }

TEST(PhaseClock, AnInnerStepPausesTheOuterOne) {
  const double generate_before = seconds_of(Phase::generate), judge_before = seconds_of(Phase::judge);
  {
    const PhaseTimer outer(Phase::generate);
    std::this_thread::sleep_for(20ms);
    {
      const PhaseTimer inner(Phase::judge);
      std::this_thread::sleep_for(300ms);
    }
    std::this_thread::sleep_for(20ms);
  }
  const double generate = seconds_of(Phase::generate) - generate_before;
  const double judge = seconds_of(Phase::judge) - judge_before;
  EXPECT_GE(judge, 0.3);
  EXPECT_GE(generate, 0.04);
  EXPECT_LT(generate, 0.3) << "the outer step counted the inner one's time";
}

TEST(PhaseClock, TimedPassesTheResultOnAndChargesItsPhase) {
  const double before = seconds_of(Phase::wait);
  const int result = harness::timed(Phase::wait, [] {
    std::this_thread::sleep_for(10ms);
    return 42;
  });
  EXPECT_EQ(result, 42);
  EXPECT_GE(seconds_of(Phase::wait) - before, 0.01);
}

TEST(PhaseClock, TheExitLineNamesEveryStepThenTheRest) {
  const std::string line = harness::phase_line(100.0, 2.5);
  for (const char* step :
       {"start", "generate", "upload", "allocate", "launch", "wait", "download", "judge", "guards"}) {
    EXPECT_NE(line.find(std::string(" ") + step + " "), std::string::npos) << step << " missing from: " << line;
  }
  EXPECT_EQ(line.rfind("phase seconds: start ", 0), 0u) << line;
  EXPECT_NE(line.find(" other 9"), std::string::npos) << "other is the wall time less the steps': " << line;
  EXPECT_NE(line.find("; wall 100.00 cpu 2.50"), std::string::npos) << line;
}

TEST(PhaseClock, TheSwitchIsOffUnlessSet) {
  harness::testing_support::expect_switch_wiring(harness::parse_phase_times, "KERNELS_PHASE_TIMES", false);
}

}  // namespace
