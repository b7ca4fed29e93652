// The mutation tool's GPU check (ci/mutation/ctest_runs.py), by the rule the test processes use
// (harness::probe_gpu): prints the device and exits 0; without one, exits 77 (nothing to judge
// on), or prints `GPU LOST:` and exits 1 where the driver lists a GPU that CUDA cannot reach.
#include "harness/session/gpu_session.hpp"

#include <cstdio>

int main() {
  const harness::GpuProbe probe = harness::probe_gpu();
  std::printf("%s%s\n", probe.lost ? "GPU LOST: " : "", probe.description.c_str());
  if (probe.available) return 0;
  return probe.lost ? 1 : 77;
}
