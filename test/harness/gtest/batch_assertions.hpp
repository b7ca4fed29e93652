// gtest assertions over a batch report. The message leads with the answer: how many cases
// failed, and the smallest failing case (fewest elements, then smallest block, then the simplest
// distribution) first, each with its rerun line on a line of its own; then a few more.
#pragma once

#include "harness/core/batch_report.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

namespace harness {

inline testing::AssertionResult all_passed(const BatchReport& report) {
  if (report.failures.empty()) return testing::AssertionSuccess();
  constexpr std::size_t kShown = 8;
  std::vector<CaseFailure> failures = report.failures;
  std::stable_sort(failures.begin(), failures.end(), [](const CaseFailure& a, const CaseFailure& b) {
    return std::tuple(a.c.n, a.c.block_size, a.c.distribution) < std::tuple(b.c.n, b.c.block_size, b.c.distribution);
  });
  testing::AssertionResult result = testing::AssertionFailure();
  result << failures.size() << " of " << report.cases << " cases failed; the smallest first:";
  for (std::size_t i = 0; i < failures.size() && i < kShown; ++i) result << "\n" << failures[i].lines();
  if (failures.size() > kShown) result << "\n... and " << failures.size() - kShown << " more";
  // gtest closes the message on the next line, so the last rerun line stays a valid command.
  return result << "\n";
}

}  // namespace harness
