"""Builds one libkernels.so per mutant, the way ci/mutants/build.sh builds the catalogue's: a copy
of the library's sources and its own library-only build folder (the configure flags below are
build.sh's), the patch applied, the library alone rebuilt (ninja recompiles the patched file and
whatever includes it), the library kept, the patch reversed.

Several slots, each a copy and a build folder of its own, build mutants side by side. A slot
that takes mutants of one file in a row recompiles that file once per mutant: restoring one
mutant and applying the next touch the same file. Mutants are handed out in id order, which keeps
a file's mutants together.
"""

import os
import shutil
import subprocess

# As in ci/mutants/build.sh: the library alone, no warnings as errors (a mutant may well warn).
CONFIGURE_FLAGS = [
    "-G",
    "Ninja",
    "-DKERNELS_BUILD_TESTS=OFF",
    "-DKERNELS_BUILD_BENCH=OFF",
    "-DKERNELS_WARNINGS_AS_ERRORS=OFF",
    "-DCMAKE_BUILD_TYPE=Release",
]


def _patch(diff, folder, reverse=False):
    command = ["patch", "-p1", "--quiet", "--fuzz=0", "--forward"] + (["--reverse"] if reverse else [])
    return subprocess.run(command, input=diff, text=True, cwd=folder, capture_output=True, check=False)


class BuildSlot:
    def __init__(self, work, index, jobs):
        self.folder = os.path.join(work, f"slot{index}")
        self.src = os.path.join(self.folder, "src")
        self.build_dir = os.path.join(self.folder, "build")
        self.jobs = jobs

    def prepare(self, root):
        """A fresh copy of the sources, configured and built unpatched, in a fresh build folder (one
        left by an interrupted run may hold a mutant's objects). Raises if that fails."""
        shutil.rmtree(self.folder, ignore_errors=True)
        os.makedirs(self.src)
        for part in ("kernels", "cmake"):
            shutil.copytree(os.path.join(root, part), os.path.join(self.src, part))
        shutil.copy2(os.path.join(root, "CMakeLists.txt"), self.src)
        architectures = os.environ.get("CMAKE_CUDA_ARCHITECTURES", "90")
        for step in (
            [
                "cmake",
                "-S",
                self.src,
                "-B",
                self.build_dir,
                *CONFIGURE_FLAGS,
                f"-DCMAKE_CUDA_ARCHITECTURES={architectures}",
            ],
            ["cmake", "--build", self.build_dir, "--target", "kernels", "-j", str(self.jobs)],
        ):
            result = subprocess.run(step, capture_output=True, text=True, check=False)
            if result.returncode != 0:
                raise RuntimeError(f"{' '.join(step)} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")

    def build(self, diff, library, log):
        """Builds the library with `diff` applied; on success copies it to `library`. Returns
        whether it compiled; the build's output goes to `log`."""
        applied = _patch(diff, self.src)
        if applied.returncode != 0:
            raise RuntimeError(f"patch does not apply in {self.src}: {applied.stdout}{applied.stderr}")
        try:
            with open(log, "w", encoding="utf-8") as output:
                result = subprocess.run(
                    ["cmake", "--build", self.build_dir, "--target", "kernels", "-j", str(self.jobs)],
                    stdout=output,
                    stderr=subprocess.STDOUT,
                    check=False,
                )
            if result.returncode == 0:
                os.makedirs(os.path.dirname(library), exist_ok=True)
                shutil.copy2(os.path.join(self.build_dir, "kernels", "libkernels.so"), library)
            return result.returncode == 0
        finally:
            restored = _patch(diff, self.src, reverse=True)
            if restored.returncode != 0:
                raise RuntimeError(f"cannot restore {self.src}: {restored.stdout}{restored.stderr}")
