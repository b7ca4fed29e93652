// The GPU tests' main makes the device's context before the first test (probe_gpu): a test's
// first watched call must not pay for it, or the hang watchdog, whose allowance for a short call
// is a few seconds, takes a slow context creation on a loaded machine for a hang.
#include <cuda.h>
#include <dlfcn.h>

#include <gtest/gtest.h>

namespace {

// The driver's own view, through the driver library the CUDA runtime has loaded: linking the
// driver library would keep this executable from starting on a machine without a GPU driver,
// where every GPU test reports Skipped.
TEST(GpuSession, TheContextExistsBeforeTheFirstTest) {
  void* const driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(driver, nullptr) << "the CUDA runtime has not loaded libcuda.so.1";
  const auto device_get = reinterpret_cast<decltype(&cuDeviceGet)>(dlsym(driver, "cuDeviceGet"));
  const auto primary_state =
      reinterpret_cast<decltype(&cuDevicePrimaryCtxGetState)>(dlsym(driver, "cuDevicePrimaryCtxGetState"));
  ASSERT_NE(device_get, nullptr);
  ASSERT_NE(primary_state, nullptr);
  CUdevice device = 0;
  ASSERT_EQ(device_get(&device, 0), CUDA_SUCCESS);
  unsigned flags = 0;
  int active = 0;
  ASSERT_EQ(primary_state(device, &flags, &active), CUDA_SUCCESS);
  EXPECT_EQ(active, 1) << "no context yet: the first test's first CUDA call would make it";
  dlclose(driver);
}

}  // namespace
