// gtest assertions over a batch report. The message leads with the answer: how many cases
// failed, grouped by what went wrong, then the smallest failing case (fewest elements, then
// smallest block, then the simplest distribution) first, each with its rerun line on a line of
// its own. A test prints at most kFailLinesPerTest failed cases over all its batches; the
// failure list (diagnosis/failure_list.hpp) keeps every one. The first smallest failure a test
// prints has had its rerun line run first (diagnosis/rerun_confirmation.hpp), in the first
// kConfirmedTestsPerProcess failing tests of the process, unless KERNELS_CONFIRM_RERUN_LINES=0.
#pragma once

#include "harness/diagnosis/failure_list.hpp"
#include "harness/diagnosis/rerun_confirmation.hpp"
#include "harness/runner/batch_report.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace harness {

inline constexpr std::size_t kFailLinesPerTest = 10;

// The failing tests of one process whose first printed line is run first. A process runs one
// variant's every type, and a bug that breaks a type fails each of that type's tests: running
// every one's line (two child kcheck processes each) made such an entry end after 40 s instead
// of 16 on the H100. Later failing tests print their lines unrun, and say so.
inline constexpr std::size_t kConfirmedTestsPerProcess = 3;
inline std::size_t& confirmations_left_in_this_process() {
  static std::size_t left = kConfirmedTestsPerProcess;
  return left;
}

// "12 of 2050 cases failed: 10 wrong value, 2 out-of-bounds write", or where a case failed in
// more than one way "9 of 52 cases failed (10 failures): 9 wrong value, 1 out-of-bounds write".
inline std::string failure_summary(const BatchReport& report) {
  std::map<FailureKind, std::size_t> count;
  // A failed case is its batch and its run; a failure that names no batch is a case of its own.
  std::set<std::pair<const void*, std::size_t>> runs;
  for (const CaseFailure& failure : report.failures) {
    ++count[failure.kind];
    if (failure.batch_runs)
      runs.emplace(failure.batch_runs.get(), failure.run);
    else
      runs.emplace(&failure, 0);
  }
  std::string text = std::to_string(runs.size()) + " of " + std::to_string(report.cases) + " cases failed";
  if (runs.size() != report.failures.size()) text += " (" + std::to_string(report.failures.size()) + " failures)";
  text += ":";
  const char* separator = " ";
  for (FailureKind kind : kAllFailureKinds) {
    if (count[kind] == 0) continue;
    text += separator + std::to_string(count[kind]) + " " + std::string(name(kind));
    separator = ", ";
  }
  return text;
}

// What of the batch's grid the failed cases cover, from the runs of their batch: the block sizes
// and distributions with a failure among those run, and the smallest failing length beside the
// largest passing one below it. Empty when the failures name no batch.
//   "failed at block sizes 32, 64 of 32 to 1024; every distribution run (random, sorted);
//    lengths from 1023 (5 of 40 lengths; 1022 passed)"
inline std::string grid_summary(const BatchReport& report) {
  if (report.failures.empty() || !report.failures.front().batch_runs) return "";
  const std::vector<Case>& runs = *report.failures.front().batch_runs;
  std::set<std::size_t> failed_runs;
  for (const CaseFailure& failure : report.failures) {
    if (failure.batch_runs.get() == &runs) failed_runs.insert(failure.run);
  }
  std::set<int> blocks, failing_blocks;
  std::set<Distribution> dists, failing_dists;
  std::set<std::uint64_t> lengths, failing_lengths;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    blocks.insert(runs[r].block_size);
    dists.insert(runs[r].distribution);
    lengths.insert(runs[r].n);
    if (!failed_runs.count(r)) continue;
    failing_blocks.insert(runs[r].block_size);
    failing_dists.insert(runs[r].distribution);
    failing_lengths.insert(runs[r].n);
  }
  const auto join = [](const auto& values, auto show) {
    std::string text;
    for (const auto& value : values) text.append(text.empty() ? "" : ", ").append(show(value));
    return text;
  };
  const auto number = [](auto value) { return std::to_string(value); };
  const auto dist = [](Distribution d) { return std::string(name(d)); };
  std::string text = "failed at ";
  text += failing_blocks == blocks ? "every block size run (" + join(blocks, number) + ")"
                                   : "block sizes " + join(failing_blocks, number) + " of " + join(blocks, number);
  text += failing_dists == dists ? "; every distribution run (" + join(dists, dist) + ")"
                                 : "; distributions " + join(failing_dists, dist) + " of " + join(dists, dist);
  const std::uint64_t smallest = *failing_lengths.begin();
  text += "; lengths from " + std::to_string(smallest) + " (" + std::to_string(failing_lengths.size()) + " of " +
          std::to_string(lengths.size()) + " lengths";
  const auto below = lengths.lower_bound(smallest);
  if (below != lengths.begin()) text += "; " + std::to_string(*std::prev(below)) + " passed";
  return text + ")";
}

