// A failure's rerun line is a promise: run it, and the case fails again. Before a test prints its
// smallest failure, the line is run the way the developer will run it, in a child kcheck (a fresh
// process, alone on the GPU), once as printed and once repeated 20 times in one batch. A case
// that fails every run keeps its line. One that fails only sometimes depends on timing (a race
// between warps, a cross-block protocol), and one that passed alone ran beside other tests and
// other cases of its batch: it is repeated as often as a batch holds beside scheduling noise
// (which stands in for the busy GPU it failed on), and without noise if the noise hid it; when
// some runs fail, its line asks for that noise and for enough repeats to expect ten failing runs
// (run once more to check). When nothing fails again, the failure is rerun after the runs its
// batch ran before it (a stale read of what they left in shared memory or a workspace fails only
// after them): if it fails there, its line runs that batch (`kcheck --batch <file>`, the file
// beside the test's failure list); if not, the failure says so. A `large` case runs once and
// alone, so its line is only run as printed.
#pragma once

#include <string>

#include "harness/runner/batch_report.hpp"

#include <filesystem>
#include <functional>

namespace harness {

// What one child kcheck run of a rerun line gave.
struct RerunOutcome {
  // exit 0; exit 1; a hang (the watchdog's exit or the child's timeout); anything else
  enum Result { passed, failed, hung, refused } result = passed;
  unsigned failed_runs = 0;  // of a repeated case: "k of N runs failed"
  std::string refusal;       // why kcheck refused the line (its first lines of output)
};

// The build's kcheck as a child process, with the environment of this process.
RerunOutcome rerun_in_child_kcheck(const Case& c);

// The kcheck that reruns a case: KERNELS_KCHECK (an installed test program's), else the build's.
std::string kcheck_program();

// The build's kcheck on a file of rerun lines as one batch: failed when `last` failed.
RerunOutcome rerun_batch_in_child_kcheck(const std::filesystem::path& file, const Case& last);

// Runs `failure.c`'s line (kcheck_line) and escalates as above through `rerun` and
// `rerun_batch`: on return the failure's case (or its rerun file) is the line to print, and
// `failure.what` says how it was confirmed when it does not fail every run.
void confirm_rerun_line(CaseFailure& failure, const std::function<RerunOutcome(const Case&)>& rerun,
                        const std::function<RerunOutcome(const std::filesystem::path&, const Case&)>& rerun_batch =
                            rerun_batch_in_child_kcheck);

// KERNELS_CONFIRM_RERUN_LINES: 1 (the default) confirms each test's first printed line as above;
// 0 prints it unconfirmed, for a run that needs only the verdict (the generated-mutant runner,
// ci/mutation/run_mutants.py: confirming a line that depends on timing takes a minute or more,
// and the mutant is killed by the failure itself). Parsed exactly: anything else throws
// std::invalid_argument naming the variable (nullptr is the default).
bool parse_confirm_rerun_lines(const char* text);
bool rerun_lines_confirmed();  // from the environment, once per process

// Scheduling noise of an escalated rerun, in microseconds per block (as the stress tests).
inline constexpr unsigned kConfirmationNoise = 50;

}  // namespace harness
