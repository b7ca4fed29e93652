// What a batch of cases found, for any family.
#pragma once

#include "harness/core/case.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
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
  Case c;
  FailureKind kind = FailureKind::wrong_value;
  std::string what;

  // "FAIL <case>: <what>" and, on a line of its own, "     rerun: kcheck ...".
  std::string lines() const { return "FAIL " + describe(c) + ": " + what + "\n     rerun: " + kcheck_line(c); }
};

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
