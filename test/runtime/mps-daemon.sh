#!/usr/bin/env bash
# The CUDA MPS control daemon through which a build folder's GPU tests share each GPU (the ctest
# fixture gpu_mps of cmake/KernelsTesting.cmake runs `start` before them and `stop` after them;
# harness/session/mps_client.hpp is the tests' side). Its pipes and log are in <folder>/pipe and
# <folder>/log, its own and no other daemon's: only processes that name them join it.
#   start <folder>   starts the daemon (or keeps one an earlier run left there) and writes
#                    <folder>/serving, which tells the tests to join it. Exit 77 (ctest: Skipped)
#                    when KERNELS_USE_MPS=0, when nvidia-cuda-mps-control is missing or when the
#                    daemon does not answer: the tests then run without MPS.
#   stop <folder>    removes <folder>/serving and stops the daemon.
set -uo pipefail
if [ $# -ne 2 ] || { [ "$1" != start ] && [ "$1" != stop ]; }; then
  echo "usage: test/runtime/mps-daemon.sh start|stop <folder>" >&2
  exit 2
fi
action=$1
folder=$2
export CUDA_MPS_PIPE_DIRECTORY=$folder/pipe
export CUDA_MPS_LOG_DIRECTORY=$folder/log
control=$(command -v nvidia-cuda-mps-control || true)
answers() { [ -n "$control" ] && echo get_server_list | "$control" > /dev/null 2>&1; }

rm -f "$folder/serving"
if [ "$action" = stop ]; then
  if answers; then
    echo quit | "$control" > /dev/null 2>&1 || { echo "FAIL: the MPS daemon of $folder did not answer 'quit'" >&2; exit 1; }
    echo "MPS daemon of $folder stopped"
  fi
  exit 0
fi

case ${KERNELS_USE_MPS:-1} in
  1) ;;
  0)
    answers && echo quit | "$control" > /dev/null 2>&1
    echo "SKIP: KERNELS_USE_MPS=0: the GPU tests run without MPS"
    exit 77
    ;;
  *)
    echo "FAIL: KERNELS_USE_MPS must be 0 or 1, not '$KERNELS_USE_MPS'" >&2
    exit 2
    ;;
esac
if [ -z "$control" ]; then
  echo "SKIP: nvidia-cuda-mps-control not found: the GPU tests run without MPS"
  exit 77
fi
if answers; then
  echo "an MPS daemon already serves $folder (an earlier run's): the tests join it"
else
  mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
  # No stream of ctest's may stay open in the daemon: ctest would wait for it to close.
  "$control" -d < /dev/null > /dev/null 2>&1
  for _ in $(seq 250); do
    answers && break
    sleep 0.02
  done
  if ! answers; then
    echo "SKIP: the MPS daemon did not start (its log: $CUDA_MPS_LOG_DIRECTORY): the GPU tests run without MPS"
    exit 77
  fi
  echo "MPS daemon started for the GPU tests (pipes in $CUDA_MPS_PIPE_DIRECTORY)"
fi
touch "$folder/serving"
