#!/usr/bin/env bash
# Installs what the suite needs and the machine lacks (Debian/Ubuntu, apt-get): CMake >= 3.25,
# Ninja, g++, GoogleTest, RapidCheck, CLI11 (kcheck's command line), Google Benchmark, matplotlib
# for the plots of the benchmarks and of the mutation reports, and patch (the mutation tools apply
# their mutants with it).
# The CUDA toolkit (nvcc 12.8+ with CCCL) must already be there: distributions do not package a
# current one.
set -euo pipefail

packages=(cmake ninja-build g++ libgtest-dev librapidcheck-dev libbenchmark-dev libcli11-dev python3-matplotlib patch)
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
echo "install-deps: ready (cmake $cmake_version, $(nvcc --version | tail -n 2 | head -n 1))"
