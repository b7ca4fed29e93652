#!/usr/bin/env bash
# Runs a command under one compute-sanitizer tool with the suite's settings; exits non-zero if
# the tool reports anything (warnings included) or the command fails. The harness then gives
# every input, output and workspace an allocation of exactly its size, without guard bands
# (KERNELS_EXACT_BUFFERS=1, test/harness/memory/buffer_layout.hpp), so that memcheck reports any
# access outside [0, n), even a read whose value changes nothing. The hang watchdog is off.
# The run ends at the tool's first report (test/runtime/sanitize_first_error.py), naming the case of the
# last `sanitize case: <kcheck line>` that the command printed before it.
# Usage: test/runtime/sanitize.sh memcheck|racecheck|synccheck|initcheck <command> [args...]
set -euo pipefail
tool=$1
shift
case "$tool" in
  memcheck) options=(--padding 64 --leak-check full --track-stream-ordered-races all) ;;
  # --racecheck-report analysis: one "Race reported between" per race, not each byte's hazards (all).
  racecheck) options=(--racecheck-report analysis) ;;
  synccheck | initcheck) options=() ;;
  *) echo "sanitize.sh: unknown tool '$tool'" >&2; exit 2 ;;
esac
# Without the tool there is nothing to run: Skipped (ctest's 77) with the reason, a failure where a run must use
# the GPU (KERNELS_REQUIRE_GPU=1).
if ! command -v compute-sanitizer >/dev/null 2>&1; then
  if [[ "${KERNELS_REQUIRE_GPU:-0}" == 1 ]]; then
    echo "sanitize.sh: no compute-sanitizer on PATH (it comes with the CUDA toolkit), and KERNELS_REQUIRE_GPU=1" >&2
    exit 1
  fi
  echo "sanitize.sh: skipped: no compute-sanitizer on PATH (it comes with the CUDA toolkit)"
  exit 77
fi
export KERNELS_EXACT_BUFFERS=1
KERNELS_SANITIZE_SCRIPT=$(realpath "$0")  # a report's rerun line runs this script, where it is
export KERNELS_SANITIZE_SCRIPT
export KERNELS_SANITIZER_TOOL=$tool  # sanitize_cases.cpp picks the types each tool needs
# The tools slow kernels down by orders of magnitude: a batch's hang deadline would fire on
# honest runs, so only ctest's timeout bounds a sanitizer entry.
export KERNELS_HANG_TIMEOUT_S=0
# A racy kernel reports thousands of hazards, and the first one says what failed: the helper ends
# the run at the first report (a racecheck entry ran into ctest's 300 s timeout before).
# --print-limit 10: the tool stops printing errors after the tenth (its default is 100).
exec python3 "$(dirname "$0")/sanitize_first_error.py" "$tool" \
  compute-sanitizer --tool "$tool" "${options[@]}" --print-limit 10 --error-exitcode 1 "$@"
