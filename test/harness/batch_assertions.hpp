// gtest assertions over a batch report: the message lists the failed cases with their kcheck
// lines (the first few; the count says how many more).
#pragma once

#include "batch_report.hpp"

#include <gtest/gtest.h>

namespace harness {

inline testing::AssertionResult all_passed(const BatchReport& report) {
  if (report.failures.empty()) return testing::AssertionSuccess();
  constexpr std::size_t kShown = 12;
  testing::AssertionResult result = testing::AssertionFailure();
  result << report.failures.size() << " of " << report.cases << " cases failed";
  for (std::size_t i = 0; i < report.failures.size() && i < kShown; ++i) result << "\n" << report.failures[i];
  if (report.failures.size() > kShown) result << "\n... and " << report.failures.size() - kShown << " more";
  return result;
}

}  // namespace harness
