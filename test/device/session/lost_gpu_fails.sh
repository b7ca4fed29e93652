#!/usr/bin/env bash
# A GPU lost after the first test process (simulated: KERNELS_SIMULATE_GPU_LOSS) fails every later
# process with a "GPU LOST:" line, through the rerun without MPS too; it is never a skip.
# Usage: lost_gpu_fails.sh <gpu test executable> [its arguments...]
set -uo pipefail
marker=$(mktemp -u)
trap 'rm -f "$marker"' EXIT
export KERNELS_SIMULATE_GPU_LOSS=$marker
"$@"
first=$?
if [ "$first" -eq 77 ]; then
  echo "SKIP: the first process found no GPU, so none can be lost"
  exit 77
fi
[ "$first" -eq 0 ] || { echo "FAIL: the first process, which keeps its GPU, exited $first" >&2; exit 1; }
later=$("$@" 2>&1)
status=$?
echo "$later"
if [ "$status" -ne 1 ] || ! grep -q '^GPU LOST: ' <<< "$later"; then
  echo "FAIL: after the loss the process exited $status without a 'GPU LOST:' line: a lost GPU passed or skipped" >&2
  exit 1
fi
echo "PASS: the process after the loss failed with a 'GPU LOST:' line"
