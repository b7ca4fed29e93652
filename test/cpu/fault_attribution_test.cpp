// The search that attributes a stream failure to one case of a batch: the smallest case alone
// first, then halving (the child processes replaced by a rule saying which ranges fail).
#include "harness/diagnosis/fault_attribution.hpp"

#include <gtest/gtest.h>

#include <set>

namespace {

using harness::find_culprit;

// Every culprit of every batch size up to 40 is found when the first guess is another case, with
// that rerun and at most two reruns per halving.
TEST(FindCulprit, FindsTheOneCaseThatFailsAlone) {
  for (std::size_t count = 1; count <= 40; ++count) {
    for (std::size_t culprit = 0; culprit < count; ++culprit) {
      const std::size_t guess = (culprit + 1) % count;
      const auto search = find_culprit(count, guess, [&](std::size_t first, std::size_t last) {
        EXPECT_LT(first, last);
        EXPECT_LE(last, count);
        return first <= culprit && culprit < last;
      });
      ASSERT_EQ(search.culprit, culprit) << "of " << count;
      std::size_t halvings = 0;
      for (std::size_t left = count; left > 1; left = (left + 1) / 2) ++halvings;
      EXPECT_LE(search.reruns, (count > 1 ? 1 : 0) + 2 * halvings);
    }
  }
}

// A guess that fails alone is the answer of one rerun.
TEST(FindCulprit, AGuessThatFailsAloneTakesOneRerun) {
  std::set<std::pair<std::size_t, std::size_t>> rerun;
  const auto search = find_culprit(4044, 7, [&](std::size_t first, std::size_t last) {
    rerun.insert({first, last});
    return first <= 7 && 7 < last;
  });
  EXPECT_EQ(search.culprit, 7u);
  EXPECT_EQ(search.reruns, 1u);
  EXPECT_EQ(rerun, (std::set<std::pair<std::size_t, std::size_t>>{{7, 8}}));
}

// Only a single case's own rerun is believed: every range the search returns has been rerun.
TEST(FindCulprit, RerunsTheCaseItNames) {
  std::set<std::pair<std::size_t, std::size_t>> rerun;
  const auto search = find_culprit(1000, 0, [&](std::size_t first, std::size_t last) {
    rerun.insert({first, last});
    return first <= 617 && 617 < last;
  });
  ASSERT_EQ(search.culprit, 617u);
  EXPECT_TRUE(rerun.count({617, 618}));
  EXPECT_EQ(search.reruns, rerun.size());
}

// A fault that needs two cases together (or does not recur) is attributed to no case.
TEST(FindCulprit, NamesNoCaseWhenNoPartFailsAlone) {
  const auto together =
      find_culprit(64, 3, [](std::size_t first, std::size_t last) { return first <= 3 && 40 < last; });
  EXPECT_FALSE(together.culprit);
  EXPECT_EQ(together.reruns, 3u);  // the guess, then both halves
  const auto never = find_culprit(64, 0, [](std::size_t, std::size_t) { return false; });
  EXPECT_FALSE(never.culprit);
}

}  // namespace
