"""Runs ctest over the normal build against a mutant's library, and judges the run from the
JUnit file it writes (ctest_junit.py).

Every run goes through a folder of its own whose CTestTestfile.cmake names the build
(`subdirs(<build>)`): the run's Testing/, its JUnit file and the failure lists of its tests
(KCHECK_FAILURES_DIR) stay there, the build's Testing/ is not touched, and runs side by side (the
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


def entry_timeouts(folder, arguments, default_timeout=None):
    """{entry name: TIMEOUT in seconds} of the entries `arguments` select, from ctest's own listing;
    entries without the property get `default_timeout` (ctest's --timeout), if any."""
    listing = subprocess.run(
        ["ctest", "--test-dir", folder, "--show-only=json-v1", *arguments],
        capture_output=True,
        text=True,
        check=False,
    )
    if listing.returncode != 0:
        return {}
    timeouts = {}
    for test in json.loads(listing.stdout).get("tests", []):
        given = {p["name"]: p["value"] for p in test.get("properties", [])}.get("TIMEOUT", default_timeout)
        if given:
            timeouts[test["name"]] = float(given)
    return timeouts


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
    verdict = ctest_junit.judge(result.returncode, entries, entry_timeouts(folder, arguments, timeout))
    return verdict, entries
