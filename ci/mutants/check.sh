#!/usr/bin/env bash
# One mutant as a test: passes if the suite kills it and the kill reproduces (ci/mutants/run.sh).
# Builds the mutant's library first unless $KERNELS_MUTANTS_DIR (default build-mutants) already
# holds it. Without a GPU it reports Skipped (exit 77), or fails when KERNELS_REQUIRE_GPU=1.
# Usage: ci/mutants/check.sh <mutant>
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
mutant=$1
build=${KERNELS_BUILD_DIR:-$root/build}
dir=${KERNELS_MUTANTS_DIR:-$root/build-mutants}
if ! "$build/test/mutation/gpu_probe" > /dev/null 2>&1; then
  if [ "${KERNELS_REQUIRE_GPU:-0}" != 0 ]; then echo "FAIL: no GPU for mutant $mutant"; exit 1; fi
  echo "SKIP: no GPU: mutation runs need one"
  exit 77
fi
[ -f "$dir/$mutant/libkernels.so" ] || "$root/ci/mutants/build.sh" "$dir" "$mutant" || exit 1
exec "$root/ci/mutants/run.sh" "$dir" "$mutant"
