"""Runs ctest over the normal build against a mutant's library, and judges the run from the
JUnit file it writes (ctest_junit.py).

Every run goes through a folder of its own whose CTestTestfile.cmake names the build
(`subdirs(<build>)`): the run's Testing/, its JUnit file and the failure lists of its tests
(KERNELS_FAILURES_DIR) stay there, the build's Testing/ is not touched, and runs side by side (the
lanes of a campaign) do not write over each other's.
"""

import json
import os
import shutil
import subprocess

import ctest_junit

# A kill needs one failure: each test process stops at its first failed assertion (a breakpoint
# trap), and RapidCheck reports its counterexample unshrunk (shrinking a 300000-element input
# costs minutes of GPU calls). A run that hangs ends its process after the hang watchdog's
# allowance for its length (5 s for a short run under the default KERNELS_HANG_TIMEOUT_S), in the
# tests and the kcheck reruns alike.
KILL_ENVIRONMENT = {"GTEST_BREAK_ON_FAILURE": "1", "RC_PARAMS": "noshrink=1"}
# Without the build's MPS daemon (cmake/KernelsTesting.cmake): the lanes of a campaign run ctest
# side by side over one build, and each run would start and stop the same daemon under the
# others; and through it a mutant that faults or hangs would end the contexts of every process
# on the GPU, whose reruns without MPS would then only cost time.
NATIVE_ENVIRONMENT = {"KERNELS_USE_MPS": "0"}


def library_environment(library_dir):
    """The environment of a run against the libkernels.so in `library_dir` (kcheck, a sanitizer)."""
    return {
        **os.environ,
        "LD_LIBRARY_PATH": ":".join(filter(None, [library_dir, os.environ.get("LD_LIBRARY_PATH")])),
    }


def mutant_environment(library_dir, extra=None):
    """The environment of the tests' run against the libkernels.so in `library_dir`."""
    return {**library_environment(library_dir), **KILL_ENVIRONMENT, **NATIVE_ENVIRONMENT, **(extra or {})}


def prepare_folder(build_dir, folder):
    """An empty run folder that reads the build's tests."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    with open(os.path.join(folder, "CTestTestfile.cmake"), "w", encoding="utf-8") as file:
        file.write(f'subdirs("{build_dir}")\n')


def entry_properties(folder, arguments):
    """{entry name: {property: value}} of the entries `arguments` select, from ctest's own listing."""
    listing = subprocess.run(
        ["ctest", "--test-dir", folder, "--show-only=json-v1", *arguments],
        capture_output=True,
        text=True,
        check=False,
    )
    if listing.returncode != 0:
        return {}
    tests = json.loads(listing.stdout).get("tests", [])
    return {test["name"]: {p["name"]: p["value"] for p in test.get("properties", [])} for test in tests}


def entry_timeouts(folder, arguments, default_timeout=None, properties=None):
    """{entry name: TIMEOUT in seconds} of the entries `arguments` select (or of `properties`,
    entry_properties); entries without the property get `default_timeout` (ctest's --timeout), if any."""
    properties = entry_properties(folder, arguments) if properties is None else properties
    timeouts = {name: given.get("TIMEOUT", default_timeout) for name, given in properties.items()}
    return {name: float(timeout) for name, timeout in timeouts.items() if timeout}


def gpu_entries(properties):
    """The names of the entries labelled gpu, of entry_properties."""
    return {name for name, given in properties.items() if "gpu" in given.get("LABELS", [])}


def gpu_probe_failure(build_dir):
    """Why the build's GPU probe (cmake/gpu_probe.cpp, as catalogue_entry.sh runs it) reaches no
    GPU now, or None when it does. No probe is a failure: a campaign must not judge unchecked."""
    probe = os.path.join(build_dir, "test", "mutation", "gpu_probe")
    try:
        done = subprocess.run([probe], capture_output=True, text=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"gpu_probe: {error}"
    return None if done.returncode == 0 else f"gpu_probe: {done.stdout.strip() or f'exit {done.returncode}'}"


def after_gpu_check(verdict, build_dir):
    """`verdict` of a run on the GPU, or GPU lost when the GPU probe cannot reach the GPU now: a
    kill or a survival the lost GPU made is no verdict."""
    if verdict.outcome not in (ctest_junit.KILLED, ctest_junit.KILLED_BY_TIMEOUT, ctest_junit.SURVIVED):
        return verdict
    failure = gpu_probe_failure(build_dir)
    if failure is None:
        return verdict
    return ctest_junit.Verdict(ctest_junit.ERROR, (f"{ctest_junit.GPU_LOST}: {failure}",))


def run(folder, arguments, environment, log, timeout=None):
    """One ctest over the entries `arguments` select, from `folder` (prepare_folder), with
    --timeout `timeout` if given; its output goes to the open file `log`. Returns (verdict,
    entries). The entries stop at the run's first failure (KERNELS_STOP_FILE, a file of the
    folder): a kill needs one, and the entries that do not see the mutant would otherwise run to
    their end."""
    arguments = [*arguments, *(["--timeout", str(timeout)] if timeout else [])]
    junit, stop = os.path.join(folder, "junit.xml"), os.path.join(folder, "stop")
    for stale in (junit, stop):
        if os.path.exists(stale):
            os.remove(stale)
    environment = {**environment, "KERNELS_STOP_FILE": stop}
    log.flush()
    result = subprocess.run(
        ["ctest", "--test-dir", folder, *arguments, "--output-junit", "junit.xml"],
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
        check=False,
    )
    entries = ctest_junit.read(junit) if os.path.exists(junit) else []
    properties = entry_properties(folder, arguments)
    timeouts = entry_timeouts(folder, arguments, timeout, properties)
    verdict = ctest_junit.judge(result.returncode, entries, timeouts, gpu_entries(properties))
    return verdict, entries
