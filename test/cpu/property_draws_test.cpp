// fuzz::check_draws, which the GPU properties check through (fuzz/draws.hpp), on draws that queue
// no device call: how many cases and draws it makes of RapidCheck's max_success, that every
// draw of a case is made before any is checked (the checks of a case run side by side, on the
// host's threads), and that a failing draw fails the property and a property whose every draw is
// outside its precondition gives up rather than passes.
#include "fuzz/draws.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

namespace {

using fuzz::DrawCheck;
using fuzz::kDrawsPerCase;
using harness::DeviceCalls;

int configured_cases() { return rc::detail::configuration().testParams.maxSuccess; }

TEST(PropertyDraws, ACaseMakesItsDrawsThenChecksThem) {
  std::vector<std::string> steps;
  std::mutex lock;
  const bool passed = fuzz::check_draws("draws then checks", [&](DeviceCalls&) -> DrawCheck {
    steps.push_back("draw");
    return [&steps, &lock] {
      const std::lock_guard<std::mutex> hold(lock);
      steps.push_back("check");
    };
  });
  EXPECT_TRUE(passed);
  const int cases = (configured_cases() + kDrawsPerCase - 1) / kDrawsPerCase;
  ASSERT_EQ(steps.size(), std::size_t(2 * kDrawsPerCase * cases));
  for (int c = 0; c < cases; ++c) {
    for (int k = 0; k < kDrawsPerCase; ++k) {
      EXPECT_EQ(steps[std::size_t(2 * kDrawsPerCase * c + k)], "draw") << "case " << c;
      EXPECT_EQ(steps[std::size_t(2 * kDrawsPerCase * c + kDrawsPerCase + k)], "check") << "case " << c;
    }
  }
}

TEST(PropertyDraws, MaxSuccessCountsDrawsNotCases) {
  int draws = 0;
  EXPECT_TRUE(fuzz::check_draws("counted", [&](DeviceCalls&) -> DrawCheck {
    ++draws;
    return [] {};
  }));
  EXPECT_GE(draws, configured_cases());
  EXPECT_LT(draws, configured_cases() + kDrawsPerCase);
}

TEST(PropertyDraws, OneFailingDrawFailsTheProperty) {
  EXPECT_FALSE(fuzz::check_draws("fails past 1000", [](DeviceCalls&) -> DrawCheck {
    const int drawn = *rc::gen::inRange(0, 2000);
    return [drawn] { RC_ASSERT(drawn <= 1000); };
  }));
}

TEST(PropertyDraws, DrawsOutsideThePreconditionAreNotChecked) {
  std::atomic<int> checked{0};
  EXPECT_TRUE(fuzz::check_draws("half outside", [&](DeviceCalls&) -> DrawCheck {
    if (*rc::gen::elementOf(std::vector<bool>{false, true})) return {};  // (inRange depends on the size)
    return [&checked] { ++checked; };
  }));
  EXPECT_GT(checked.load(), 0);
}

TEST(PropertyDraws, APropertyWithNoDrawInsideItsPreconditionGivesUp) {
  EXPECT_FALSE(fuzz::check_draws("none inside", [](DeviceCalls&) -> DrawCheck { return {}; }));
}

}  // namespace
