#!/usr/bin/env bash
# Runs every documented resource-specification command, verbatim, as a user would from the
# repository root: each line of README.md, docs/*.md and .github/workflows/*.yml that writes
# `test/runtime/gpu-resource-spec.sh > <spec>` and hands it to ctest. ctest --preset reads a relative
# --resource-spec-file from the build folder, not from where it was started, so such a command
# can look right and still fail with `File not found`.
#
# The lines run in a stand-in for the repository root: a copy of CMakePresets.json, the real
# ci/, a fake nvidia-smi that lists two GPUs, and a build/ whose only tests pass only when ctest
# hands them a GPU from the specification. The real build folder is left alone.
# Workflow lines take their matrix values from the environment (SHARD, SHARD_COUNT), set here
# to one shard of one. Last, the specification must cover only what CUDA_VISIBLE_DEVICES shows.
# Usage: check_documented_commands.sh <repository root> <folder of the ctest to use>
set -euo pipefail
root=$1
ctest_dir=$2

mapfile -t readme_lines < <(grep -h 'test/runtime/gpu-resource-spec.sh >' "$root/README.md" "$root"/docs/*.md || true)
mapfile -t workflow_lines < <(grep -h 'test/runtime/gpu-resource-spec.sh >' "$root"/.github/workflows/*.yml || true)
if [ ${#readme_lines[@]} -eq 0 ] || [ ${#workflow_lines[@]} -eq 0 ]; then
  echo "FAIL: expected the resource-spec command in README.md or docs/ and in .github/workflows/" >&2
  exit 1
fi

stand_in=$(mktemp -d)
trap 'rm -rf "$stand_in"' EXIT
mkdir -p "$stand_in/build" "$stand_in/fake-bin"
cp "$root/CMakePresets.json" "$stand_in/"
mkdir -p "$stand_in/test" && ln -s "$root/test/runtime" "$stand_in/test/runtime"
printf '#!/bin/sh\nprintf "0\\n1\\n"\n' > "$stand_in/fake-bin/nvidia-smi"
chmod +x "$stand_in/fake-bin/nvidia-smi"
# One test for the suite's presets and one for the sanitizer's (which selects label sanitize).
cat > "$stand_in/build/CTestTestfile.cmake" <<'TESTS'
set(needs_a_gpu sh -c "echo GPU from the resource spec: \$CTEST_RESOURCE_GROUP_0_GPUS && test -n \"\$CTEST_RESOURCE_GROUP_0_GPUS\"")
add_test(suite_test ${needs_a_gpu})
set_tests_properties(suite_test PROPERTIES LABELS "gpu" RESOURCE_GROUPS gpus:1)
add_test(sanitizer_test ${needs_a_gpu})
set_tests_properties(sanitizer_test PROPERTIES LABELS "gpu;sanitize" RESOURCE_GROUPS gpus:1)
TESTS

failures=0
for line in "${readme_lines[@]}" "${workflow_lines[@]}"; do
  command=$(sed -e 's/^[[:space:]]*//' -e 's/^`//' -e 's/`$//' <<< "$line")
  echo "== $command"
  if [[ $command != *'--resource-spec-file'* ]]; then
    echo "FAIL: write the spec and the ctest that reads it as one line, so that it runs as written" >&2
    failures=$((failures + 1))
    continue
  fi
  if [[ $command == *"\${{"* ]]; then
    echo "FAIL: a workflow expression in the command; pass it through env: instead" >&2
    failures=$((failures + 1))
    continue
  fi
  if ! (cd "$stand_in" && unset CUDA_VISIBLE_DEVICES && PATH="$stand_in/fake-bin:$ctest_dir:$PATH" \
        SHARD=1 SHARD_COUNT=1 bash -euo pipefail -c "$command"); then
    echo "FAIL: the documented command failed" >&2
    failures=$((failures + 1))
  fi
done
# The specification covers the GPUs that CUDA_VISIBLE_DEVICES leaves visible, numbered from 0
# (the test processes map the numbers back through the same variable).
ids=$(PATH="$stand_in/fake-bin:$PATH" CUDA_VISIBLE_DEVICES=1 "$root/test/runtime/gpu-resource-spec.sh" | grep -o '"id": "[0-9]*"' | tr '\n' ' ')
if [ "$ids" != '"id": "0" ' ]; then
  echo "FAIL: with CUDA_VISIBLE_DEVICES=1 the specification lists ids $ids, not one GPU with id 0" >&2
  failures=$((failures + 1))
fi
[ "$failures" -eq 0 ]
