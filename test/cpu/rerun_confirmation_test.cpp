// The confirmation of a rerun line (harness/diagnosis/rerun_confirmation.hpp), with a stand-in for the
// child kcheck that fails at a given rate: a failure that reproduces keeps its line; one that
// depends on timing gets the noise and the repeats that made it fail again (the noise first: it
// carries the contention of a busy GPU into a rerun on a quiet one); one that never fails again
// says so.
#include "harness/diagnosis/rerun_confirmation.hpp"
#include "harness/diagnosis/failure_list.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include <utility>
#include <vector>

namespace {

using harness::Case;
using harness::CaseFailure;
using harness::RerunOutcome;

CaseFailure race(std::uint64_t n, unsigned noise = 0) {
  Case c{.family = kernels::Family::scan, .variant = "hillis_steele_two_barriers"};
  c.block_size = 1024;
  c.n = n;
  c.noise = noise;
  return {c, harness::FailureKind::wrong_value, "64 wrong outputs"};
}

// A child kcheck whose runs fail `per_thousand` times in 1000 when repeated (a single run
// passes), only beside noise or only without it when told; records each line it is given.
struct FlakyKcheck {
  enum Noise { either, needed, hides };
  FlakyKcheck(unsigned failing_per_thousand = 0, Noise noise_does = either)
      : per_thousand(failing_per_thousand), noise(noise_does) {}

  unsigned per_thousand;
  Noise noise;
  std::vector<Case> lines;

