#!/usr/bin/env bash
# Packs what running the suite needs on another machine that sees this checkout at the same path
# (a GPU runner fed with a build made elsewhere): build/ without object files, and the mutant
# libraries if any. The mutants differ in a few kernels, so a long-window xz stores them in little
# more than one. Unpack in the checkout with: tar xJf <bundle>
# Usage: ci/bundle-build.sh <bundle.tar.xz>
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundle=$(realpath -m "$1")
cd "$root"
paths=(build)
# Every library of a mutant: libkernels.so, and libkernels_fixtures.so for a mutant of a fixture.
compgen -G "build-mutants/*/*.so" > /dev/null && paths+=(build-mutants/*/*.so)
tar --exclude='*.o' --exclude='*.o.d' --exclude='.ninja_*' -cf - "${paths[@]}" |
  xz -6 -T1 --lzma2=dict=192MiB > "$bundle"
ls -la "$bundle"
