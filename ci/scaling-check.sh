#!/usr/bin/env bash
# Multi-GPU scaling of the suite: on a machine with two GPUs or more, after a build in build/
# (ci/device-check.sh), runs back to back the one-GPU command on the first GPU and the documented
# multi-GPU command (read from docs/several-gpus.md, run verbatim) on the first two, then prints
# each wall time, the ratio and each run's 15 longest entries. Both runs start from the same
# ctest cost data (the file as it was before the first), so neither orders its tests better for
# having followed the other. Logs, JUnit files and the summary under $OUT (default
# /tmp/scaling-check). Exit status: non-zero if either run fails.
# Usage: ci/scaling-check.sh   (from the repository root)
set -uo pipefail
out=${OUT:-/tmp/scaling-check}
mkdir -p "$out"
cost_data=build/Testing/Temporary/CTestCostData.txt

gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
if [ "$gpus" -lt 2 ]; then
  echo "scaling-check: needs two GPUs, nvidia-smi lists $gpus" >&2
  exit 1
fi
multi_gpu_command=$(grep -m1 -h 'test/runtime/gpu-resource-spec.sh >' docs/several-gpus.md | sed -e 's/^[[:space:]]*//' -e 's/^`//' -e 's/`$//')
if [ -z "$multi_gpu_command" ]; then
  echo "scaling-check: docs/several-gpus.md has no multi-GPU command (test/runtime/gpu-resource-spec.sh > ...)" >&2
  exit 1
fi
[ -f "$cost_data" ] && cp "$cost_data" "$out/cost-data-before.txt"

# run <name> <CUDA_VISIBLE_DEVICES> <command>: one run from the same cost data; its wall time in
# $out/<name>.seconds, its log in $out/<name>.log.
run() {
  local name=$1 devices=$2 command=$3 start end status
  if [ -f "$out/cost-data-before.txt" ]; then cp "$out/cost-data-before.txt" "$cost_data"; else rm -f "$cost_data"; fi
  echo "== $name (CUDA_VISIBLE_DEVICES=$devices): $command --output-junit $out/junit-$name.xml"
  start=$(date +%s.%N)
  CUDA_VISIBLE_DEVICES=$devices bash -c "$command --output-junit '$out/junit-$name.xml'" > "$out/$name.log" 2>&1
  status=$?
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f\n", e - s }' > "$out/$name.seconds"
  grep -E 'tests passed|Total Test time' "$out/$name.log"
  grep -E '\*\*\*Failed|\(Failed\)|Not Run|Timeout|\*\*\*Skipped' "$out/$name.log" | head -20
  return "$status"
}

# The 15 longest entries of a run's log: seconds, name, result.
longest() {
  sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) \.+ *([^0-9]*[A-Za-z]) +([0-9.]+) sec$/\3 \1 \2/p' "$1" |
    sort -rn | head -15 | awk '{ printf "  %8.2f s  %s  (%s)\n", $1, $2, substr($0, index($0, $3)) }'
}

failed=0
run one-gpu 0 'ctest --preset gpu' || failed=1
run two-gpus 0,1 "$multi_gpu_command" || failed=1
one=$(cat "$out/one-gpu.seconds")
two=$(cat "$out/two-gpus.seconds")
{
  echo "host: $(nproc) CPUs; GPUs: $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | sed 's/^ *//' | tr '\n' ' ')"
  echo "one GPU  (CUDA_VISIBLE_DEVICES=0 ctest --preset gpu): $one s"
  echo "two GPUs (CUDA_VISIBLE_DEVICES=0,1 $multi_gpu_command): $two s"
  echo "ratio: $(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.2f", a / b }')x"
  echo "longest entries, one GPU:"
  longest "$out/one-gpu.log"
  echo "longest entries, two GPUs:"
  longest "$out/two-gpus.log"
} | tee "$out/summary.txt"
exit "$failed"