// How many more failed cases the running test may print (kFailLinesPerTest at its start).
inline std::size_t& fail_lines_left_in_this_test() {
  static const testing::TestInfo* test = nullptr;
  static std::size_t left = 0;
  const testing::TestInfo* running = testing::UnitTest::GetInstance()->current_test_info();
  if (running != test) {
    test = running;
    left = kFailLinesPerTest;
  }
  return left;
}

// `rerun` runs a rerun line (a child kcheck; the CPU tests give a stand-in); `confirm` says
// whether to run the first printed one, `confirmations_left` how many more tests may.
inline testing::AssertionResult all_passed(
    const BatchReport& report, const std::function<RerunOutcome(const Case&)>& rerun = rerun_in_child_kcheck,
    bool confirm = rerun_lines_confirmed(), std::size_t& confirmations_left = confirmations_left_in_this_process()) {
  if (report.failures.empty()) return testing::AssertionSuccess();
  std::vector<CaseFailure> failures = report.failures;
  std::stable_sort(failures.begin(), failures.end(), smaller_case);
  std::size_t& left = fail_lines_left_in_this_test();
  // Once per test: its first printed line is the one a developer runs. A stream failure's
  // culprit was found by its own rerun line already.
  if (left == kFailLinesPerTest && report.how_found.empty() && confirm) {
    if (confirmations_left > 0) {
      --confirmations_left;
      confirm_rerun_line(failures.front(), rerun);
    } else {
      failures.front()
          .what.append(" (its rerun line not run first: this process ran those of its first ")
          .append(std::to_string(kConfirmedTestsPerProcess))
          .append(" failing tests)");
    }
  }
  std::string summary = failure_summary(report);
  if (const std::string grid = grid_summary(report); !grid.empty()) summary.append("\n").append(grid);
  // (Appended piece by piece: GCC 12 misreads "\n" + std::string&& under -Wrestrict.)
  std::string how_found;
  if (!report.how_found.empty()) how_found.append("\n").append(report.how_found);
  std::string every_line;
  for (const CaseFailure& failure : failures) every_line.append("\n").append(failure.lines());
  const testing::TestInfo* test = testing::UnitTest::GetInstance()->current_test_info();
  append_to_failure_list((test ? std::string(test->test_suite_name()) + "." + test->name() + ": " : "") + summary +
                         how_found + every_line + "\n\n");

  testing::AssertionResult result = testing::AssertionFailure();
  result << summary << how_found;
  const std::size_t shown = std::min(left, failures.size());
  left -= shown;
  if (shown > 0) result << "\nthe smallest first:";
  for (std::size_t i = 0; i < shown; ++i) result << "\n" << failures[i].lines();
  if (shown < failures.size()) {
    result << "\n... " << (shown > 0 ? "and " : "") << failures.size() - shown << (shown > 0 ? " more" : " not shown")
           << "; every one in " << failure_list_path().string();
  }
  // gtest closes the message on the next line, so the last rerun line stays a valid command.
  return result << "\n";
}

}  // namespace harness
