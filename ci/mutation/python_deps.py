"""The checkout's ROOT and BUILD_DIR; puts BUILD_DIR/python-deps/py3X (ci/install-deps.sh) on sys.path."""

import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BUILD_DIR = os.environ.get("KERNELS_BUILD_DIR", os.path.join(ROOT, "build"))
_OWN = os.path.join(BUILD_DIR, "python-deps", f"py{sys.version_info.major}{sys.version_info.minor}")
if os.path.isdir(_OWN) and _OWN not in sys.path:
    sys.path.insert(0, _OWN)
try:
    import tree_sitter, tree_sitter_cuda, unidiff  # noqa: E401, F401
except ImportError as missing:
    sys.exit(f"python module {missing.name} missing: ci/install-deps.sh puts ci/mutation/requirements.txt into {_OWN}"
             f" (or carry that folder there, or point KERNELS_BUILD_DIR at a build that holds python-deps/)")
