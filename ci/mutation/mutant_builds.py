"""Builds one libkernels.so per mutant, generated or from the catalogue: a copy of the library's
sources and its own library-only build folder (the normal build never sees a mutant), the patch
applied, the library alone rebuilt (ninja recompiles the patched file and whatever includes it),
the library kept, the patch reversed.

A mutant of a file the library compiles alone needs no slot of its own: the slot's compile
command for that file, run on a patched copy beside it, makes the mutant's object (compile_unit),
as many at once as there are cores, and the slot links it. Several slots, each a copy and a build
folder of its own, build the other mutants (a shared header's) side by side. A slot
that takes mutants of one file in a row recompiles that file once per mutant: restoring one
mutant and applying the next touch the same file. Mutants are handed out in id order, which keeps
a file's mutants together.

Compiling is most of a campaign's cost (about 10 s of one core for a mutant of a variant's .cu
file, every including file for one of a shared header; a link takes under a second), and the GPU
machine is lent by the minute. So a build can keep the object files the mutant changed, and a
slot can later link a mutant's library from its unpatched objects with those put in their place:
mutants compiled on any machine with the same sources and compiler (source_digest) are linked,
not compiled, there. Likewise a slot outlives its run: the next run reuses it, or after an edit
recompiles only what the edit touched (BuildSlot.prepare), and a slot prepared on a machine
without a GPU can be carried to one.
"""

import hashlib
import os
import re
import shutil
import subprocess
import threading
import uuid

from shared_lock import SharedLock

# The library alone (and the test fixtures' library, built only for a mutant of a fixture), no
# warnings as errors (a mutant may well warn).
CONFIGURE_FLAGS = [
    "-G",
    "Ninja",
    "-DKERNELS_BUILD_TESTS=OFF",
    "-DKERNELS_BUILD_FIXTURES=ON",
    "-DKERNELS_BUILD_BENCH=OFF",
    "-DKERNELS_WARNINGS_AS_ERRORS=OFF",
    "-DCMAKE_BUILD_TYPE=Release",
]


# The test fixtures' variants, whose planted bugs the catalogue may hold too.
FIXTURES = "test/fixtures"


def files_digest(root, parts):
    """sha256 over the paths (from `root`) and contents of the files `parts` names: files, or
    folders taken whole (Python's caches left out)."""
    digest = hashlib.sha256()
    files = []
    for part in parts:
        path = os.path.join(root, part)
        if os.path.isfile(path):
            files.append(path)
        for folder, subfolders, names in os.walk(path):
            subfolders[:] = [name for name in subfolders if name != "__pycache__"]
            files.extend(os.path.join(folder, name) for name in names)
    for path in sorted(files):
        digest.update(os.path.relpath(path, root).encode() + b"\0")
        with open(path, "rb") as file:
            digest.update(file.read() + b"\0")
    return digest


# What a slot copies of the suite: the library's sources and build files.
SOURCE_PARTS = ["CMakeLists.txt", "kernels", "cmake", FIXTURES]


def toolchain_text():
    """The compiler, the architectures and the configure flags: what a slot's build folder was
    configured for."""
    try:
        compiler = subprocess.run(["nvcc", "--version"], capture_output=True, text=True, check=False).stdout
    except OSError:
        compiler = "no nvcc"
    return compiler + os.environ.get("CMAKE_CUDA_ARCHITECTURES", "90") + " ".join(CONFIGURE_FLAGS)


def source_digest(root):
    """What a mutant's objects depend on besides its patch: the library's sources and build files,
    the compiler, the architectures. Objects made under another digest are not linked."""
    digest = files_digest(root, SOURCE_PARTS)
    digest.update(toolchain_text().encode())
    return digest.hexdigest()


def toolchain_digest():
    return hashlib.sha256(toolchain_text().encode()).hexdigest()


