// The mutation tool's GPU check (ci/mutation/ctest_runs.py), by the rule the test processes use
// (harness::probe_gpu, harness::gpu_required): prints the device and exits 0; without one, exits
// 77 (nothing to judge on), or 1 where KERNELS_REQUIRE_GPU=1 or the GPU was lost (`GPU LOST:`).
#include "harness/session/gpu_session.hpp"

#include <cstdio>

int main() {
  const harness::GpuProbe probe = harness::probe_gpu();
  std::printf("%s%s\n", probe.lost ? "GPU LOST: " : "", probe.description.c_str());
  if (probe.available) return 0;
  return probe.lost || harness::gpu_required() ? 1 : 77;
}
