#!/usr/bin/env bash
# Prints a CTest resource specification for this machine's GPUs, so that
#   ctest --preset gpu --resource-spec-file <spec>
# spreads the GPU tests over all of them: every GPU test asks for one slot of one GPU
# (RESOURCE_GROUPS gpus:1; the large tests take every slot of theirs), and each test process
# then sees only its GPU through CUDA_VISIBLE_DEVICES (test/harness/gpu_test_main.cpp).
# Usage: ci/gpu-resource-spec.sh [slots per GPU, default 4] > spec.json
set -euo pipefail
slots=${1:-4}
count=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
if [ "$count" -eq 0 ]; then
  echo "gpu-resource-spec: nvidia-smi lists no GPU" >&2
  exit 1
fi
printf '{\n  "version": {"major": 1, "minor": 0},\n  "local": [\n    {\n      "gpus": [\n'
for ((i = 0; i < count; ++i)); do
  printf '        {"id": "%d", "slots": %d}%s\n' "$i" "$slots" "$([ $i -lt $((count - 1)) ] && echo ,)"
done
printf '      ]\n    }\n  ]\n}\n'