def _sync(root, copy):
    """Makes the files of SOURCE_PARTS under `copy` those under `root`: a file whose content
    differs is rewritten (its time is now, so that ninja rebuilds what depends on it), one gone
    from `root` is removed; the others are not touched."""
    for part in SOURCE_PARTS:
        source, target = os.path.join(root, part), os.path.join(copy, part)
        if os.path.isfile(source):
            pairs = [(source, target)]
        else:
            pairs = []
            for folder, subfolders, names in os.walk(source):
                subfolders[:] = [name for name in subfolders if name != "__pycache__"]
                relative = os.path.relpath(folder, source)
                pairs.extend((os.path.join(folder, n), os.path.join(target, relative, n)) for n in names)
            wanted = {os.path.normpath(t) for _, t in pairs}
            for folder, _, names in os.walk(target):
                for name in names:
                    if os.path.normpath(os.path.join(folder, name)) not in wanted:
                        os.remove(os.path.join(folder, name))
        for origin, destination in pairs:
            with open(origin, "rb") as file:
                content = file.read()
            if os.path.isfile(destination):
                with open(destination, "rb") as file:
                    if file.read() == content:
                        continue
            os.makedirs(os.path.dirname(destination), exist_ok=True)
            with open(destination, "wb") as file:
                file.write(content)


class ObjectCache:
    """Mutants' object files kept between runs and between machines: <folder>/<digest>/<patch
    name>/ holds objects/ (what BuildSlot.build(objects=...) kept) and compiled or
    not_compiling, written last, so that an interrupted build leaves no entry. Only the entries
    of today's source_digest are seen."""

    def __init__(self, folder, digest):
        self.folder = os.path.join(folder, digest)

    def lookup(self, name):
        """(compiled, objects folder) of a kept mutant, or None."""
        entry = os.path.join(self.folder, name)
        if os.path.isfile(os.path.join(entry, "compiled")):
            return True, os.path.join(entry, "objects")
        if os.path.isfile(os.path.join(entry, "not_compiling")):
            return False, None
        return None

    def objects_for(self, name):
        """An empty folder for a mutant's objects (an interrupted entry is cleared)."""
        entry = os.path.join(self.folder, name)
        shutil.rmtree(entry, ignore_errors=True)
        os.makedirs(os.path.join(entry, "objects"))
        return os.path.join(entry, "objects")

    def record(self, name, compiled):
        with open(os.path.join(self.folder, name, "compiled" if compiled else "not_compiling"), "w", encoding="utf-8"):
            pass


def _patch(diff, folder, reverse=False):
    command = ["patch", "-p1", "--quiet", "--fuzz=0", "--forward"] + (["--reverse"] if reverse else [])
    return subprocess.run(command, input=diff, text=True, cwd=folder, capture_output=True, check=False)


