#!/usr/bin/env bash
# Fails when a tracked C++ or CUDA file is not formatted as .clang-format says, naming each one
# and the command that formats it. The mutation tool's fixtures (ci/) are test data, kept as
# they are. clang-format 14 comes from ci/install-lint-tools.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
format=$(command -v clang-format-14 || command -v clang-format || true)
[ -n "$format" ] || { echo "check-format: clang-format 14 not found (ci/install-lint-tools.sh installs it)" >&2; exit 1; }
"$format" --version | grep -q "version 14\." || { echo "check-format: $("$format" --version) is not clang-format 14" >&2; exit 1; }
# The variant templates too: a new variant starts as a copy of one.
mapfile -t files < <(git ls-files -- '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.cu.template' ':!ci/')
unformatted=()
for file in "${files[@]}"; do
  "$format" --dry-run --Werror "$file" > /dev/null 2>&1 || unformatted+=("$file")
done
if [ ${#unformatted[@]} -gt 0 ]; then
  printf 'check-format: not formatted: %s\n' "${unformatted[@]}"
  echo "check-format: fix with: $format -i ${unformatted[*]}"
  exit 1
fi
# Kernel files say why in a line and leave narratives to docs/kernels.md: at most 15 % of a file's
# non-blank lines may be comment lines (starting with //, /* or *; clang-format's off and on are not).
# The variant interface's headers are its listing (what an implementation provides), not kernels.
mapfile -t kernel_files < <(git ls-files -- 'kernels/*.cu' 'kernels/*.cuh' 'kernels/*.hpp' 'kernels/*.h' \
                              ':!kernels/include/kernels/variant/*')
wordy=$(awk 'FNR == 1 && NR > 1 { report() } function report() { if (lines && comments * 100 > lines * 15)
               printf "%s (%d of %d lines)\n", name, comments, lines; comments = lines = 0 }
             { name = FILENAME } /[^[:space:]]/ { lines++ } /^[[:space:]]*(\/\/|\/\*|\*)/ && !/^[[:space:]]*\/\/ clang-format (off|on)/ { comments++ }
             END { report() }' "${kernel_files[@]}")
if [ -n "$wordy" ]; then
  printf 'check-format: above 15 %% comment lines: %s\n' "$wordy"
  exit 1
fi
echo "check-format: ${#files[@]} files formatted as .clang-format says; kernel files at most 15 % comments"
