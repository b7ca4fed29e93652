// What a batch of cases found, for any family.
#pragma once

#include "harness/runner/case.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace harness {

// What went wrong with a case, for the summaries of failure reports.
enum class FailureKind {
  wrong_value,    // the oracle disagrees with an output
  out_of_bounds,  // a guard band, a read-only input or a workspace canary changed
  launch_error,   // the call threw, or the stream failed
  timeout,        // the case did not finish in time
};
inline constexpr FailureKind kAllFailureKinds[] = {FailureKind::wrong_value, FailureKind::out_of_bounds,
                                                   FailureKind::launch_error, FailureKind::timeout};

inline std::string_view name(FailureKind kind) {
  switch (kind) {
    case FailureKind::wrong_value: return "wrong value";
    case FailureKind::out_of_bounds: return "out-of-bounds write";
    case FailureKind::launch_error: return "launch error";
    case FailureKind::timeout: return "timeout";
  }
  return "?";
}

// One failed case and what went wrong with it.
struct CaseFailure {
  CaseFailure() = default;
  CaseFailure(Case failed, FailureKind failure_kind, std::string failure_what,
              std::shared_ptr<const std::vector<Case>> runs_of_batch = {}, std::size_t run_in_batch = 0)
      : c(std::move(failed)),
        kind(failure_kind),
        what(std::move(failure_what)),
        batch_runs(std::move(runs_of_batch)),
        run(run_in_batch) {}

  Case c;
  FailureKind kind = FailureKind::wrong_value;
  std::string what;
  // The runs of its batch as they ran and its place among them: a failure that needs the runs
  // before it (what they left in shared memory or a workspace) is rerun after them.
  std::shared_ptr<const std::vector<Case>> batch_runs;
  std::size_t run = 0;
  // When set, its rerun line runs this file of rerun lines as one batch: the runs before it, then it.
  std::string rerun_file;

  std::string rerun_line() const {
    return rerun_file.empty() ? printed_rerun_line(c) : kcheck_command(c) + " --batch " + rerun_file;
  }
  // "FAIL <case>: <what>" and, on a line of its own, "     rerun: kcheck ...".
  std::string lines() const { return "FAIL " + describe(c) + ": " + what + "\n     rerun: " + rerun_line(); }
};

// What a kcheck printed about case c ("FAIL <describe(c)>: <what>" gives <what>), or nothing.
inline std::optional<std::string> printed_failure(const std::string& output, const Case& c) {
  const std::string prefix = "FAIL " + describe(c) + ": ";
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
  }
  return std::nullopt;
}

// The order in which failures are shown: fewest elements, then smallest block, then the simplest
// distribution first.
inline bool smaller_case(const CaseFailure& a, const CaseFailure& b) {
  return std::tuple(a.c.n, a.c.block_size, a.c.distribution) < std::tuple(b.c.n, b.c.block_size, b.c.distribution);
}

// The failed cases, the number of cases run and, when asked for, one line per passing case.
struct BatchReport {
  std::size_t cases = 0;
  std::vector<CaseFailure> failures;
  std::vector<std::string> passes;
  // How the failures were found when that is not simply by running the batch (a fault that
  // killed the context, attributed to its case by rerunning cases apart): one line, or empty.
  std::string how_found;
};

}  // namespace harness
