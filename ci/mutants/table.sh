#!/usr/bin/env bash
# Prints the kill table of the last runs of every mutant (the rows ci/mutants/run.sh keeps) and
# the kill rate. Usage: ci/mutants/table.sh [mutants-dir (default build-mutants)]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$root/build-mutants}
printf '%-34s %-44s %s\n' mutant variant "killed by"
total=0 killed=0
for patch in "$root"/ci/mutants/*.patch; do
  mutant=$(basename "$patch" .patch)
  total=$((total + 1))
  if [ -f "$dir/$mutant.row" ]; then
    cat "$dir/$mutant.row"
    grep -q "SURVIVED" "$dir/$mutant.row" || killed=$((killed + 1))
  else
    printf '%-34s %-44s %s\n' "$mutant" "$(sed -n 's/^Variant: //p' "$patch")" "NOT RUN"
  fi
done
echo "killed $killed of $total mutants ($((100 * killed / total))%)"
