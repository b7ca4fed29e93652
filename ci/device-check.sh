#!/usr/bin/env bash
# One call on a lent GPU machine that lacks GoogleTest, RapidCheck and CLI11: configure against
# the copies in .deps/ (made by the caller from this machine's packages), build with every core,
# then run the given ctest presets and the kcheck default-options table; logs under $OUT.
# Usage: ci/device-check.sh <preset>...
set -uo pipefail
out=${OUT:-/tmp/device-check}
mkdir -p "$out"
cmake --preset default -DCMAKE_PREFIX_PATH="$PWD/.deps/usr" > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
start=$(date +%s)
cmake --build build -j "$(nproc)" > "$out/build.log" 2>&1 || { grep -E "error|FAILED" "$out/build.log" | head -40; exit 1; }
echo "build: $(( $(date +%s) - start )) s"
for preset in "$@"; do
  start=$(date +%s)
  ctest --preset "$preset" --output-junit "$out/junit-$preset.xml" > "$out/ctest-$preset.log" 2>&1
  echo "$preset: $(grep -E 'tests passed|Total Test time' "$out/ctest-$preset.log" | tr '\n' ' ') ($(( $(date +%s) - start )) s)"
  grep -E '\*\*\*Failed|\(Failed\)|Not Run|Timeout' "$out/ctest-$preset.log" | head -20
done
# kcheck with default options for every variant at the issue's lengths: pass/FAIL/n-a (outside
# the contract) and seconds, each bounded by 5 s.
if [ -n "${KERNELS_DEVICE_CHECK_TABLE:-}" ]; then
  printf '| variant | n=0 | 1 | 12 | 1000 | 100003 | 1000003 |\n|---|---|---|---|---|---|---|\n' > "$out/kcheck-table.md"
  for variant in $(build/kcheck --list | awk '$1 ~ /^(reduce|scan|sort)\// {print $1}'); do
    row="| $variant |"
    for n in 0 1 12 1000 100003 1000003; do
      start=$(date +%s.%N)
      timeout 5 build/kcheck "$variant" --n "$n" > "$out/kcheck.last" 2>&1
      rc=$?
      took=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
      case $rc in 0) cell="pass ${took}s";; 2) cell="n/a";; 124) cell="TIMEOUT";; *) cell="FAIL($rc) ${took}s"; cat "$out/kcheck.last" >> "$out/kcheck-failures.log";; esac
      row="$row $cell |"
    done
    echo "$row" >> "$out/kcheck-table.md"
  done
  echo "kcheck table: $(grep -c pass "$out/kcheck-table.md") rows with passes; failures: $(grep -cE 'FAIL|TIMEOUT' "$out/kcheck-table.md")"
  grep -E 'FAIL|TIMEOUT' "$out/kcheck-table.md" | head
fi
