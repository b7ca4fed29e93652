"""Puts build/python-deps/py3X (ci/install-deps.sh) on sys.path, so that a build carries its packages."""

import os
import sys

_ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FOLDER = os.path.join(os.environ.get("KERNELS_BUILD_DIR", os.path.join(_ROOT, "build")), "python-deps")
_OWN = os.path.join(FOLDER, f"py{sys.version_info.major}{sys.version_info.minor}")
if os.path.isdir(_OWN) and _OWN not in sys.path:
    sys.path.insert(0, _OWN)
try:
    import tree_sitter, tree_sitter_cuda, unidiff  # noqa: E401, F401
except ImportError as missing:
    sys.exit(f"python module {missing.name} missing: ci/install-deps.sh puts ci/mutation/requirements.txt into {_OWN}"
             f" (or carry that folder there, or point KERNELS_BUILD_DIR at a build that holds python-deps/)")
