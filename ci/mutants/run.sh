#!/usr/bin/env bash
# Runs the suite against each mutant's library and prints what killed it. Needs a GPU, the
# normal build (build/) and the mutant libraries (ci/mutants/build.sh). For each mutant: every
# ctest entry labelled with its variant (its types, properties and large test; not the
# sanitizer entries, which are slow, nor the mutation entries themselves); if they all
# pass and the patch names a sanitizer (a race or an out-of-bounds access, which may not change
# a result), that compute-sanitizer tool on the kcheck case the patch names. A mutant that
# survives both is a hole in the suite.
# Usage: ci/mutants/run.sh [mutants-dir (default build-mutants)] [mutant...]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(realpath -m "${1:-$root/build-mutants}")
shift $(( $# > 0 ? 1 : 0 ))
mutants=("$@")
if [ ${#mutants[@]} -eq 0 ]; then
  for lib in "$dir"/*/libkernels.so; do mutants+=("$(basename "$(dirname "$lib")")"); done
fi

header() { sed -n "s/^$2: //p" "$root/ci/mutants/$1.patch"; }

killed=0
printf '%-34s %-44s %s\n' mutant variant "killed by"
for mutant in "${mutants[@]}"; do
  variant=$(header "$mutant" Variant)
  log=$dir/$mutant.log
  # A kill needs one failure: each process stops at its first failed assertion (a breakpoint
  # trap), ctest starts no test after the first failure, and RapidCheck reports its
  # counterexample unshrunk (shrinking a 300000-element input costs minutes of GPU calls).
  LD_LIBRARY_PATH=$dir/$mutant GTEST_BREAK_ON_FAILURE=1 RC_PARAMS=noshrink=1 \
    ctest --test-dir "$root/build" -L "^${variant}\$" -LE 'sanitize|mutation' -j 16 --timeout 120 --stop-on-failure \
    > "$log" 2>&1
  by=$(sed -n '/The following tests FAILED:/,$ s/^[[:space:]]*[0-9]* - \([^ ]*\) (.*/\1/p' "$log" | tr '\n' ' ')
  tool=$(header "$mutant" Sanitizer)
  if [ -z "$by" ] && [ -n "$tool" ]; then
    read -r -a case_args <<< "$(header "$mutant" Sanitize-with)"
    LD_LIBRARY_PATH=$dir/$mutant "$root/ci/sanitize.sh" "$tool" "$root/build/kcheck" "$variant" "${case_args[@]}" >> "$log" 2>&1 \
      || by="compute-sanitizer --tool $tool"
  fi
  if [ -n "$by" ]; then
    killed=$((killed + 1))
  else
    by="SURVIVED"
  fi
  # One row per mutant, kept for ci/mutants/table.sh.
  printf '%-34s %-44s %s\n' "$mutant" "$variant" "$by" | tee "$dir/$mutant.row"
done
echo "killed $killed of ${#mutants[@]} mutants ($(( 100 * killed / ${#mutants[@]} ))%)"
[ "$killed" -eq "${#mutants[@]}" ]
