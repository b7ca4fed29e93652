// Stopping at the first failure across the processes of a run (harness/diagnosis/
// stop_on_failure.hpp): a process stops, Skipped, once another created the file; the process that
// failed goes on; without KERNELS_STOP_FILE nothing stops and no file is written.
#include "harness/diagnosis/stop_on_failure.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

namespace {

using namespace std::chrono_literals;

std::string fresh_stop_file(const char* name) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove(path);
  return path.string();
}

TEST(StopOnFailureDeathTest, AnotherEntrysFailureEndsThisOneSkipped) {
  const std::string path = fresh_stop_file("kernels_stop_other");
  setenv("KERNELS_STOP_FILE", path.c_str(), 1);
  EXPECT_EXIT(
      {
        harness::stop_when_another_entry_fails();
        std::this_thread::sleep_for(3 * harness::kStopPollInterval);
        std::fputs("no file yet: still running\n", stderr);
        if (std::FILE* file = std::fopen(path.c_str(), "w")) std::fclose(file);  // another entry failed
        std::this_thread::sleep_for(5s);
        std::exit(0);
      },
      testing::ExitedWithCode(77), "no file yet: still running\n.*STOPPED: another entry of this run failed first");
  unsetenv("KERNELS_STOP_FILE");
}

TEST(StopOnFailureDeathTest, TheEntryThatFailedGoesOn) {
  const std::string path = fresh_stop_file("kernels_stop_own");
  setenv("KERNELS_STOP_FILE", path.c_str(), 1);
  EXPECT_EXIT(
      {
        harness::stop_when_another_entry_fails();
        harness::tell_other_entries_of_failure();
        std::this_thread::sleep_for(5 * harness::kStopPollInterval);
        std::exit(0);
      },
      testing::ExitedWithCode(0), "");
  EXPECT_TRUE(std::filesystem::exists(path));  // for the others
  unsetenv("KERNELS_STOP_FILE");
  std::filesystem::remove(path);
}

TEST(StopOnFailureDeathTest, WithoutTheVariableNothingStopsAndNothingIsWritten) {
  unsetenv("KERNELS_STOP_FILE");
  EXPECT_EXIT(
      {
        harness::stop_when_another_entry_fails();
        harness::tell_other_entries_of_failure();
        std::this_thread::sleep_for(3 * harness::kStopPollInterval);
        std::exit(0);
      },
      testing::ExitedWithCode(0), "");
}

}  // namespace
