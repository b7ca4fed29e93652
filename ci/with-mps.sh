#!/usr/bin/env bash
# Runs a command while the CUDA MPS control daemon serves this user's CUDA processes, then stops
# the daemon. Without MPS a GPU runs the kernels of one process at a time and switches between
# them, so the 16 test processes the gpu preset runs on each GPU wait for their turns: each wait
# for a result is a turn, and the properties wait thousands of times (docs/running.md gives the
# times measured with and without). Where nvidia-cuda-mps-control is missing or the daemon does
# not start, or one already answers on CUDA_MPS_PIPE_DIRECTORY, the command runs as it is.
# Use it on a machine whose GPUs serve this job alone (a CI runner's): while it runs, every CUDA
# process of this user goes through the daemon.
# Usage: ci/with-mps.sh <command> [<argument>...]
set -uo pipefail
if [ $# -eq 0 ]; then
  echo "usage: ci/with-mps.sh <command> [<argument>...]" >&2
  exit 2
fi
control=$(command -v nvidia-cuda-mps-control || true)
if [ -z "$control" ]; then
  echo "with-mps: nvidia-cuda-mps-control not found: running without MPS" >&2
  exec "$@"
fi
export CUDA_MPS_PIPE_DIRECTORY=${CUDA_MPS_PIPE_DIRECTORY:-/tmp/nvidia-mps}
export CUDA_MPS_LOG_DIRECTORY=${CUDA_MPS_LOG_DIRECTORY:-/tmp/nvidia-log}
if echo get_server_list | "$control" > /dev/null 2>&1; then
  echo "with-mps: an MPS daemon already answers on $CUDA_MPS_PIPE_DIRECTORY: using it" >&2
  exec "$@"
fi
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
if ! "$control" -d; then
  echo "with-mps: the MPS daemon did not start (see $CUDA_MPS_LOG_DIRECTORY): running without MPS" >&2
  exec "$@"
fi
echo "with-mps: MPS daemon started (pipes in $CUDA_MPS_PIPE_DIRECTORY)" >&2
"$@"
status=$?
echo quit | "$control" > /dev/null 2>&1 || echo "with-mps: the MPS daemon did not answer 'quit'" >&2
exit "$status"
