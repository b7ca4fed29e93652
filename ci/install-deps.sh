#!/usr/bin/env bash
# Installs what the suite needs and the machine lacks (Debian/Ubuntu, apt-get): CMake >= 3.25,
# Ninja, g++, GoogleTest, RapidCheck, CLI11 (kcheck's command line), Google Benchmark, matplotlib
# for the plots of the benchmarks, SciPy for the U test of their comparison (bench/perf_compare.py),
# patch (the mutation tool applies its mutants with it), and the mutation tool's Python packages
# (ci/mutation/requirements.txt) into build/python-deps/py3X, one folder per Python it may run
# under, so that a build carried to a GPU machine carries them.
# The CUDA toolkit (nvcc 12.8+ with CCCL) must already be there: distributions do not package a
# current one.
set -euo pipefail

packages=(cmake ninja-build g++ libgtest-dev librapidcheck-dev libbenchmark-dev libcli11-dev python3-matplotlib python3-scipy python3-pip patch)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake_version=$(cmake --version | sed -n 's/^cmake version \([0-9.]*\).*/\1/p')
if [ "$(printf '%s\n3.25\n' "$cmake_version" | sort -V | head -n1)" != "3.25" ]; then
  echo "install-deps: CMake $cmake_version is older than 3.25" >&2
  exit 1
fi
if ! command -v nvcc > /dev/null; then
  echo "install-deps: nvcc not found on PATH; install the CUDA toolkit (12.8 or later) and add its bin/ to PATH" >&2
  exit 1
fi
root=$(cd "$(dirname "$0")/.." && pwd)
for version in 3.10 3.11 3.12 3.13; do
  target="$root/build/python-deps/py${version/./}"
  [ -f "$target/.installed" ] && cmp -s "$target/.installed" "$root/ci/mutation/requirements.txt" && continue
  rm -rf "$target"
  python3 -m pip install --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --python-version "$version" --target "$target" -r "$root/ci/mutation/requirements.txt"
  cp "$root/ci/mutation/requirements.txt" "$target/.installed"
done

echo "install-deps: ready (cmake $cmake_version, $(nvcc --version | tail -n 2 | head -n 1))"
