#!/usr/bin/env bash
# Runs the suite's tests of each mutant's variant against that mutant's library and prints
# which tests killed it. Needs a GPU, the normal build (build/) and the mutant libraries
# (ci/mutants/build.sh). A mutant survives if every test of its variant passes.
# Usage: ci/mutants/run.sh [mutants-dir (default build-mutants)] [mutant...]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(realpath -m "${1:-$root/build-mutants}")
shift $(( $# > 0 ? 1 : 0 ))
mutants=("$@")
if [ ${#mutants[@]} -eq 0 ]; then
  for lib in "$dir"/*/libkernels.so; do mutants+=("$(basename "$(dirname "$lib")")"); done
fi

killed=0
printf '%-34s %-40s %s\n' mutant variant "killed by"
for mutant in "${mutants[@]}"; do
  variant=$(sed -n 's/^Variant: //p' "$root/ci/mutants/$mutant.patch")
  log=$dir/$mutant.ctest.log
  # A kill needs one failure: stop each process at its first, and let RapidCheck report its
  # counterexample unshrunk (shrinking a 300000-element input costs minutes of GPU calls).
  LD_LIBRARY_PATH=$dir/$mutant GTEST_FAIL_FAST=1 RC_PARAMS=noshrink=1 \
    ctest --test-dir "$root/build" -L "^${variant}\$" -LE large -j 16 --timeout 120 > "$log" 2>&1
  failed=$(sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) (\(Failed\|Timeout\|SEGFAULT\|Subprocess aborted\|Exception\)).*/\1/p' "$log" | tr '\n' ' ')
  if [ -n "$failed" ]; then
    killed=$((killed + 1))
    printf '%-34s %-40s %s\n' "$mutant" "$variant" "$failed"
  else
    printf '%-34s %-40s %s\n' "$mutant" "$variant" "SURVIVED"
  fi
done
echo "killed $killed of ${#mutants[@]} mutants"
[ "$killed" -eq "${#mutants[@]}" ]
