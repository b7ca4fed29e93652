"""ctest runs against a mutant's library, each from a folder of its own so that lanes share no files."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import ctest_junit

# A kill needs one failure: a process stops at its first, and RapidCheck does not shrink (minutes of GPU calls).
KILL_ENVIRONMENT = {"GTEST_BREAK_ON_FAILURE": "1", "RC_PARAMS": "noshrink=1"}
# No MPS daemon: lanes would start and stop it under each other, and a faulting mutant end every context.
NATIVE_ENVIRONMENT = {"KERNELS_USE_MPS": "0"}


def library_environment(library_dir):
    """The environment of a run against the libraries in `library_dir` (kcheck, a sanitizer): libkernels.so linked
    through LD_LIBRARY_PATH, a variant library (a mutant fixture's) loaded first, so it wins over the build's."""
    paths = ":".join(filter(None, [library_dir, os.environ.get("LD_LIBRARY_PATH")]))
    variants = sorted(str(p) for p in Path(library_dir).glob("*.so") if p.name != "libkernels.so")
    listed = ":".join(filter(None, [*variants, os.environ.get("KERNELS_VARIANT_LIBRARIES")]))
    return {**os.environ, "LD_LIBRARY_PATH": paths, **({"KERNELS_VARIANT_LIBRARIES": listed} if listed else {})}


def mutant_environment(library_dir, extra=None):
    """The environment of the tests' run against the libkernels.so in `library_dir`."""
    return {**library_environment(library_dir), **KILL_ENVIRONMENT, **NATIVE_ENVIRONMENT, **(extra or {})}


def prepare_folder(build_dir, folder):
    """An empty run folder that reads the build's tests."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    Path(folder, "CTestTestfile.cmake").write_text(f'subdirs("{build_dir}")\n', encoding="utf-8")


def entry_properties(folder, arguments):
    """{entry name: {property: value}} of the entries `arguments` select, from ctest's own listing."""
    command = ["ctest", "--test-dir", folder, "--show-only=json-v1", *arguments]
    listing = subprocess.run(command, capture_output=True, text=True, check=False)
    tests = json.loads(listing.stdout).get("tests", []) if listing.returncode == 0 else []
    return {test["name"]: {p["name"]: p["value"] for p in test.get("properties", [])} for test in tests}


def entry_timeouts(folder, arguments, default_timeout=None, properties=None):
    """{entry name: TIMEOUT s} of the selected entries; those without one get `default_timeout`."""
    properties = entry_properties(folder, arguments) if properties is None else properties
    timeouts = {name: given.get("TIMEOUT", default_timeout) for name, given in properties.items()}
    return {name: float(timeout) for name, timeout in timeouts.items() if timeout}


def gpu_probe(build_dir):
    """(status, what it said) of the build's GPU probe: 0 a GPU, 77 none, else none to judge on (lost, required)."""
    probe = os.path.join(build_dir, "test", "mutation", "gpu_probe")
    try:
        done = subprocess.run([probe], capture_output=True, text=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:  # no probe is a failure: nothing is judged unchecked
        return 1, f"gpu_probe: {error}"
    return done.returncode, f"gpu_probe: {done.stdout.strip() or f'exit {done.returncode}'}"


def gpu_probe_failure(build_dir):
    """Why the GPU probe reaches no GPU now, or None."""
    status, said = gpu_probe(build_dir)
    return None if status == 0 else said


def after_gpu_check(verdict, build_dir):
    """`verdict`, or GPU lost if the probe fails now: a lost GPU's kill or survival is no verdict."""
    failure = gpu_probe_failure(build_dir) if verdict.outcome in (*ctest_junit.KILLS, ctest_junit.SURVIVED) else None
    return verdict if failure is None else ctest_junit.Verdict(ctest_junit.ERROR, (f"{ctest_junit.GPU_LOST}: {failure}",))


def run(folder, arguments, environment, log, timeout=None):
    """(verdict, entries) of one ctest from `folder`; entries stop at the first failure (KERNELS_STOP_FILE)."""
    arguments = [*arguments, *(["--timeout", str(timeout)] if timeout else [])]
    junit, stop = os.path.join(folder, "junit.xml"), os.path.join(folder, "stop")
    for stale in (junit, stop):
        Path(stale).unlink(missing_ok=True)
    log.flush()
    command = ["ctest", "--test-dir", folder, *arguments, "--output-junit", "junit.xml"]
    environment = {**environment, "KERNELS_STOP_FILE": stop}
    result = subprocess.run(command, env=environment, stdout=log, stderr=subprocess.STDOUT, check=False)
    entries = ctest_junit.read(junit) if os.path.exists(junit) else []
    properties = entry_properties(folder, arguments)
    timeouts = entry_timeouts(folder, arguments, timeout, properties)
    gpu_entries = {name for name, given in properties.items() if "gpu" in given.get("LABELS", [])}
    return ctest_junit.judge(result.returncode, entries, timeouts, gpu_entries), entries
