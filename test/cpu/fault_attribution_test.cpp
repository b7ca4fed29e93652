// The bisection that attributes a stream failure to one case of a batch (the child processes
// replaced by a rule saying which ranges fail).
#include "harness/diagnosis/fault_attribution.hpp"

#include <gtest/gtest.h>

#include <set>

namespace {

using harness::find_culprit;

// Every culprit of every batch size up to 40 is found, with at most two reruns per halving.
TEST(FindCulprit, FindsTheOneCaseThatFailsAlone) {
  for (std::size_t count = 1; count <= 40; ++count) {
    for (std::size_t culprit = 0; culprit < count; ++culprit) {
      const auto search = find_culprit(count, [&](std::size_t first, std::size_t last) {
        EXPECT_LT(first, last);
        EXPECT_LE(last, count);
        return first <= culprit && culprit < last;
      });
      ASSERT_EQ(search.culprit, culprit) << "of " << count;
      std::size_t halvings = 0;
      for (std::size_t left = count; left > 1; left = (left + 1) / 2) ++halvings;
      EXPECT_LE(search.reruns, 2 * halvings);
    }
  }
}

// Only a single case's own rerun is believed: every range the search returns has been rerun.
TEST(FindCulprit, RerunsTheCaseItNames) {
  std::set<std::pair<std::size_t, std::size_t>> rerun;
  const auto search = find_culprit(1000, [&](std::size_t first, std::size_t last) {
    rerun.insert({first, last});
    return first <= 617 && 617 < last;
  });
  ASSERT_EQ(search.culprit, 617u);
  EXPECT_TRUE(rerun.count({617, 618}));
  EXPECT_EQ(search.reruns, rerun.size());
}

// A fault that needs two cases together (or does not recur) is attributed to no case.
TEST(FindCulprit, NamesNoCaseWhenNoPartFailsAlone) {
  const auto together = find_culprit(64, [](std::size_t first, std::size_t last) { return first <= 3 && 40 < last; });
  EXPECT_FALSE(together.culprit);
  EXPECT_EQ(together.reruns, 2u);
  const auto never = find_culprit(64, [](std::size_t, std::size_t) { return false; });
  EXPECT_FALSE(never.culprit);
}

}  // namespace
