// How a test process finds the GPU ctest assigned it under a resource specification.
#include "harness/core/gpu_session.hpp"

#include <gtest/gtest.h>

namespace {

TEST(CtestResources, TheAssignedGpuIsTheIdOfTheFirstGroup) {
  EXPECT_EQ(harness::ctest_assigned_gpu("id:3,slots:1"), "3");
  EXPECT_EQ(harness::ctest_assigned_gpu("id:12,slots:4"), "12");
  EXPECT_EQ(harness::ctest_assigned_gpu("slots:1,id:0"), "0");
  EXPECT_FALSE(harness::ctest_assigned_gpu("slots:1").has_value());
  EXPECT_FALSE(harness::ctest_assigned_gpu("").has_value());
}

}  // namespace
