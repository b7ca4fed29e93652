// fuzz::check_draws, which the GPU properties check through (fuzz/draws.hpp), on draws that queue
// no device call: how many cases and draws it makes of RapidCheck's max_success, that every
// draw of a case is made before any is checked (the checks of a case run side by side, on the
// host's threads), and that a failing draw fails the property and a property whose every draw is
// outside its precondition gives up rather than passes.
#include "fuzz/draws.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
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

// A property that fails on one operator: its counterexample shows the operator drawn.
bool fails_at_last_nonzero() {
  return fuzz::check_draws("fails at last_nonzero", [](DeviceCalls&) -> DrawCheck {
    const kernels::Op op =
        *rc::gen::elementOf(std::vector{kernels::Op::sum, kernels::Op::max, kernels::Op::last_nonzero});
    return [op] { RC_ASSERT(op != kernels::Op::last_nonzero); };
  });
}

std::string rerun_line_in(const std::string& output) {
  const auto at = output.find("     rerun: ");
  if (at == std::string::npos) return {};
  const auto start = at + std::string("     rerun: ").size();
  return output.substr(start, output.find('\n', start) - start);
}

std::string output_of(const std::string& command) {
  std::string output;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen((command + " 2>&1").c_str(), "r"), pclose);
  for (char buffer[4096]; pipe && std::fgets(buffer, sizeof buffer, pipe.get()) != nullptr;) output += buffer;
  return output;
}

// A property failure that prints no line of its own to rerun leaves its developer a RapidCheck string to
// place by hand; one whose counterexample reads "<???>" hides what was drawn.
TEST(PropertyDraws, AFailurePrintsALineThatReplaysItVerbatim) {
  if (std::getenv("PROPERTY_DRAWS_REPLAYED") != nullptr) {  // the replay the test below runs: the property alone
    fails_at_last_nonzero();
    return;
  }
  unsetenv("KERNELS_TEST_NAME");
  testing::internal::CaptureStderr();
  EXPECT_FALSE(fails_at_last_nonzero());
  const std::string output = testing::internal::GetCapturedStderr();
  EXPECT_NE(output.find("last_nonzero"), std::string::npos) << output;
  EXPECT_EQ(output.find("<\?\?\?>"), std::string::npos) << output;  // RapidCheck's "unknown value"
  const std::string line = rerun_line_in(output);
  ASSERT_TRUE(line.starts_with("RC_PARAMS=\"") && line.find("reproduce=") != std::string::npos) << output;
  const std::string replayed = output_of("PROPERTY_DRAWS_REPLAYED=1 " + line);
  EXPECT_NE(replayed.find("Falsifiable"), std::string::npos) << line << "\n" << replayed;
  EXPECT_NE(replayed.find("last_nonzero"), std::string::npos) << line << "\n" << replayed;
}

// Inside a ctest entry the line reruns the entry, with the shrunk case.
TEST(PropertyDraws, AFailureInACtestEntryPrintsTheEntrysLine) {
  setenv("KERNELS_TEST_NAME", "reduce.property.some_variant", 1);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(fails_at_last_nonzero());
  const std::string output = testing::internal::GetCapturedStderr();
  unsetenv("KERNELS_TEST_NAME");
  const std::string line = rerun_line_in(output);
  EXPECT_NE(line.find("reproduce="), std::string::npos) << output;
  EXPECT_NE(line.find("\" ctest --test-dir /"), std::string::npos) << line;
  EXPECT_TRUE(line.ends_with(" -R '^reduce.property.some_variant$' --output-on-failure")) << line;
}

}  // namespace
