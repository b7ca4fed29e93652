#!/usr/bin/env bash
# Runs a command under one compute-sanitizer tool with the suite's settings; exits non-zero if
# the tool reports anything (warnings included) or the command fails. The harness then gives
# every input, output and workspace an allocation of exactly its size, without guard bands
# (KCHECK_EXACT_BUFFERS=1, test/harness/memory/buffer_layout.hpp), so that memcheck reports any
# access outside [0, n), even a read whose value changes nothing. The hang watchdog is off.
# Usage: ci/sanitize.sh memcheck|racecheck|synccheck|initcheck <command> [args...]
set -euo pipefail
tool=$1
shift
case "$tool" in
  memcheck) options=(--padding 64 --leak-check full --track-stream-ordered-races all) ;;
  racecheck) options=(--racecheck-report all) ;;
  synccheck | initcheck) options=() ;;
  *) echo "sanitize.sh: unknown tool '$tool'" >&2; exit 2 ;;
esac
export KCHECK_EXACT_BUFFERS=1
export KCHECK_SANITIZER_TOOL=$tool  # sanitize_cases.cpp picks the types each tool needs
# The tools slow kernels down by orders of magnitude: a batch's hang deadline would fire on
# honest runs, so only ctest's timeout bounds a sanitizer entry.
export KERNELS_HANG_TIMEOUT_S=0
exec compute-sanitizer --tool "$tool" "${options[@]}" --error-exitcode 1 "$@"
