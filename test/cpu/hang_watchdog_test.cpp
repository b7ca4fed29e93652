// The hang watchdog (harness/diagnosis/hang_watchdog.hpp): its deadline is read exactly; a watch that
// ends in time does nothing; one that does not ends the process with the culprit's lines.
#include "harness/diagnosis/hang_watchdog.hpp"

#include <gtest/gtest.h>

#include <chrono>
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

TEST(HangWatchdogDeathTest, EndsAProcessPastTheDeadlineWithTheCulpritsLines) {
  setenv("KERNELS_HANG_TIMEOUT_S", "1", 1);
  setenv("KCHECK_FAILURES_DIR", std::filesystem::temp_directory_path().c_str(), 1);
  EXPECT_EXIT(
      {
        const harness::HangWatch done_in_time([] { return std::string("FAIL the first watch"); });
        {
          const harness::HangWatch never_done([] { return std::string("FAIL the culprit\n     rerun: kcheck x"); });
          std::this_thread::sleep_for(5s);
        }
        std::exit(0);
      },
      testing::ExitedWithCode(1),
      "HANG: a batch ran past its deadline of 1 s .*\nFAIL the culprit\n     rerun: kcheck x");
}

TEST(HangWatchdogDeathTest, LeavesAWatchThatEndsInTimeAlone) {
  setenv("KERNELS_HANG_TIMEOUT_S", "1", 1);
  EXPECT_EXIT(
      {
        for (int batch = 0; batch < 3; ++batch) {
          const harness::HangWatch watch([] { return std::string("FAIL should not be printed"); });
          std::this_thread::sleep_for(600ms);
        }
        std::this_thread::sleep_for(1500ms);
        std::exit(0);
      },
      testing::ExitedWithCode(0), "");
}

}  // namespace
