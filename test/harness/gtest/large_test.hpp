// The fixture of the large tests (test/<family>/<family>_large_test.cpp): a family's test lists
// the cases a variant's large input goes through (large/large_case.hpp); the fixture skips when
// the variant declares none of the types they cover or the device cannot hold the largest of
// them, and asserts each one's report, whose failures
// print their rerun lines (`kcheck ... --dist large --seed S`) like every other test's.
#pragma once

#include "harness/gtest/batch_assertions.hpp"
#include "harness/gtest/test_main.hpp"
#include "harness/large/large_case.hpp"

#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace harness {

class LargeTest : public testing::TestWithParam<const kernels::VariantInfo*> {
 protected:
  const kernels::VariantInfo& variant() const { return *GetParam(); }

  // `covered`: the types and operators the family's large cases know, named in the skip of a
  // variant that declares none of them (no cases).
  void check(const std::vector<Case>& cases, const LargeRunner& runner, const char* covered) {
    if (cases.empty()) {
      GTEST_SKIP() << kContractSkip << variant().id() << " declares none of what the large cases cover: " << covered;
    }
    std::size_t bytes = 0;
    for (const Case& c : cases) bytes = std::max(bytes, runner.device_bytes(variant(), c));
    if (const auto lack = lacks_device_memory(bytes)) GTEST_SKIP() << kMemorySkip << *lack;
    for (const Case& c : cases) EXPECT_TRUE(all_passed(runner.run(variant(), c)));
  }
};

}  // namespace harness
