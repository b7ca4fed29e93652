#!/usr/bin/env bash
# One catalogue mutant as a ctest entry (test/mutation/CMakeLists.txt): passes if the suite kills
# it and the kill reproduces (ci/mutation/run_mutants.py --catalogue, which builds the mutant's
# library first unless $KERNELS_MUTANTS_DIR, default build-mutants, holds it). Without a GPU it
# reports Skipped (exit 77), or fails when KERNELS_REQUIRE_GPU=1; a GPU lost fails.
# Usage: ci/mutation/catalogue_entry.sh <mutant>
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
mutant=$1
build=${KERNELS_BUILD_DIR:-$root/build}
if ! why=$("$build/test/mutation/gpu_probe" 2>&1); then
  if [ "${KERNELS_REQUIRE_GPU:-0}" != 0 ]; then echo "FAIL: no GPU for mutant $mutant"; exit 1; fi
  # The driver lists GPUs that CUDA cannot reach and none is hidden on purpose: lost, a failure
  # (as in the test processes, harness/session/gpu_session.hpp).
  hidden=0
  if [ "${CUDA_VISIBLE_DEVICES+set}" = set ] && { [ -z "$CUDA_VISIBLE_DEVICES" ] || [[ $CUDA_VISIBLE_DEVICES == -1* ]]; }; then hidden=1; fi
  if [ "$hidden" = 0 ] && compgen -G "/proc/driver/nvidia/gpus/*" > /dev/null; then
    echo "GPU LOST: $why; mutant $mutant not judged"
    exit 1
  fi
  echo "SKIP: no GPU: mutation runs need one"
  exit 77
fi
exec "$root/ci/mutation/run_mutants.py" --catalogue "$mutant"