  RerunOutcome operator()(const Case& c) {
    lines.push_back(c);
    if (c.repeat == 1 || (noise == needed && c.noise == 0) || (noise == hides && c.noise != 0)) return {};
    const unsigned failed = c.repeat * per_thousand / 1000;
    if (failed == 0) return {};
    return {RerunOutcome::failed, failed, ""};
  }
};

// The failure of race(n), confirmed through `kcheck`.
CaseFailure confirmed(FlakyKcheck& kcheck, std::uint64_t n = 209) {
  CaseFailure failure = race(n);
  harness::confirm_rerun_line(failure, std::ref(kcheck));
  return failure;
}

TEST(RerunConfirmation, AFailureThatReproducesKeepsItsLine) {
  CaseFailure failure = race(209);
  const CaseFailure before = failure;
  // Once as printed, once repeated: every run fails.
  FlakyKcheck kcheck(1000);
  harness::confirm_rerun_line(failure, [&](const Case& c) {
    kcheck(c);
    return RerunOutcome{RerunOutcome::failed, c.repeat, ""};
  });
  EXPECT_EQ(kcheck.lines.size(), 2u);
  EXPECT_EQ(failure.c, before.c);
  EXPECT_EQ(failure.what, before.what);
}

TEST(RerunConfirmation, ALineThatFailsOnlySometimesIsRepeated) {
  FlakyKcheck kcheck(500);
  bool first = true;
  CaseFailure failure = race(209);
  harness::confirm_rerun_line(failure, [&](const Case& c) {
    if (c.repeat == 1 && std::exchange(first, false)) return RerunOutcome{RerunOutcome::failed, 0, ""};
    return kcheck(c);
  });
  // 10 of 20, then 500 of 1000 beside noise: twenty runs beside noise give about ten failures.
  EXPECT_EQ(failure.c.repeat, 20u);
  EXPECT_EQ(failure.c.noise, harness::kConfirmationNoise);
  EXPECT_NE(failure.what.find("failed alone in a child kcheck, then 10 of 20 runs failed, then 500 of 1000 runs beside "
                              "scheduling noise of 50 us failed: it depends on timing, so its rerun line repeats it 20 "
                              "times beside scheduling noise of 50 us"),
            std::string::npos)
      << failure.what;
}

TEST(RerunConfirmation, ARareRaceIsRepeatedAsOftenAsItNeeds) {
  FlakyKcheck kcheck(8);
  const CaseFailure failure = confirmed(kcheck);
  // One run passed, 20 too; 1000 runs (the most) beside noise gave 8 failures; ten would take
  // 1250 runs, so the line asks for the most.
  ASSERT_EQ(kcheck.lines.size(), 3u);
  EXPECT_EQ(kcheck.lines[1].repeat, 20u);
  EXPECT_EQ(kcheck.lines[2].repeat, harness::kMaxRepeat);
  EXPECT_EQ(failure.c.repeat, harness::kMaxRepeat);
  EXPECT_EQ(failure.c.noise, harness::kConfirmationNoise);
  EXPECT_NE(failure.what.find("8 of 1000 runs beside scheduling noise of 50 us failed"), std::string::npos)
      << failure.what;
}

TEST(RerunConfirmation, AFrequentRaceGetsFewerRepeatsCheckedOnceMore) {
  FlakyKcheck kcheck(250);
  const CaseFailure failure = confirmed(kcheck);
  // 5 of 20 failed, 250 of 1000 beside noise: 40 runs give about ten failures, and that line
  // is run to check it.
  ASSERT_EQ(kcheck.lines.size(), 4u);
  EXPECT_EQ(kcheck.lines[3].repeat, 40u);
  EXPECT_EQ(kcheck.lines[3].noise, harness::kConfirmationNoise);
  EXPECT_EQ(failure.c.repeat, 40u);
  EXPECT_NE(failure.what.find("repeats it 40 times"), std::string::npos) << failure.what;
}

TEST(RerunConfirmation, ARaceThatNeedsNoiseGetsIt) {
  FlakyKcheck kcheck(5, FlakyKcheck::needed);
  const CaseFailure failure = confirmed(kcheck);
  EXPECT_EQ(failure.c.noise, harness::kConfirmationNoise);
  EXPECT_EQ(failure.c.repeat, harness::kMaxRepeat);
  EXPECT_NE(failure.what.find("0 of 20 runs failed, then 5 of 1000 runs beside scheduling noise of 50 us failed"),
            std::string::npos)
      << failure.what;
}

TEST(RerunConfirmation, ARaceThatNoiseHidesKeepsTheRateSeenWithoutIt) {
  FlakyKcheck kcheck(100, FlakyKcheck::hides);
  const CaseFailure failure = confirmed(kcheck);
  // 2 of 20 quietly, none of 1000 beside noise: 100 quiet runs, checked once.
  ASSERT_EQ(kcheck.lines.size(), 4u);
  EXPECT_EQ(failure.c.noise, 0u);
  EXPECT_EQ(failure.c.repeat, 100u);
  EXPECT_NE(failure.what.find("2 of 20 runs failed, then 0 of 1000 runs beside scheduling noise of 50 us failed: it "
                              "depends on timing, so its rerun line repeats it 100 times]"),
            std::string::npos)
      << failure.what;
}

TEST(RerunConfirmation, ARareRaceThatNoiseHidesIsRunAsOftenAsABatchHolds) {
  FlakyKcheck kcheck(20, FlakyKcheck::hides);
  const CaseFailure failure = confirmed(kcheck);
  // None of 20 quietly, none beside noise, 20 of 1000 quietly: 500 quiet runs, checked once.
  ASSERT_EQ(kcheck.lines.size(), 5u);
  EXPECT_EQ(kcheck.lines[3].noise, 0u);
  EXPECT_EQ(kcheck.lines[3].repeat, harness::kMaxRepeat);
  EXPECT_EQ(failure.c.noise, 0u);
  EXPECT_EQ(failure.c.repeat, 500u);
}

TEST(RerunConfirmation, LargeCasesAreRepeatedLessOften) {
  FlakyKcheck kcheck(1000);
  const CaseFailure failure = confirmed(kcheck, std::uint64_t(1) << 22);
  ASSERT_GE(kcheck.lines.size(), 3u);
  EXPECT_EQ(kcheck.lines[1].repeat, 15u);  // the input and 15 outputs of 2^22 values: 2^26
  EXPECT_EQ(failure.c.repeat, 10u);
}

// A `large` case (2^31 ints generated on the device) runs once, alone: its line is run as
// printed and never repeated, noised or batched (kcheck would refuse such a line).
TEST(RerunConfirmation, ALargeCaseIsRunOnlyAsPrinted) {
  CaseFailure failure = race(std::uint64_t(1) << 31);
  failure.c.distribution = harness::Distribution::large;
  failure.batch_runs = std::make_shared<const std::vector<Case>>(std::vector{failure.c});
  const CaseFailure before = failure;
  FlakyKcheck passes;
  harness::confirm_rerun_line(failure, std::ref(passes));
  ASSERT_EQ(passes.lines.size(), 1u);
  EXPECT_EQ(passes.lines[0], before.c);
  EXPECT_EQ(failure.c, before.c);
  EXPECT_NE(failure.what.find("passed alone in a child kcheck: a large case runs once"), std::string::npos)
      << failure.what;

  failure = before;
  harness::confirm_rerun_line(failure, [](const Case&) { return RerunOutcome{RerunOutcome::failed, 0, ""}; });
  EXPECT_EQ(failure.c, before.c);
  EXPECT_EQ(failure.what, before.what);
}

TEST(RerunConfirmation, AStressCaseKeepsItsNoiseAndSaysWhenItNeverFailsAgain) {
  FlakyKcheck kcheck;  // never fails again
  CaseFailure failure = race(300007, 50);
  const Case before = failure.c;
  harness::confirm_rerun_line(failure, std::ref(kcheck));
  ASSERT_EQ(kcheck.lines.size(), 3u);  // alone, then 20 and 222 runs beside its own noise: no other noise
  EXPECT_EQ(kcheck.lines[1].noise, 50u);
  EXPECT_EQ(kcheck.lines[2].noise, 50u);
  EXPECT_EQ(kcheck.lines[2].repeat, 222u);
  EXPECT_EQ(failure.c, before);
  EXPECT_NE(failure.what.find("needs the cases or processes that ran beside it"), std::string::npos) << failure.what;
  // Says that it depends on timing, after how many runs: 1 alone, then 20 and 222 beside noise.
  EXPECT_NE(failure.what.find("[timing-dependent, after 243 reruns (its rerun line passed alone"), std::string::npos)
      << failure.what;
}

// A failure of the third run of a batch whose line never fails alone: it is rerun after the two
// runs before it, from a file of their rerun lines beside the failure list.
struct AfterItsBatch {
  CaseFailure failure = race(209);
  std::vector<Case> runs;
  std::vector<std::string> file_lines;
  std::filesystem::path file;

