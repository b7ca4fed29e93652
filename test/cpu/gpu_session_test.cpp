// How a test process finds the GPU ctest assigned it under a resource specification.
#include "harness/session/gpu_session.hpp"

#include <gtest/gtest.h>

namespace {

TEST(CtestResources, TheAssignedGpuIsTheIdOfTheFirstGroup) {
  EXPECT_EQ(harness::ctest_assigned_gpu("id:3,slots:1", nullptr), "3");
  EXPECT_EQ(harness::ctest_assigned_gpu("id:12,slots:4", nullptr), "12");
  EXPECT_EQ(harness::ctest_assigned_gpu("slots:1,id:0", nullptr), "0");
  EXPECT_FALSE(harness::ctest_assigned_gpu("slots:1", nullptr).has_value());
  EXPECT_FALSE(harness::ctest_assigned_gpu("", nullptr).has_value());
  EXPECT_FALSE(harness::ctest_assigned_gpu("id:gpu_a,slots:1", nullptr).has_value());
}

// The id indexes the GPUs ctest itself was given, so a run restricted with CUDA_VISIBLE_DEVICES
// stays on those GPUs.
TEST(CtestResources, TheIdIndexesTheVisibleDevices) {
  EXPECT_EQ(harness::ctest_assigned_gpu("id:0,slots:1", "1"), "1");
  EXPECT_EQ(harness::ctest_assigned_gpu("id:1,slots:1", "2,3"), "3");
  EXPECT_EQ(harness::ctest_assigned_gpu("id:0,slots:16", "GPU-8f2a,GPU-11c0"), "GPU-8f2a");
  EXPECT_FALSE(harness::ctest_assigned_gpu("id:2,slots:1", "2,3").has_value());
  EXPECT_FALSE(harness::ctest_assigned_gpu("id:0,slots:1", "").has_value());
}

// A process that finds no CUDA device has lost its GPU where the driver lists GPUs it may see;
// a machine without GPUs, or a process told to see none, skips.
TEST(LostGpu, TheDriverListingGpusThatCudaCannotReachIsALoss) {
  EXPECT_TRUE(harness::gpu_lost(1, nullptr));
  EXPECT_TRUE(harness::gpu_lost(2, "1"));
  EXPECT_TRUE(harness::gpu_lost(8, "GPU-8f2a"));
  EXPECT_FALSE(harness::gpu_lost(0, nullptr));
  EXPECT_FALSE(harness::gpu_lost(0, "0"));
  EXPECT_FALSE(harness::gpu_lost(1, ""));
  EXPECT_FALSE(harness::gpu_lost(1, "-1"));
}

}  // namespace
