// The hang watchdog (harness/diagnosis/hang_watchdog.hpp): its deadline is read exactly and scaled
// by a step's length; work that ends in time, or keeps finishing steps, is left alone; a step that
// does not finish within its allowance ends the process with the culprit's lines.
#include "harness/diagnosis/hang_watchdog.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <thread>

namespace {

using namespace std::chrono_literals;

TEST(HangWatchdog, ReadsItsDeadlineExactly) {
  EXPECT_EQ(harness::parse_hang_timeout("0"), 0u);
  EXPECT_EQ(harness::parse_hang_timeout("60"), 60u);
  EXPECT_EQ(harness::parse_hang_timeout("86400"), 86400u);
  for (const char* wrong : {"", "-1", "+5", "5s", "1.5", "86401", "99999999999"}) {
    try {
      harness::parse_hang_timeout(wrong);
      ADD_FAILURE() << "accepted '" << wrong << "'";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("KERNELS_HANG_TIMEOUT_S"), std::string::npos) << error.what();
    }
  }
}

TEST(HangWatchdog, GivesAStepAnAllowanceThatGrowsWithItsLength) {
  using std::chrono::milliseconds;
  constexpr std::uint64_t k2_24 = std::uint64_t(1) << 24;
  EXPECT_EQ(harness::step_allowance(0, 60), milliseconds(5000));
  EXPECT_EQ(harness::step_allowance(2, 60), milliseconds(5000));
  EXPECT_EQ(harness::step_allowance(k2_24 / 2, 60), milliseconds(35000));
  EXPECT_EQ(harness::step_allowance(k2_24, 60), milliseconds(65000));
  EXPECT_EQ(harness::step_allowance(0, 12), milliseconds(1000));
  EXPECT_EQ(harness::step_allowance(0, 1), milliseconds(83));
  EXPECT_EQ(harness::step_allowance(k2_24, 0), milliseconds(0));  // off: no division by zero
  // No overflow: a length whose allowance would pass a day gets a day.
  EXPECT_EQ(harness::step_allowance(std::uint64_t(1) << 62, 86400), std::chrono::seconds(86400));
  EXPECT_EQ(harness::step_allowance(~std::uint64_t(0), 60), std::chrono::seconds(86400));
}

TEST(HangWatchdogDeathTest, EndsAProcessPastTheAllowanceWithTheCulpritsLines) {
  setenv("KERNELS_HANG_TIMEOUT_S", "1", 1);
  setenv("KERNELS_FAILURES_DIR", std::filesystem::temp_directory_path().c_str(), 1);
  EXPECT_EXIT(
      {
        const harness::HangWatch done_in_time([] { return std::string("FAIL the first watch"); }, std::uint64_t(3));
        {
          const harness::HangWatch never_done([] { return std::string("FAIL the culprit\n     rerun: kcheck x"); },
                                              std::uint64_t(3));
          std::this_thread::sleep_for(5s);
        }
        std::exit(0);
      },
      testing::ExitedWithCode(1),
      "HANG: a batch ran past its deadline: a step of 3 values went unfinished for its allowance of 0.1 s "
      "\\(KERNELS_HANG_TIMEOUT_S=1 sets it\\); the process ends here\nFAIL the culprit\n     rerun: kcheck x");
}

TEST(HangWatchdogDeathTest, LeavesAWatchThatEndsInTimeAlone) {
  setenv("KERNELS_HANG_TIMEOUT_S", "1", 1);
  EXPECT_EXIT(
      {
        for (int batch = 0; batch < 3; ++batch) {
          const harness::HangWatch watch([] { return std::string("FAIL should not be printed"); },
                                         harness::HangWatch::whole_deadline());
          std::this_thread::sleep_for(600ms);
        }
        std::this_thread::sleep_for(1500ms);
        std::exit(0);
      },
      testing::ExitedWithCode(0), "");
}

// Steps that keep finishing are progress, however long the whole takes; a long step gets its
// longer allowance (2^24 values: 1.08 s under a deadline of 1 s, where a short one gets 0.08 s).
TEST(HangWatchdogDeathTest, LeavesProgressAndALongStepAlone) {
  setenv("KERNELS_HANG_TIMEOUT_S", "1", 1);
  EXPECT_EXIT(
      {
        std::atomic<std::size_t> step{0};
        {
          const harness::HangWatch watch([] { return std::string("FAIL should not be printed"); },
                                         [&] {
                                           const std::size_t now = step;
                                           return harness::WatchedStep{now, now < 40 ? 0 : std::uint64_t(1) << 24};
                                         });
          for (int k = 0; k < 40; ++k) {
            std::this_thread::sleep_for(40ms);  // half a short step's allowance
            ++step;
          }
          std::this_thread::sleep_for(600ms);  // step 40: a long one
        }
        std::exit(0);
      },
      testing::ExitedWithCode(0), "");
}

TEST(HangWatchdogDeathTest, EndsTheProcessAtTheFirstStepThatStalls) {
  setenv("KERNELS_HANG_TIMEOUT_S", "1", 1);
  setenv("KERNELS_FAILURES_DIR", std::filesystem::temp_directory_path().c_str(), 1);
  EXPECT_EXIT(
      {
        std::atomic<std::size_t> step{0};
        const harness::HangWatch watch([&] { return "FAIL step " + std::to_string(step.load()); },
                                       [&] {
                                         return harness::WatchedStep{step.load(), 7};
                                       });
        for (int k = 0; k < 5; ++k) {
          std::this_thread::sleep_for(40ms);
          ++step;
        }
        std::this_thread::sleep_for(5s);
        std::exit(0);
      },
      testing::ExitedWithCode(1), "a step of 7 values went unfinished .*\nFAIL step 5");
}

}  // namespace
