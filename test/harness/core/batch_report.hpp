// What a batch of cases found, for any family.
#pragma once

#include "harness/core/case.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace harness {

// One failed case and what went wrong with it.
struct CaseFailure {
  Case c;
  std::string what;

  // "FAIL <case>: <what>" and, on a line of its own, "     rerun: kcheck ...".
  std::string lines() const { return "FAIL " + describe(c) + ": " + what + "\n     rerun: " + kcheck_line(c); }
};

// The failed cases, the number of cases run and, when asked for, one line per passing case.
struct BatchReport {
  std::size_t cases = 0;
  std::vector<CaseFailure> failures;
  std::vector<std::string> passes;
};

}  // namespace harness
