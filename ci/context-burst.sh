#!/usr/bin/env bash
# How this host's driver makes CUDA contexts side by side: starts <processes> copies of
# bench/context_burst at once, spread in turn over the GPUs listed, and prints the wall time and
# each process's time to make its context (min, median, max). --mps runs them through an MPS
# daemon of a temporary folder (test/runtime/mps-daemon.sh). CUDA_DEVICE_MAX_CONNECTIONS and the like pass
# through. Exit status: 1 when any process made no context.
# Usage: ci/context-burst.sh [--mps] <processes> <gpu>[,<gpu>...] [build folder, default build]
set -uo pipefail
mps=0
[ "${1:-}" = --mps ] && { mps=1; shift; }
if [ $# -lt 2 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]] || ! [[ $2 =~ ^[0-9]+(,[0-9]+)*$ ]]; then
  echo "usage: ci/context-burst.sh [--mps] <processes> <gpu>[,<gpu>...] [build folder]" >&2
  exit 2
fi
count=$1
IFS=, read -r -a gpus <<< "$2"
program=${3:-build}/bench/context_burst
[ -x "$program" ] || { echo "context-burst: $program not built (cmake --build build --target context_burst)" >&2; exit 2; }
folder=$(mktemp -d)
trap '[ $mps = 1 ] && "$(dirname "$0")/../test/runtime/mps-daemon.sh" stop "$folder/mps" > /dev/null; rm -rf "$folder"' EXIT
if [ $mps = 1 ]; then
  "$(dirname "$0")/../test/runtime/mps-daemon.sh" start "$folder/mps" > /dev/null || { echo "context-burst: no MPS daemon" >&2; exit 2; }
  export CUDA_MPS_PIPE_DIRECTORY=$folder/mps/pipe CUDA_MPS_LOG_DIRECTORY=$folder/mps/log
fi
start=$(date +%s%N)
for ((i = 0; i < count; ++i)); do
  CUDA_VISIBLE_DEVICES=${gpus[i % ${#gpus[@]}]} "$program" > "$folder/$i.txt" 2>&1 &
done
wait
wall_ms=$(( ($(date +%s%N) - start) / 1000000 ))
made=$(cat "$folder"/[0-9]*.txt | grep -c ' no error$')
times=$(cat "$folder"/[0-9]*.txt | awk '/^context/ {print $2}' | sort -n | awk '{t[NR] = $1} END {printf "%s %s %s", t[1], t[int((NR + 1) / 2)], t[NR]}')
echo "$count processes on GPUs $2$([ $mps = 1 ] && echo ' through MPS'): wall ${wall_ms} ms; context s min/median/max: $times; made $made of $count"
if [ "$made" -ne "$count" ]; then
  echo "context-burst: a process made no context: $(grep -hv ' no error$' "$folder"/[0-9]*.txt | head -1)" >&2
  exit 1
fi
