// The failure report of a batch: the summary by kind first, the smallest case first, each rerun
// line on a line of its own, at most kFailLinesPerTest cases printed per test, and every case in
// the failure list.
#include "harness/gtest/batch_assertions.hpp"
#include "harness/diagnosis/failure_list.hpp"

#include <gtest/gtest.h>

#include <memory>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

using harness::BatchReport;
using harness::FailureKind;

harness::CaseFailure failure(std::uint64_t n, int block_size, FailureKind kind) {
  harness::Case c{.family = kernels::Family::reduce, .variant = "harris3_sequential"};
  c.n = n;
  c.block_size = block_size;
  return {c, kind, "what went wrong"};
}

// The stand-in for a child kcheck: every rerun line fails again.
harness::RerunOutcome fails_again(const harness::Case& c) { return {harness::RerunOutcome::failed, c.repeat, ""}; }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

class BatchAssertions : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("batch_assertions_test." + std::to_string(getpid()));
    setenv("KERNELS_FAILURES_DIR", dir_.c_str(), 1);
    harness::clear_failure_list();
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    unsetenv("KERNELS_FAILURES_DIR");
  }
  static std::string failure_list() {
    std::ifstream file(harness::failure_list_path());
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  }

  std::filesystem::path dir_;
};

TEST_F(BatchAssertions, LeadWithTheSummaryAndTheSmallestCase) {
  BatchReport report;
  report.cases = 100;
  for (std::uint64_t n = 30; n > 10; --n) report.failures.push_back(failure(n, 256, FailureKind::wrong_value));
  report.failures.push_back(failure(7, 1024, FailureKind::out_of_bounds));
  report.failures.push_back(failure(7, 64, FailureKind::out_of_bounds));
  report.failures.push_back(failure(500, 64, FailureKind::out_of_bounds));
  report.failures.push_back(failure(9, 64, FailureKind::launch_error));
  report.failures.push_back(failure(40, 64, FailureKind::launch_error));

  const std::string message = harness::all_passed(report, fails_again).message();
  const std::vector<std::string> lines = lines_of(message);
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[0], "25 of 100 cases failed: 20 wrong value, 3 out-of-bounds write, 2 launch error");
  EXPECT_EQ(lines[1], "the smallest first:");
  EXPECT_EQ(lines[2].rfind("FAIL reduce/harris3_sequential op=sum type=int block=64 n=7 ", 0), 0u) << lines[2];
  EXPECT_EQ(lines[3], "     rerun: " + harness::kcheck_line(report.failures[21].c));
  EXPECT_EQ(count_of(message, "\nFAIL "), harness::kFailLinesPerTest);
  EXPECT_EQ(count_of(message, "\n     rerun: kcheck "), harness::kFailLinesPerTest);
  EXPECT_NE(message.find("\n... and 15 more; every one in " + harness::failure_list_path().string() + "\n"),
            std::string::npos)
      << message;
  EXPECT_EQ(message.back(), '\n') << "the last rerun line must not carry gtest's closing text";

  const std::string listed = failure_list();
  EXPECT_EQ(count_of(listed, "\nFAIL "), 25u);
  EXPECT_EQ(count_of(listed, "\n     rerun: kcheck "), 25u);
  EXPECT_NE(listed.find("BatchAssertions.LeadWithTheSummaryAndTheSmallestCase: 25 of 100 cases failed"),
            std::string::npos);
}

// A case that failed in two ways (a wrong value and a write past its end) is one failed case.
TEST_F(BatchAssertions, CountCasesNotFailures) {
  BatchReport report;
  report.cases = 4;
  const auto runs = std::make_shared<const std::vector<harness::Case>>(4, failure(100, 64, FailureKind::wrong_value).c);
  for (FailureKind kind : {FailureKind::wrong_value, FailureKind::out_of_bounds}) {
    harness::CaseFailure both = failure(100, 64, kind);
    both.batch_runs = runs;
    both.run = 2;
    report.failures.push_back(both);
  }
  const std::vector<std::string> lines = lines_of(harness::all_passed(report, fails_again).message());
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "1 of 4 cases failed (2 failures): 1 wrong value, 1 out-of-bounds write");
}

// The summary says what of the batch's grid failed: a bug at one block size from some length on.
TEST_F(BatchAssertions, SayWhatOfTheGridFailed) {
  std::vector<harness::Case> grid;
  for (int block : {32, 64, 128}) {
    for (harness::Distribution d : {harness::Distribution::random, harness::Distribution::sorted}) {
      for (std::uint64_t n : {1u, 100u, 1000u}) {
        harness::Case c = failure(n, block, FailureKind::wrong_value).c;
        c.distribution = d;
        grid.push_back(c);
      }
    }
  }
  const auto runs = std::make_shared<const std::vector<harness::Case>>(grid);
  BatchReport report;
  report.cases = grid.size();
  for (std::size_t r = 0; r < grid.size(); ++r) {
    if (grid[r].block_size != 64 || grid[r].n < 100) continue;
    harness::CaseFailure f = failure(grid[r].n, 64, FailureKind::wrong_value);
    f.c = grid[r];
    f.batch_runs = runs;
    f.run = r;
    report.failures.push_back(f);
  }
  const std::vector<std::string> lines = lines_of(harness::all_passed(report, fails_again).message());
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0], "4 of 18 cases failed: 4 wrong value");
  EXPECT_EQ(
      lines[1],
      "failed at block sizes 64 of 32, 64, 128; every distribution run (random, sorted); lengths from 100 (2 of 3 "
      "lengths; 1 passed)");
}

