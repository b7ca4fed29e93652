// The search that attributes a stream failure to one case of a batch: the smallest case alone
// first, then halving (the child processes replaced by a rule saying which ranges fail).
#include "harness/diagnosis/fault_attribution.hpp"
#include "test/cpu/switch_wiring.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

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

// The search for `culprit` among `count` cases from `guess`, and every range it reran.
struct RecordedSearch {
  harness::CulpritSearch search;
  std::set<std::pair<std::size_t, std::size_t>> reran;
};
RecordedSearch search_for(std::size_t culprit, std::size_t count, std::size_t guess) {
  RecordedSearch recorded;
  recorded.search = find_culprit(count, guess, [&](std::size_t first, std::size_t last) {
    recorded.reran.insert({first, last});
    return first <= culprit && culprit < last;
  });
  return recorded;
}

// A guess that fails alone is the answer of one rerun.
TEST(FindCulprit, AGuessThatFailsAloneTakesOneRerun) {
  const RecordedSearch recorded = search_for(7, 4044, 7);
  EXPECT_EQ(recorded.search.culprit, 7u);
  EXPECT_EQ(recorded.search.reruns, 1u);
  EXPECT_EQ(recorded.reran, (std::set<std::pair<std::size_t, std::size_t>>{{7, 8}}));
}

// Only a single case's own rerun is believed: every range the search returns has been rerun.
TEST(FindCulprit, RerunsTheCaseItNames) {
  const RecordedSearch recorded = search_for(617, 1000, 0);
  ASSERT_EQ(recorded.search.culprit, 617u);
  EXPECT_TRUE(recorded.reran.count({617, 618}));
  EXPECT_EQ(recorded.search.reruns, recorded.reran.size());
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

// On by default (the mutation runner sets it to 0).
TEST(AttributeFaults, TheVariableIsOnUnlessSetToZero) {
  harness::testing_support::expect_switch_wiring(harness::parse_attribute_faults, "KERNELS_ATTRIBUTE_FAULTS", true);
}

// With attribution off (the mutation runner), every case of the failed batch is reported, and the
// report says why; no child process is started.
TEST(AttributeFaults, OffListsEveryCase) {
  setenv("KERNELS_ATTRIBUTE_FAULTS", "0", 1);  // read once, at this process's first attribution
  std::vector<harness::Case> cases(3);
  for (std::size_t i = 0; i < cases.size(); ++i) cases[i].n = 10 * (i + 1);
  const harness::BatchReport report = harness::attribute_stream_failure(cases, cudaErrorIllegalAddress);
  EXPECT_EQ(report.cases, 3u);
  ASSERT_EQ(report.failures.size(), 3u);
  EXPECT_NE(report.how_found.find("KERNELS_ATTRIBUTE_FAULTS=0"), std::string::npos) << report.how_found;
}

}  // namespace
