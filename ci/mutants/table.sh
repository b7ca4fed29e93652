#!/usr/bin/env bash
# Prints the kill table of the last runs of every mutant (the rows ci/mutants/run.sh keeps: what
# killed it and whether its first rerun line reproduces the kill), the kill rate and the number
# of kills reproduced. Usage: ci/mutants/table.sh [mutants-dir (default build-mutants)]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$root/build-mutants}
row() { printf '%-36s %-44s %5s  %-28s %s\n' "$@"; }
row mutant variant seconds reproduced "killed by"
total=0 killed=0 reproduced=0
for patch in "$root"/ci/mutation/catalogue/*.patch; do
  mutant=$(basename "$patch" .patch)
  total=$((total + 1))
  if [ -f "$dir/$mutant.row" ]; then
    cat "$dir/$mutant.row"
    grep -qE "SURVIVED|NOT RUN" "$dir/$mutant.row" && continue
    killed=$((killed + 1))
    grep -q "NOT REPRODUCED" "$dir/$mutant.row" || reproduced=$((reproduced + 1))
  else
    row "$mutant" "$(sed -n 's/^Variant: //p' "$patch")" - - "NOT RUN"
  fi
done
echo "killed $killed of $total mutants ($((100 * killed / total))%); $reproduced of the $killed kills reproduced"