class BuildSlot:
    def __init__(self, work, index, jobs):
        self.folder = os.path.join(work, f"slot{index}")
        self.src = os.path.join(self.folder, "src")
        self.build_dir = os.path.join(self.folder, "build")
        self.jobs = jobs
        self._units = None  # {source: (compile command, object)}, read from ninja once prepared
        self._units_lock = threading.Lock()
        self._unit_checked = set()
        self._compiling = SharedLock()  # unit compiles share the slot's sources; a build patches them alone

    def _objects(self):
        """{path under the build folder: modification time} of the library's object files."""
        found = {}
        for folder, _, names in os.walk(os.path.join(self.build_dir, "kernels")):
            for name in names:
                if name.endswith(".o"):
                    path = os.path.join(folder, name)
                    found[os.path.relpath(path, self.build_dir)] = os.stat(path).st_mtime_ns
        return found

    def _ninja(self):
        with open(os.path.join(self.build_dir, "CMakeCache.txt"), encoding="utf-8") as cache:
            return next(line.split("=", 1)[1].strip() for line in cache if line.startswith("CMAKE_MAKE_PROGRAM:"))

    def _link_command(self):
        """The command that links the library from the objects on disk, as ninja would run it (in
        the build folder). link() runs it itself: ninja, which judges an object by its sources and
        its own log, could recompile an object put in place, or take a slot's restored sources as
        newer than it."""
        return self._library_commands()[-1]

    def _library_commands(self):
        """Every command that builds the library, in ninja's order (the link last)."""
        listed = subprocess.run(
            [self._ninja(), "-C", self.build_dir, "-t", "commands", "kernels"],
            capture_output=True,
            text=True,
            check=True,
        )
        return listed.stdout.strip().splitlines()

    def _stamp(self):
        return os.path.join(self.folder, "unpatched")

    def _mark_unpatched(self, unpatched):
        """Records that the slot holds the unpatched library of `self.digest` (written when a
        prepare or a mutant's restore completes), or that it may not (removed before a patch)."""
        if unpatched:
            with open(self._stamp(), "w", encoding="utf-8") as stamp:
                stamp.write(f"{self.digest}\n{self.toolchain}\n")
        elif os.path.exists(self._stamp()):
            os.remove(self._stamp())

    def _kept(self):
        """(source digest, toolchain digest) an earlier run left the slot unpatched under, or
        None."""
        if not os.path.isfile(self._stamp()):
            return None
        with open(self._stamp(), encoding="utf-8") as stamp:
            lines = stamp.read().split()
        return (lines + [None, None])[:2]

    def prepare(self, root):
        """The slot's copy of the sources, configured and built unpatched, and a copy of its
        unpatched objects. Building the whole library is minutes of a GPU machine's time, so a
        slot an earlier run left unpatched (here, or on the machine it was carried from) is kept:
        as it is under today's source_digest ("reused"), or brought up to today's sources, which
        recompiles only what the edit since touched ("updated"). One configured for another
        compiler or architecture, or left holding a mutant by an interrupted run, is rebuilt
        from scratch ("built"). A slot carried from a machine whose CMake lives elsewhere can
        still link kept objects (ObjectCache) but not compile ("reused for linking"): its first
        build() rebuilds it from scratch. Raises if that fails."""
        self.root = root
        self.digest = source_digest(root)
        self.toolchain = toolchain_digest()
        self.unpatched = os.path.join(self.folder, "unpatched-objects")
        kept = self._kept()
        if kept and kept[0] == self.digest:
            self.link_command = self._link_command()
            self.can_build = self._can_build_here()
            self.preparation = "reused" if self.can_build else "reused for linking"
            return
        if kept and kept[1] == self.toolchain and self._can_build_here():
            self.preparation = "updated"
            self._mark_unpatched(False)
            _sync(root, self.src)
            self._build_unpatched(configure=False)
            return
        self.preparation = "built"
        self._build_from_scratch()

    def _can_build_here(self):
        """Whether this machine can build in the slot as it stands: ninja's dry run of the build
        files finds them up to date. The build files of a slot configured on another machine
        depend on that machine's CMake modules, and ninja would have this machine's CMake
        regenerate them (from another CMake's cache)."""
        dry_run = subprocess.run(
            [self._ninja(), "-C", self.build_dir, "-n", "build.ninja"], capture_output=True, text=True, check=False
        )
        return dry_run.returncode == 0 and "no work to do" in dry_run.stdout

    def _build_from_scratch(self):
        self._compiling.acquire(exclusive=True)
        try:
            shutil.rmtree(self.folder, ignore_errors=True)
            os.makedirs(self.src)
            _sync(self.root, self.src)
            self._build_unpatched(configure=True)
        finally:
            self._compiling.release(exclusive=True)

    def _build_unpatched(self, configure):
        architectures = os.environ.get("CMAKE_CUDA_ARCHITECTURES", "90")
        configuring = [
            "cmake",
            "-S",
            self.src,
            "-B",
            self.build_dir,
            *CONFIGURE_FLAGS,
            f"-DCMAKE_CUDA_ARCHITECTURES={architectures}",
        ]
        building = ["cmake", "--build", self.build_dir, "--target", "kernels", "-j", str(self.jobs)]
        for step in [configuring, building] if configure else [building]:
            result = subprocess.run(step, capture_output=True, text=True, check=False)
            if result.returncode != 0:
                raise RuntimeError(f"{' '.join(step)} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
        self.link_command = self._link_command()
        shutil.rmtree(self.unpatched, ignore_errors=True)
        for path in self._objects():
            os.makedirs(os.path.dirname(os.path.join(self.unpatched, path)), exist_ok=True)
            shutil.copy2(os.path.join(self.build_dir, path), os.path.join(self.unpatched, path))
        self.can_build = True
        self._mark_unpatched(True)

    def _read_units(self):
        """{source file: (its compile command, its object under the build folder)} of the files
        the library compiles, that no other compiled file includes (ninja's record of each
        object's dependencies): a mutant of one of them changes that object alone."""
        commands = {}
        for line in self._library_commands():
            words = line.split()
            if "-c" in words and "-o" in words:
                commands[words[words.index("-c") + 1]] = (line, words[words.index("-o") + 1])
        deps = subprocess.run(
            [self._ninja(), "-C", self.build_dir, "-t", "deps"], capture_output=True, text=True, check=True
        )
        users, target = {}, None
        for line in deps.stdout.splitlines():
            if line and not line[0].isspace():
                target = line.split(":")[0]
            elif line.strip():
                users.setdefault(os.path.normpath(line.strip()), set()).add(target)
        return {
            source: (command, own_object)
            for source, (command, own_object) in commands.items()
            if users.get(os.path.normpath(source), {own_object}) <= {own_object}
        }

    def unit_of(self, diff):
        """The one source file `diff` changes, when the library compiles it alone (_read_units),
        else None (a header's mutant: build() recompiles every file that includes it)."""
        changed = {line[len("+++ b/") :].split("\t")[0] for line in diff.splitlines() if line.startswith("+++ b/")}
        with self._units_lock:
            if self._units is None:
                self._units = self._read_units()
        source = os.path.join(self.src, changed.pop()) if len(changed) == 1 else None
        return source if source in self._units else None

    def _compile(self, source, compiled_source, objects, log):
        """Runs the slot's own compile command of `source` on `compiled_source` (a file in the same
        folder, so that its quoted includes resolve alike), the object written under `objects`
        at its path in the build folder. Returns whether it compiled."""
        command, target = self._units[source]
        output = os.path.join(objects, target)
        os.makedirs(os.path.dirname(output), exist_ok=True)
        command = re.sub(f" -c {re.escape(source)}(?= |$)", f" -c {compiled_source}", command).replace(target, output)
        if compiled_source not in command:
            raise RuntimeError(f"no '-c {source}' in the slot's compile command: {command}")
        with open(log, "w", encoding="utf-8") as written:
            result = subprocess.run(
                command, shell=True, cwd=self.build_dir, stdout=written, stderr=subprocess.STDOUT, check=False
            )
        if os.path.exists(output + ".d"):
            os.remove(output + ".d")
        return result.returncode == 0

    def compile_unit(self, diff, objects, log):
        """Compiles the file `diff` changes (unit_of), patched, into `objects` (the layout
        build(objects=...) keeps, for link()). The slot itself is not touched: any number run at
        once, where build() takes the slot. The first compile of a file also compiles it
        unpatched, so that a command this machine cannot run (a compiler elsewhere) raises
        instead of making every mutant one that does not compile. Returns whether it compiled."""
        self._compiling.acquire(exclusive=False)
        try:
            return self._compile_unit(diff, objects, log)
        finally:
            self._compiling.release(exclusive=False)

    def _compile_unit(self, diff, objects, log):
        source = self.unit_of(diff)
        with self._units_lock:
            if source not in self._unit_checked:
                check = os.path.join(os.path.dirname(log), f"unpatched-{uuid.uuid4().hex}")
                if not self._compile(source, source, check, log):
                    raise RuntimeError(f"the slot's own command does not compile {source} unpatched: see {log}")
                shutil.rmtree(check)
                self._unit_checked.add(source)
        folder, name = os.path.split(source)
        mutated = os.path.join(folder, f".mutant-{uuid.uuid4().hex}-{name}")
        applied = subprocess.run(
            ["patch", "-p1", "--quiet", "--fuzz=0", "-o", mutated],
            input=diff,
            text=True,
            cwd=self.src,
            capture_output=True,
            check=False,
        )
        try:
            if applied.returncode != 0:
                raise RuntimeError(f"patch does not apply in {self.src}: {applied.stdout}{applied.stderr}")
            return self._compile(source, mutated, objects, log)
        finally:
            if os.path.exists(mutated):
                os.remove(mutated)

    def build(self, diff, library, log, objects=None):
        """Builds the library with `diff` applied; on success copies it to `library` (if given) and
        the object files the patch changed under `objects` (if given). Returns whether it
        compiled; the build's output goes to `log`."""
        if not self.can_build:
            self._build_from_scratch()
        self._compiling.acquire(exclusive=True)  # compile_unit reads this tree: none while it is patched
        try:
            return self._build(diff, library, log, objects)
        finally:
            self._compiling.release(exclusive=True)

    def _build(self, diff, library, log, objects):
        self._mark_unpatched(False)
        applied = _patch(diff, self.src)
        if applied.returncode != 0:
            raise RuntimeError(f"patch does not apply in {self.src}: {applied.stdout}{applied.stderr}")
        before = self._objects()
        # A mutant of a fixture also builds the fixtures' library, which the tests then load from
        # beside the mutant's libkernels.so.
        fixture = f"a/{FIXTURES}/" in diff
        targets = ["kernels", "kernels_fixtures"] if fixture else ["kernels"]
        objects_restored = False
        try:
            with open(log, "w", encoding="utf-8") as output:
                result = subprocess.run(
                    ["cmake", "--build", self.build_dir, "--target", *targets, "-j", str(self.jobs)],
                    stdout=output,
                    stderr=subprocess.STDOUT,
                    check=False,
                )
            if result.returncode == 0 and library:
                os.makedirs(os.path.dirname(library), exist_ok=True)
                shutil.copy2(os.path.join(self.build_dir, "kernels", "libkernels.so"), library)
                if fixture:
                    shutil.copy2(
                        os.path.join(self.build_dir, FIXTURES, "libkernels_fixtures.so"),
                        os.path.join(os.path.dirname(library), "libkernels_fixtures.so"),
                    )
            changed = [path for path, modified in self._objects().items() if before.get(path) != modified]
            if result.returncode == 0 and objects:
                for path in changed:
                    os.makedirs(os.path.dirname(os.path.join(objects, path)), exist_ok=True)
                    shutil.copy2(os.path.join(self.build_dir, path), os.path.join(objects, path))
            # The slot's objects are unpatched again, for link() (ninja recompiles the restored
            # sources anyway: they are newer than its log says their objects are).
            for path in changed:
                shutil.copyfile(os.path.join(self.unpatched, path), os.path.join(self.build_dir, path))
            objects_restored = True
            return result.returncode == 0
        finally:
            restored = _patch(diff, self.src, reverse=True)
            if restored.returncode != 0:
                raise RuntimeError(f"cannot restore {self.src}: {restored.stdout}{restored.stderr}")
            self._mark_unpatched(objects_restored)

    def link(self, objects, library, log):
        """Links the library with a mutant's object files (kept by build(objects=...) under the
        same source_digest) in place of their unpatched ones, copies it to `library`, and puts the
        unpatched objects back. Returns whether it linked; the output goes to `log`."""
        replaced = []
        for folder, _, names in os.walk(objects):
            replaced.extend(os.path.relpath(os.path.join(folder, name), objects) for name in names)
        self._mark_unpatched(False)
        try:
            for path in replaced:
                shutil.copyfile(os.path.join(objects, path), os.path.join(self.build_dir, path))
            with open(log, "w", encoding="utf-8") as output:
                result = subprocess.run(
                    self.link_command,
                    shell=True,
                    cwd=self.build_dir,
                    stdout=output,
                    stderr=subprocess.STDOUT,
                    check=False,
                )
            if result.returncode == 0:
                os.makedirs(os.path.dirname(library), exist_ok=True)
                shutil.copy2(os.path.join(self.build_dir, "kernels", "libkernels.so"), library)
            return result.returncode == 0
        finally:
            for path in replaced:
                shutil.copyfile(os.path.join(self.unpatched, path), os.path.join(self.build_dir, path))
            self._mark_unpatched(True)
