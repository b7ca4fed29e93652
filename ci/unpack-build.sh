#!/usr/bin/env bash
# Unpacks a bundle made by ci/bundle-build.sh into this checkout (a GPU runner fed with a build
# made by another), after checking that it was built in a checkout at this same path: the build
# folder names its sources, its test executables and itself by absolute path (CMakeCache.txt,
# CTestTestfile.cmake), so runners share builds only where they check the repository out at the
# same path (runners installed under the same folder).
# Usage: ci/unpack-build.sh <bundle.tar.xz>
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundle=$(realpath "$1")
cd "$root"
tar xJf "$bundle"
built_in=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' build/CMakeCache.txt)
if [ "$built_in" != "$root" ]; then
  echo "unpack-build: the bundle was built in '$built_in', this checkout is '$root'" >&2
  exit 1
fi
echo "unpack-build: build/ (and the mutant libraries it carried) unpacked from $bundle"