TEST_F(BatchAssertions, PrintAtMostTheCapOverEveryBatchOfATest) {
  BatchReport report;
  report.cases = 8;
  for (std::uint64_t n = 1; n <= 8; ++n) report.failures.push_back(failure(n, 64, FailureKind::wrong_value));
  const std::string first = harness::all_passed(report, fails_again).message();
  const std::string second = harness::all_passed(report, fails_again).message();
  EXPECT_EQ(count_of(first, "\nFAIL "), 8u);
  EXPECT_EQ(count_of(second, "\nFAIL "), harness::kFailLinesPerTest - 8);
  EXPECT_NE(second.find("\n... and 6 more; every one in "), std::string::npos) << second;
  const std::string third = harness::all_passed(report, fails_again).message();
  EXPECT_EQ(count_of(third, "\nFAIL "), 0u);
  EXPECT_NE(third.find("\n... 8 not shown; every one in "), std::string::npos) << third;
  EXPECT_EQ(count_of(failure_list(), "\nFAIL "), 24u);
}

TEST_F(BatchAssertions, SayHowAnAttributedFaultWasFound) {
  BatchReport report;
  report.cases = 2050;
  report.failures.push_back(failure(1025, 256, FailureKind::launch_error));
  report.how_found = "attributed by bisection";
  const std::vector<std::string> lines = lines_of(harness::all_passed(report, fails_again).message());
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], "1 of 2050 cases failed: 1 launch error");
  EXPECT_EQ(lines[1], "attributed by bisection");
}

// The first failure a test prints has its rerun line run first, once per test; a stream failure
// attributed by its culprit's own rerun line is not run again.
TEST_F(BatchAssertions, RunTheFirstPrintedRerunLineOncePerTest) {
  std::vector<harness::Case> rerun;
  const auto passes_alone = [&](const harness::Case& c) {
    rerun.push_back(c);
    return harness::RerunOutcome{};
  };
  BatchReport report;
  report.cases = 3;
  report.failures = {failure(9, 64, FailureKind::wrong_value), failure(3, 64, FailureKind::wrong_value)};
  std::size_t confirmations_left = harness::kConfirmedTestsPerProcess;  // the earlier tests' are spent
  const std::string message = harness::all_passed(report, passes_alone, true, confirmations_left).message();
  ASSERT_FALSE(rerun.empty());
  EXPECT_EQ(rerun.front(), report.failures[1].c) << "the smallest case is the one confirmed";
  EXPECT_NE(message.find("passed alone in a child kcheck"), std::string::npos) << message;
  const std::size_t calls = rerun.size();
  harness::all_passed(report, passes_alone, true, confirmations_left);
  EXPECT_EQ(rerun.size(), calls) << "only the test's first printed line is run";
}

// A process runs the lines of its first kConfirmedTestsPerProcess failing tests; a later one's
// line is printed unrun, and says why.
TEST_F(BatchAssertions, RunTheLinesOfTheFirstFailingTestsOfAProcessOnly) {
  std::size_t runs = 0;
  const auto fails_again_counted = [&](const harness::Case& c) {
    ++runs;
    return fails_again(c);
  };
  BatchReport report;
  report.cases = 1;
  report.failures = {failure(3, 64, FailureKind::wrong_value)};
  std::size_t confirmations_left = 1;
  harness::all_passed(report, fails_again_counted, true, confirmations_left);
  EXPECT_GT(runs, 0u);
  EXPECT_EQ(confirmations_left, 0u);
  const std::size_t calls = runs;
  std::size_t none_left = 0;
  harness::fail_lines_left_in_this_test() = harness::kFailLinesPerTest;  // as at the start of another test
  const std::string message = harness::all_passed(report, fails_again_counted, true, none_left).message();
  EXPECT_EQ(runs, calls);
  EXPECT_NE(message.find("its rerun line not run first: this process ran those of its first 3 failing tests"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("     rerun: " + harness::kcheck_line(report.failures[0].c)), std::string::npos) << message;
}

// KERNELS_CONFIRM_RERUN_LINES=0 (the generated-mutant runner): the line is printed unrun.
TEST_F(BatchAssertions, RunNoRerunLineWhenConfirmationIsOff) {
  bool rerun = false;
  BatchReport report;
  report.cases = 1;
  report.failures = {failure(3, 64, FailureKind::wrong_value)};
  const std::string message = harness::all_passed(
                                  report,
                                  [&](const harness::Case&) {
                                    rerun = true;
                                    return harness::RerunOutcome{};
                                  },
                                  false)
                                  .message();
  EXPECT_FALSE(rerun);
  EXPECT_NE(message.find("     rerun: " + harness::kcheck_line(report.failures[0].c)), std::string::npos) << message;
}

TEST_F(BatchAssertions, DoNotRerunAnAttributedStreamFailure) {
  bool rerun = false;
  BatchReport report;
  report.cases = 2;
  report.failures = {failure(3, 64, FailureKind::launch_error)};
  report.how_found = "attributed by bisection";
  harness::all_passed(report, [&](const harness::Case&) {
    rerun = true;
    return harness::RerunOutcome{};
  });
  EXPECT_FALSE(rerun);
}

TEST_F(BatchAssertions, ClearingTheListRemovesItsRerunFilesAndNothingElse) {
  harness::append_to_failure_list("FAIL ...\n");
  const std::filesystem::path first = harness::new_rerun_file_path(), second = harness::new_rerun_file_path();
  EXPECT_NE(first, second);
  const std::filesystem::path other = dir_ / "another.test.rerun-1.txt";
  for (const auto& path : {first, second, other}) std::ofstream(path) << "kcheck scan/naive --n 3\n";
  harness::clear_failure_list();
  EXPECT_FALSE(std::filesystem::exists(harness::failure_list_path()));
  EXPECT_FALSE(std::filesystem::exists(first));
  EXPECT_FALSE(std::filesystem::exists(second));
  EXPECT_TRUE(std::filesystem::exists(other));
}

}  // namespace
