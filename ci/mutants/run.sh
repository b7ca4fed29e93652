#!/usr/bin/env bash
# Runs the suite against each mutant's library and prints what killed it and whether the kill
# reproduces. Needs a GPU, the normal build ($KERNELS_BUILD_DIR, default build/) and the mutant
# libraries (ci/mutants/build.sh). For each mutant:
# - every ctest entry labelled with its variant (its types, properties and large test, and the
#   CPU checks of its record and validation; not the sanitizer entries, which are slow, nor the
#   mutation entries themselves), by a ctest of its own whose Testing/, JUnit file and failure
#   lists stay in <mutants-dir>/<mutant>/ (the build's Testing/ is not touched); what failed is
#   read from the JUnit file (ci/mutants/junit.py);
# - if they all pass and the patch names a sanitizer (a race or an out-of-bounds access, which
#   may not change a result), that compute-sanitizer tool on the kcheck case the patch names;
# - the reproduction: the first rerun line the failed entries printed, run through kcheck
#   against the mutant library, must fail (exit 1), not pass, crash or be refused (a failure
#   that needs the runs before it prints `kcheck --batch <file>` of them). A kill by the
#   sanitizer is its own kcheck run (the large tests' lines carry `--dist large`). Failed
#   entries that print no rerun line (host-side checks of validation) are rerun alone and must
#   fail again; the table says so in its column.
# A mutant that survives is a hole in the suite; a kill that does not reproduce is a hole in
# its report. Either fails the run.
# Usage: ci/mutants/run.sh [mutants-dir (default build-mutants)] [mutant...]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${KERNELS_BUILD_DIR:-$root/build}")
dir=$(realpath -m "${1:-$root/build-mutants}")
shift $(( $# > 0 ? 1 : 0 ))
mutants=("$@")
if [ ${#mutants[@]} -eq 0 ]; then
  for lib in "$dir"/*/libkernels.so; do mutants+=("$(basename "$(dirname "$lib")")"); done
fi

header() { sed -n "s/^$2: //p" "$root/ci/mutation/catalogue/$1.patch"; }
row() { printf '%-36s %-44s %5s  %-28s %s\n' "$@"; }

# A batch that hangs ends its process after 20 s (an honest one takes seconds), in the tests and
# in the kcheck reruns alike.
export KERNELS_HANG_TIMEOUT_S=${KERNELS_HANG_TIMEOUT_S:-20}
killed=0 reproduced=0
row mutant variant seconds reproduced "killed by"
for mutant in "${mutants[@]}"; do
  started=$(date +%s)
  variant=$(header "$mutant" Variant)
  lib=$dir/$mutant
  log=$dir/$mutant.log
  # The nested ctest reads the build's tests through a folder of its own, which holds its Testing/.
  tests=$lib/ctest
  rm -rf "$tests" "$lib/failures"
  mkdir -p "$tests"
  echo "subdirs(\"$build\")" > "$tests/CTestTestfile.cmake"
  # A kill needs one failure: each process stops at its first failed assertion (a breakpoint
  # trap), ctest starts no test after the first failure, and RapidCheck reports its
  # counterexample unshrunk (shrinking a 300000-element input costs minutes of GPU calls).
  LD_LIBRARY_PATH=$lib KCHECK_FAILURES_DIR=$lib/failures GTEST_BREAK_ON_FAILURE=1 RC_PARAMS=noshrink=1 \
    ctest --test-dir "$tests" -L "^${variant}\$" -LE 'sanitize|mutation' -j 16 --timeout 120 --stop-on-failure \
    --output-junit junit.xml > "$log" 2>&1
  found=$("$root/ci/mutants/junit.py" "$tests/junit.xml" 2>> "$log")
  by=$(sed -n 's/^failed //p' <<< "$found" | tr '\n' ' ')
  read -r _ rerun_entry rerun_args <<< "$(grep '^rerun ' <<< "$found")"
  tool=$(header "$mutant" Sanitizer)
  if [ -z "$by" ] && [ -n "$tool" ]; then
    read -r -a case_args <<< "$(header "$mutant" Sanitize-with)"
    LD_LIBRARY_PATH=$lib "$root/ci/sanitize.sh" "$tool" "$build/kcheck" "$variant" "${case_args[@]}" >> "$log" 2>&1
    status=$?
    if [ "$status" -eq 1 ]; then
      by="compute-sanitizer --tool $tool"
      how="sanitizer kcheck: exit 1"
    elif [ "$status" -ne 0 ]; then
      by="NOT RUN: its sanitizer case exited $status (see $log)"
    fi
  elif [ -n "$rerun_args" ]; then
    read -r -a case_args <<< "$rerun_args"
    echo "== reproducing ($rerun_entry): kcheck $rerun_args" >> "$log"
    LD_LIBRARY_PATH=$lib timeout 600 "$build/kcheck" "${case_args[@]}" >> "$log" 2>&1
    status=$?
    how="kcheck: exit $status"
  elif [ -n "$by" ]; then
    first=$(sed -n 's/^failed //p' <<< "$found" | head -1)
    echo "== reproducing: $first alone" >> "$log"
    LD_LIBRARY_PATH=$lib KCHECK_FAILURES_DIR=$lib/failures \
      ctest --test-dir "$tests" -R "^${first}\$" --timeout 300 >> "$log" 2>&1
    status=$(( $? == 0 ? 0 : 1 ))
    how="no rerun line; entry: $( [ "$status" -eq 1 ] && echo fails || echo passes)"
  fi
  if [ -z "$by" ]; then
    by="SURVIVED"
    how="-"
  elif [[ "$by" == NOT\ RUN* ]]; then
    how="-"
  else
    killed=$((killed + 1))
    if [ "$status" -eq 1 ]; then reproduced=$((reproduced + 1)); else how="NOT REPRODUCED ($how)"; fi
  fi
  # One row per mutant, kept for ci/mutants/table.sh.
  row "$mutant" "$variant" "$(( $(date +%s) - started ))" "$how" "$by" | tee "$dir/$mutant.row"
done
echo "killed $killed of ${#mutants[@]} mutants ($(( 100 * killed / ${#mutants[@]} ))%); $reproduced of the $killed kills reproduced"
[ "$killed" -eq "${#mutants[@]}" ] && [ "$reproduced" -eq "$killed" ]
