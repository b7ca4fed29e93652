#!/usr/bin/env bash
# Prints a CTest resource specification for this machine's GPUs, so that
#   ctest --preset gpu --resource-spec-file <spec>
# spreads the GPU tests over all of them. Each GPU has 16 slots: a GPU test takes one, a test
# that holds much of a device's memory as many as its memory needs (cmake/KernelsTesting.cmake),
# so each GPU runs what one GPU runs alone and no more than its memory holds (the presets' job
# count, 128, lets the slots of eight GPUs fill).
# The GPUs are those the CUDA runtime would show: CUDA_VISIBLE_DEVICES when it is set, else every
# GPU nvidia-smi lists. Their ids are indices into that list, and each test process then sees
# only its GPU (use_ctest_assigned_gpu, test/harness/session/gpu_session.hpp).
# With a count, the first <count> of them without asking anything: the build folder's default
# specification (one GPU) is `test/runtime/gpu-resource-spec.sh 1`, written when CMake configures.
# Usage: test/runtime/gpu-resource-spec.sh [count] > spec.json
set -euo pipefail
slots=16
if [ $# -gt 0 ]; then
  count=$1
elif [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
  IFS=, read -r -a visible <<< "$CUDA_VISIBLE_DEVICES"
  count=${#visible[@]}
else
  count=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
fi
if [ "$count" -eq 0 ]; then
  echo "gpu-resource-spec: no GPU visible (nvidia-smi lists none, or CUDA_VISIBLE_DEVICES is empty)" >&2
  exit 1
fi
printf '{\n  "version": {"major": 1, "minor": 0},\n  "local": [\n    {\n      "gpus": [\n'
for ((i = 0; i < count; ++i)); do
  printf '        {"id": "%d", "slots": %d}%s\n' "$i" "$slots" "$([ $i -lt $((count - 1)) ] && echo ,)"
done
printf '      ]\n    }\n  ]\n}\n'
