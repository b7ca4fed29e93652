#!/usr/bin/env bash
# Builds one libkernels.so per mutant (ci/mutation/catalogue/*.patch): each patch is applied to a copy of
# the library's sources, the library alone is rebuilt (ninja recompiles only the patched
# files), and the result is kept as <out>/<mutant>/libkernels.so. The normal build never sees a
# mutant. Usage: ci/mutants/build.sh [out-dir (default build-mutants)] [mutant...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(realpath -m "${1:-$root/build-mutants}")
shift $(( $# > 0 ? 1 : 0 ))
mutants=("$@")
if [ ${#mutants[@]} -eq 0 ]; then
  for patch in "$root"/ci/mutation/catalogue/*.patch; do mutants+=("$(basename "$patch" .patch)"); done
fi

src=$out/src
mkdir -p "$src"
rm -rf "$src/kernels" "$src/cmake"
cp -r "$root/kernels" "$root/cmake" "$root/CMakeLists.txt" "$src/"
cmake -S "$src" -B "$out/build" -G Ninja -DKERNELS_BUILD_TESTS=OFF -DKERNELS_BUILD_BENCH=OFF -DKERNELS_WARNINGS_AS_ERRORS=OFF \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES="${CMAKE_CUDA_ARCHITECTURES:-90}" > "$out/configure.log"
cmake --build "$out/build" --target kernels > "$out/build-unpatched.log"

for mutant in "${mutants[@]}"; do
  patch_file=$root/ci/mutation/catalogue/$mutant.patch
  (cd "$src" && patch --quiet -p1 < "$patch_file")
  if cmake --build "$out/build" --target kernels > "$out/build-$mutant.log" 2>&1; then
    mkdir -p "$out/$mutant"
    cp "$out/build/kernels/libkernels.so" "$out/$mutant/"
    echo "built mutant $mutant"
  else
    echo "mutant $mutant does not compile (see $out/build-$mutant.log)" >&2
  fi
  (cd "$src" && patch --quiet -p1 -R < "$patch_file")
done
