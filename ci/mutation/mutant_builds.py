"""Builds one library per mutant in a build slot: a patched copy of the sources (the suite's, or a project's)."""

import filecmp
import hashlib
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

# The library alone (and the fixtures' library, for a mutant of a fixture); a mutant may warn.
CONFIGURE_FLAGS = ["-G", "Ninja", "-DKERNELS_BUILD_TESTS=OFF", "-DKERNELS_BUILD_FIXTURES=ON",
                   "-DKERNELS_BUILD_BENCH=OFF", "-DKERNELS_WARNINGS_AS_ERRORS=OFF", "-DCMAKE_BUILD_TYPE=Release"]  # fmt: skip
FIXTURES = "test/fixtures"
# What a slot copies of the suite: the library's sources and build files.
SOURCE_PARTS = ["CMakeLists.txt", "kernels", "cmake", FIXTURES]


def _files(root, parts):
    """(path from root, absolute path) of the files `parts` names, files or whole folders."""
    found = []
    for part in parts:
        path = os.path.join(root, part)
        if os.path.isfile(path):
            found.append(path)
        for folder, subfolders, names in os.walk(path):
            subfolders[:] = [name for name in subfolders if name != "__pycache__"]
            found.extend(os.path.join(folder, name) for name in names)
    return sorted((os.path.relpath(path, root), path) for path in found)


def files_digest(root, parts):
    """sha256 over the paths and contents of the files `parts` names."""
    digest = hashlib.sha256()
    for relative, path in _files(root, parts):
        with open(path, "rb") as file:
            digest.update(relative.encode() + b"\0" + file.read() + b"\0")
    return digest


def read_cache(build):
    """{name: value} of the entries of `build`'s CMakeCache.txt ({} without one)."""
    if not os.path.isfile(path := os.path.join(build, "CMakeCache.txt")):
        return {}
    with open(path, encoding="utf-8") as file:
        lines = [line.rstrip("\n") for line in file if "=" in line and not line.startswith(("#", "//"))]
    return {name.split(":")[0]: value for name, value in (line.split("=", 1) for line in lines)}


class SuiteLibrary:
    """A slot's recipe for the suite: libkernels.so alone (and the fixtures' library, for a mutant of a fixture)."""

    parts = SOURCE_PARTS

    def configure_flags(self):
        launcher = [f"-DCMAKE_{lang}_COMPILER_LAUNCHER=ccache" for lang in ("CXX", "CUDA")] if shutil.which("ccache") else []
        return [*CONFIGURE_FLAGS, *launcher, f"-DCMAKE_CUDA_ARCHITECTURES={os.environ.get('CMAKE_CUDA_ARCHITECTURES', '90')}"]

    def targets(self, diff):
        return ["kernels", "kernels_fixtures"] if f"a/{FIXTURES}/" in diff else ["kernels"]

    def keep(self, build_dir, library, diff):
        os.makedirs(os.path.dirname(library), exist_ok=True)
        shutil.copy2(os.path.join(build_dir, "kernels", "libkernels.so"), library)
        if f"a/{FIXTURES}/" in diff:  # beside it
            shutil.copy2(os.path.join(build_dir, FIXTURES, "libkernels_fixtures.so"), os.path.dirname(library))


def _sync(root, copy, parts):
    """Makes `copy`'s sources `root`'s, rewriting only files that differ so that ninja rebuilds little."""
    wanted = set()
    for relative, path in _files(root, parts):
        target = os.path.join(copy, relative)
        wanted.add(os.path.normpath(target))
        if not (os.path.isfile(target) and filecmp.cmp(path, target, shallow=False)):
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(path, target)
    for relative, path in _files(copy, parts):
        if os.path.normpath(path) not in wanted:
            os.remove(path)


def _patch(diff, folder, reverse=False):
    """Applies `diff` in `folder` exactly (or reverses it); RuntimeError if it does not."""
    command = ["patch", "-p1", "--quiet", "--fuzz=0", "--forward"] + (["--reverse"] if reverse else [])
    done = subprocess.run(command, input=diff, text=True, cwd=folder, capture_output=True, check=False)
    if done.returncode != 0:
        what = "cannot restore" if reverse else "patch does not apply in"
        raise RuntimeError(f"{what} {folder}: {done.stdout}{done.stderr}")


class BuildSlot:
    def __init__(self, work, index, jobs, recipe):
        self.folder = os.path.join(work, f"slot{index}")
        self.src = os.path.join(self.folder, "src")
        self.build_dir = os.path.join(self.folder, "build")
        self.jobs, self.recipe = jobs, recipe

    def prepare(self, root):
        """Brings the slot up to `root` (afresh if left patched or configured elsewhere) and builds it."""
        if os.path.exists(os.path.join(self.folder, "patched")) or not self._configured_here():
            shutil.rmtree(self.folder, ignore_errors=True)
        os.makedirs(self.src, exist_ok=True)
        _sync(root, self.src, self.recipe.parts)
        configure = ["cmake", "-S", self.src, "-B", self.build_dir, *self.recipe.configure_flags()]
        build = ["cmake", "--build", self.build_dir, "--target", *self.recipe.targets(""), "-j", str(self.jobs)]
        for step in (configure, build):
            result = subprocess.run(step, capture_output=True, text=True, check=False)
            if result.returncode != 0:
                raise RuntimeError(f"{' '.join(step)} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")

    def _configured_here(self):
        """Whether the slot's build folder names this slot's sources and a CMake this machine has."""
        cache = read_cache(self.build_dir)
        return cache.get("CMAKE_HOME_DIRECTORY") == self.src and os.path.isfile(cache.get("CMAKE_COMMAND", ""))

    def build(self, diff, library, log):
        """Builds with `diff` and keeps what the recipe keeps in `library`: whether it compiled (None: stopped)."""
        _patch(diff, self.src)
        open(os.path.join(self.folder, "patched"), "w").close()
        targets = self.recipe.targets(diff)
        try:
            with open(log, "w", encoding="utf-8") as output:
                result = subprocess.run(["cmake", "--build", self.build_dir, "--target", *targets, "-j", str(self.jobs)],
                                        stdout=output, stderr=subprocess.STDOUT, check=False)  # fmt: skip
            if result.returncode == 0:
                self.recipe.keep(self.build_dir, library, diff)
            return None if result.returncode < 0 or result.returncode == 130 else result.returncode == 0  # 130: ninja stopped
        finally:
            _patch(diff, self.src, reverse=True)
            os.remove(os.path.join(self.folder, "patched"))


def prepared_slots(work, root, wanted, recipe=SuiteLibrary()):
    """Up to 8 slots of 2 jobs on 16 cores (a mutant recompiles one file or a few), prepared side by side."""
    cores = os.cpu_count() or 2
    count = max(1, min(8, cores // 2, wanted))
    slots = [BuildSlot(work, index, max(2, cores // count), recipe) for index in range(count)]
    with ThreadPoolExecutor(count) as pool:
        list(pool.map(lambda slot: slot.prepare(root), slots))
    return slots
