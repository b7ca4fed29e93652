// The run seed and the kcheck line: what reproduces a failure.
#include "harness/input/run_seed.hpp"
#include "harness/runner/case.hpp"

#include <gtest/gtest.h>

namespace {

TEST(RunSeed, ParsesNumbersAndRandom) {
  EXPECT_EQ(harness::parse_run_seed("42"), 42u);
  EXPECT_EQ(harness::parse_run_seed("18446744073709551615"), 18446744073709551615ull);
  EXPECT_NE(harness::parse_run_seed("random"), harness::parse_run_seed("random"));
  for (const char* bad : {"", "-1", "12x", "abc", " 7"}) {
    EXPECT_THROW(harness::parse_run_seed(bad), std::invalid_argument) << "'" << bad << "'";
  }
}

TEST(RunSeed, CaseSeedsDependOnEveryComponent) {
  using harness::Distribution;
  using kernels::TypeKey;
  const auto base = harness::case_seed(1, TypeKey::int32, Distribution::random, 100);
  EXPECT_EQ(base, harness::case_seed(1, TypeKey::int32, Distribution::random, 100));
  EXPECT_NE(base, harness::case_seed(2, TypeKey::int32, Distribution::random, 100));
  EXPECT_NE(base, harness::case_seed(1, TypeKey::int64, Distribution::random, 100));
  EXPECT_NE(base, harness::case_seed(1, TypeKey::int32, Distribution::ones, 100));
  EXPECT_NE(base, harness::case_seed(1, TypeKey::int32, Distribution::random, 101));
}

TEST(KcheckLine, NamesEveryParameterOfTheCase) {
  harness::Case c{.family = kernels::Family::reduce,
                  .variant = "harris3_sequential",
                  .type = kernels::TypeKey::float32,
                  .op = kernels::Op::max};
  c.block_size = 128;
  c.n = 1025;
  c.distribution = harness::Distribution::nan;
  c.seed = 99;
  c.offset = 3;
  EXPECT_EQ(
      harness::kcheck_line(c),
      "kcheck reduce/harris3_sequential --op max --type float --block 128 --n 1025 --dist nan --seed 99 --offset 3");
  c.offset = 0;
  EXPECT_EQ(harness::kcheck_line(c),
            "kcheck reduce/harris3_sequential --op max --type float --block 128 --n 1025 --dist nan --seed 99");
}

}  // namespace
