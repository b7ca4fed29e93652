// The GPU tests' main makes the device's context before the first test (probe_gpu): a test's
// first watched call must not pay for it, or the hang watchdog, whose allowance for a short call
// is a few seconds, takes a slow context creation on a loaded machine for a hang.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <gtest/gtest.h>

namespace {

TEST(GpuSession, TheContextExistsBeforeTheFirstTest) {
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  CUdevice device = 0;
  ASSERT_EQ(cuDeviceGet(&device, 0), CUDA_SUCCESS);
  unsigned flags = 0;
  int active = 0;
  ASSERT_EQ(cuDevicePrimaryCtxGetState(device, &flags, &active), CUDA_SUCCESS);
  EXPECT_EQ(active, 1) << "no context yet: the first test's first CUDA call would make it";
}

}  // namespace
