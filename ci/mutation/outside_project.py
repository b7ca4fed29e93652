"""An outside project (run_mutants.py --project): its variant files, its slots' builds and the builds that judge."""

import os
import shutil
import subprocess

from mutant_builds import read_cache
from variants import variant_files

# The cache entries a slot or a judging build takes from the project's build, so that it builds as that one does.
CACHE_OPTIONS = ("CMAKE_PREFIX_PATH", "GpuPrimitives_DIR", "CMAKE_BUILD_TYPE", "CMAKE_CUDA_ARCHITECTURES",
                 "CMAKE_CUDA_COMPILER", "CMAKE_CXX_COMPILER", "CMAKE_CUDA_HOST_COMPILER", "CMAKE_CUDA_FLAGS",
                 "CMAKE_CXX_FLAGS", "CMAKE_CUDA_COMPILER_LAUNCHER", "CMAKE_CXX_COMPILER_LAUNCHER")  # fmt: skip


class BadProject(Exception):
    """--project or --project-build names no project run_mutants.py can judge (exit 2)."""


def is_build_folder(folder):
    return os.path.isfile(os.path.join(folder, "CMakeCache.txt"))


class Project:
    """A slot recipe: a copy of the project's sources built as its build is; the shared libraries built are kept."""

    def __init__(self, source, build):
        self.source, self.build = os.path.realpath(source), os.path.realpath(build)
        if not os.path.isdir(self.source) or not variant_files(self.source, project=True):
            raise BadProject(f"--project {source}: no variant file (a .cu calling register_variant(make_<family>_variant...))")
        if not is_build_folder(self.build):
            raise BadProject(f"--project-build {build}: not a configured build (no CMakeCache.txt)")
        self.cache = read_cache(self.build)
        home = self.cache.get("CMAKE_HOME_DIRECTORY", "")
        if not os.path.isdir(home) or not os.path.samefile(home, self.source):
            raise BadProject(f"--project-build {build}: configured for {home or 'no source'}, not for --project {source}")
        self.name = self.cache.get("CMAKE_PROJECT_NAME") or os.path.basename(self.source)
        self.parts = sorted(name for name in os.listdir(self.source) if not name.startswith(".") and not (
            is_build_folder(os.path.join(self.source, name)) or os.path.join(self.source, name) == self.build))  # fmt: skip

    def configure_flags(self):
        generator = ["-G", self.cache["CMAKE_GENERATOR"]] if self.cache.get("CMAKE_GENERATOR") else []
        return generator + [f"-D{name}={self.cache[name]}" for name in CACHE_OPTIONS if self.cache.get(name)]

    def targets(self, diff):
        return ["all"]

    def keep(self, build_dir, library, diff):
        """Copies the shared libraries the build made into the folder `library`, at their paths in the build."""
        for folder, subfolders, names in os.walk(build_dir):
            subfolders[:] = [name for name in subfolders if name != "CMakeFiles"]
            for name in (n for n in names if n.endswith(".so") or ".so." in n):
                target = os.path.join(library, os.path.relpath(os.path.join(folder, name), build_dir))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copy2(os.path.join(folder, name), target)

    def judging_build(self, spec, library):
        """The build beside a lane's specification, configured once, holding the mutant's libraries: its entries judge."""
        build = os.path.splitext(spec)[0] + ".build"
        if not is_build_folder(build):
            configure = ["cmake", "-S", self.source, "-B", build, *self.configure_flags()]
            subprocess.run(configure, capture_output=True, text=True, check=True)
        shutil.copytree(library, build, dirs_exist_ok=True)
        return build