  AfterItsBatch() {
    setenv("KERNELS_FAILURES_DIR", testing::TempDir().c_str(), 1);
    for (const std::uint64_t n : {300, 1000, 209}) runs.push_back(race(n).c);
    failure.batch_runs = std::make_shared<const std::vector<Case>>(runs);
    failure.run = 2;
  }

  void confirm(RerunOutcome::Result after) {
    harness::confirm_rerun_line(failure, FlakyKcheck(), [&](const std::filesystem::path& path, const Case& last) {
      file = path;
      std::ifstream lines(path);
      for (std::string line; std::getline(lines, line);) file_lines.push_back(line);
      EXPECT_EQ(last, runs.back());
      return RerunOutcome{after, after == RerunOutcome::failed ? 1u : 0u, ""};
    });
  }
};

TEST(RerunConfirmation, AFailureThatNeedsTheRunsBeforeItRerunsThem) {
  AfterItsBatch batch;
  batch.confirm(RerunOutcome::failed);
  ASSERT_EQ(batch.file_lines.size(), 3u);
  for (std::size_t q = 0; q < 3; ++q) EXPECT_EQ(batch.file_lines[q], harness::kcheck_line(batch.runs[q]));
  EXPECT_TRUE(std::filesystem::exists(batch.file));
  EXPECT_EQ(batch.file.parent_path(), harness::failure_list_path().parent_path());
  EXPECT_NE(batch.failure.lines().find("\n     rerun: kcheck --batch " + batch.file.string()), std::string::npos)
      << batch.failure.lines();
  EXPECT_NE(batch.failure.what.find(
                "then it failed after the 2 runs before it in its batch: its rerun line runs them, then it"),
            std::string::npos)
      << batch.failure.what;
  std::filesystem::remove(batch.file);
}

TEST(RerunConfirmation, AFailureThatPassesAfterTheRunsBeforeItSaysSo) {
  AfterItsBatch batch;
  batch.confirm(RerunOutcome::passed);
  EXPECT_FALSE(std::filesystem::exists(batch.file));
  EXPECT_EQ(batch.failure.rerun_line(), harness::kcheck_line(batch.failure.c));
  EXPECT_NE(
      batch.failure.what.find(
          "[timing-dependent, after 2022 reruns (its rerun line passed alone in a child kcheck, then 0 of 20 runs "
          "failed, "
          "then 0 of 1000 runs beside scheduling noise of 50 us failed, then 0 of 1000 runs failed, then it passed "
          "after the 2 runs before it in its batch): the failure needs the cases"),
      std::string::npos)
      << batch.failure.what;
}

TEST(RerunConfirmation, ARefusedBatchIsReported) {
  AfterItsBatch batch;
  batch.confirm(RerunOutcome::refused);
  EXPECT_FALSE(std::filesystem::exists(batch.file));
  EXPECT_NE(batch.failure.what.find("refused by kcheck"), std::string::npos) << batch.failure.what;
}

TEST(RerunConfirmation, ABitForBitFailureOfEveryRunKeepsItsLine) {
  // A repeat that differs from the first run: every run but the first fails.
  CaseFailure failure = race(1000);
  failure.c.repeat = 4;
  const Case before = failure.c;
  harness::confirm_rerun_line(failure, [](const Case& c) {
    return RerunOutcome{RerunOutcome::failed, c.repeat - 1, ""};
  });
  EXPECT_EQ(failure.c, before);
}

TEST(RerunConfirmation, AHangIsNotRepeated) {
  std::vector<Case> lines;
  CaseFailure failure = race(1000);
  harness::confirm_rerun_line(failure, [&](const Case& c) {
    lines.push_back(c);
    return RerunOutcome{RerunOutcome::hung, 0, ""};
  });
  EXPECT_EQ(lines.size(), 1u);
}

TEST(RerunConfirmation, ARefusedLineIsReported) {
  CaseFailure failure = race(209);
  harness::confirm_rerun_line(failure, [](const Case&) {
    return RerunOutcome{RerunOutcome::refused, 0, "exit 2: --n"};
  });
  EXPECT_NE(failure.what.find("refused by kcheck: exit 2: --n"), std::string::npos) << failure.what;
}

TEST(RerunConfirmation, TheSwitchIsZeroOrOne) {
  EXPECT_TRUE(harness::parse_confirm_rerun_lines(nullptr));
  EXPECT_TRUE(harness::parse_confirm_rerun_lines("1"));
  EXPECT_FALSE(harness::parse_confirm_rerun_lines("0"));
  for (const char* wrong : {"", "2", "no", "0 ", "01"}) {
    EXPECT_THROW(harness::parse_confirm_rerun_lines(wrong), std::invalid_argument) << "'" << wrong << "'";
  }
}

}  // namespace
