#!/usr/bin/env bash
# Lints the GitHub Actions workflows; fails on any finding of either tool:
#   actionlint  syntax, expressions, runner labels (.github/actionlint.yaml), shellcheck of run:
#   zizmor      pinned actions, least permissions, no persisted credentials, injection, triggers
# zizmor runs offline: its online audits would need a GitHub token and network.
# Install the tools first: ci/install-lint-tools.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/build-lint/venv/bin
cd "$root"
"$tools/actionlint" -no-color
echo "lint-workflows: actionlint found nothing"
"$tools/zizmor" --offline --no-progress .github/workflows/
