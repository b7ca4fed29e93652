"""run_mutants.py --catalogue: each planted bug of catalogue/ judged, its kill reproduced (docs/mutation.md)."""

import itertools
import os
import re
import shutil
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import ctest_junit
import ctest_runs
import report
from generate import Mutant
from mutant_builds import prepared_slots
from python_deps import ROOT
from results_file import AnotherCampaign, ResultsFile, current_commit, earlier_run, mutant_record, result_record, suite_digest

MODE = "catalogue"
TEST_TIMEOUT_S = 120  # each entry's limit unless its TIMEOUT says otherwise
RERUN_TIMEOUT_S = 300  # an entry rerun alone
KCHECK_RUN_TIMEOUT_S = 600
SANITIZER_TIMEOUT_S = 300  # as a sanitizer entry's TIMEOUT (cmake/KernelsTesting.cmake)
TEST_JOBS = 16
NOT_RUN = ctest_junit.Verdict(ctest_junit.NOT_RUN)
ROW = "{:<36} {:<44} {:>5}  {:<28} {}"  # a line of the run's table
FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "catalogue")
SANITIZERS = ("memcheck", "racecheck", "synccheck", "initcheck")
REQUIRED = ("Mutant", "Variant", "Bug")
_NEW_FILE = re.compile(r"^\+\+\+ b/(\S+)", re.MULTILINE)
_FIRST_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)", re.MULTILINE)


@dataclass(frozen=True)
class PlantedBug:
    name: str
    variant: str
    bug: str
    sanitizer: str  # empty when the patch names none
    sanitize_with: tuple  # kcheck arguments after the variant
    text: str  # the whole patch, header included

    def mutant(self):
        """As a Mutant, for the builds and the report: its id is its name, its class `catalogue`."""
        file, hunk = _NEW_FILE.search(self.text), _FIRST_HUNK.search(self.text)
        line, path = int(hunk.group(1)) if hunk else 0, file.group(1) if file else ""
        return Mutant(self.name, path, line, "planted", "catalogue", (self.variant,), self.text)


def parse(name, text):
    """The planted bug of catalogue/<name>.patch; ValueError names what is wrong with its header."""
    header = itertools.takewhile(str.strip, text.splitlines())  # the lines before the first empty one
    fields = {name: value.strip() for name, colon, value in (line.partition(": ") for line in header) if colon}
    missing = [field for field in REQUIRED if not fields.get(field)]
    if missing:
        raise ValueError(f"{name}.patch: no {', '.join(missing)} header")
    if fields["Mutant"] != name:
        raise ValueError(f"{name}.patch: its Mutant header says {fields['Mutant']!r}")
    if ("Sanitizer" in fields) != ("Sanitize-with" in fields):
        raise ValueError(f"{name}.patch: a Sanitizer needs its Sanitize-with case, and a case its tool")
    if fields.get("Sanitizer", SANITIZERS[0]) not in SANITIZERS:
        raise ValueError(f"{name}.patch: unknown sanitizer {fields['Sanitizer']!r}")
    sanitize_with = tuple(fields.get("Sanitize-with", "").split())
    return PlantedBug(name, fields["Variant"], fields["Bug"], fields.get("Sanitizer", ""), sanitize_with, text)


def names(folder=FOLDER):
    return sorted(entry[: -len(".patch")] for entry in os.listdir(folder) if entry.endswith(".patch"))


def load(wanted=None, folder=FOLDER):
    """The planted bugs named in `wanted` (all of them when empty), in name order."""
    known = names(folder)
    unknown = sorted(set(wanted or ()) - set(known))
    if unknown:
        raise ValueError(f"not in the catalogue ({folder}): {', '.join(unknown)}")
    return [parse(name, Path(folder, f"{name}.patch").read_text(encoding="utf-8")) for name in sorted(set(wanted or known))]


def build(bug, work, slot):
    """Builds <work>/<name>/libkernels.so in `slot`; whether it compiled."""
    log = os.path.join(work, f"build-{bug.name}.log")
    compiled = slot.build(bug.text, os.path.join(work, bug.name, "libkernels.so"), log)
    print(f"built mutant {bug.name}" if compiled else f"mutant {bug.name} does not compile (see {log})", flush=True)
    return compiled


def build_all(bugs, work):
    """Builds the libraries not built yet: the slots side by side, each its share of them in turn."""
    todo = [bug for bug in bugs if not os.path.isfile(os.path.join(work, bug.name, "libkernels.so"))]
    slots = prepared_slots(work, ROOT, len(todo)) if todo else []
    shares = [todo[index :: len(slots)] for index in range(len(slots))]
    with ThreadPoolExecutor(max(1, len(slots))) as pool:
        return all(pool.map(lambda slot, share: all([build(bug, work, slot) for bug in share]), slots, shares))


def run_tests(bug, build_dir, library_dir, log):
    """The variant's entries against the mutant: (verdict, entries, run folder)."""
    folder = os.path.join(library_dir, "ctest")
    ctest_runs.prepare_folder(build_dir, folder)
    shutil.rmtree(os.path.join(library_dir, "failures"), ignore_errors=True)
    arguments = ["-L", f"^{re.escape(bug.variant)}$", "-LE", "sanitize|mutation", "-j", str(TEST_JOBS), "--stop-on-failure"]
    verdict, entries = ctest_runs.run(folder, arguments, _environment(library_dir), log, TEST_TIMEOUT_S)
    return verdict, entries, folder


def _environment(library_dir):
    return ctest_runs.mutant_environment(library_dir, {"KERNELS_FAILURES_DIR": os.path.join(library_dir, "failures")})


def exit_status(command, environment, log, timeout):
    """The exit status of `command`, its output in `log`; 124 (as timeout(1)) past `timeout` s."""
    log.flush()
    # A session of its own, ended whole: compute-sanitizer's target outlives the tool killed alone.
    process = subprocess.Popen(command, env=environment, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124
    finally:
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def reproduction(entries, folder, build_dir, library_dir, log):
    """(exit status, how) of the reproduction of a kill: 1 when it reproduces."""
    rerun = ctest_junit.first_rerun_line(entries)
    if rerun:
        entry, arguments = rerun
        log.write(f"== reproducing ({entry}): kcheck {arguments}\n")
        command = [os.path.join(build_dir, "kcheck"), *arguments.split()]
        status = exit_status(command, ctest_runs.library_environment(library_dir), log, KCHECK_RUN_TIMEOUT_S)
        return status, f"kcheck: exit {status}"
    first = ctest_junit.failed(entries)[0].name
    log.write(f"== reproducing: {first} alone\n")
    verdict, _ = ctest_runs.run(folder, ["-R", f"^{re.escape(first)}$"], _environment(library_dir), log, RERUN_TIMEOUT_S)
    fails = verdict.outcome in ctest_junit.KILLS
    return (1 if fails else 0), f"no rerun line; entry: {'fails' if fails else 'passes'}"


def judge(bug, build_dir, library_dir, log):
    """(verdict, stage, how the kill was reproduced) of one mutant whose library is built."""
    verdict, entries, folder = run_tests(bug, build_dir, library_dir, log)
    if verdict.outcome == ctest_junit.SURVIVED and bug.sanitizer:
        log.write(f"== {bug.sanitizer}: kcheck {bug.variant} {' '.join(bug.sanitize_with)}\n")
        command = [os.path.join(ROOT, "test", "runtime", "sanitize.sh"), bug.sanitizer, os.path.join(build_dir, "kcheck")]
        environment = ctest_runs.library_environment(library_dir)
        status = exit_status([*command, bug.variant, *bug.sanitize_with], environment, log, SANITIZER_TIMEOUT_S)
        if status == 1:  # the sanitizer saw the bug on the patch's kcheck case
            killed = ctest_junit.Verdict(ctest_junit.KILLED, (f"compute-sanitizer --tool {bug.sanitizer}",))
            return killed, "sanitizer", "sanitizer kcheck: exit 1"
        why = f"sanitizer timed out after {SANITIZER_TIMEOUT_S} s" if status == 124 else f"its sanitizer case exited {status}"
        return (verdict if status == 0 else ctest_junit.Verdict(ctest_junit.ERROR, (why,))), "sanitizer", "-"
    if verdict.outcome not in ctest_junit.KILLS:
        return verdict, "tests", "-"
    status, how = reproduction(entries, folder, build_dir, library_dir, log)
    return verdict, "tests", how if status == 1 else f"{report.NOT_REPRODUCED} ({how})"


def main(wanted, work, build_dir, build_only):
    """Builds (build_only) or judges the catalogue mutants named in `wanted` (all if none)."""
    bugs = load(wanted)
    status, why = (0, "") if build_only else ctest_runs.gpu_probe(build_dir)
    if status != 0:  # the probe's rule: 77 no GPU (ctest's Skipped), else a GPU lost or one required
        print(f"SKIP: no GPU to judge on ({why})" if status == 77 else f"FAIL: {why}")
        return 77 if status == 77 else 1
    os.makedirs(work, exist_ok=True)
    compiled = build_all(bugs, work)
    if build_only:
        return 0 if compiled else 1
    everyone, asked = [bug.mutant() for bug in load()], {bug.name for bug in bugs}
    path, suite = os.path.join(work, "results.json"), suite_digest()
    try:  # the other mutants' last results, so that one-mutant runs add up to one report
        kept, runs = earlier_run(path, suite, MODE, {m.id for m in everyone} - asked)
    except AnotherCampaign:
        kept, runs = [], []
    judged = {r["mutant"] for r in kept} | asked
    kept += [result_record(m.id, m.variants[0], NOT_RUN) for m in everyone if m.id not in judged]
    meta = {"commit": current_commit(), "suite": suite, "mode": MODE, "budget_s": None}
    results_file = ResultsFile(path, meta, [mutant_record(m) for m in everyone], kept, runs)
    new_results, lost = [], None
    print(ROW.format("mutant", "variant", "seconds", "reproduced", "killed by"), flush=True)
    for bug in bugs:
        started, library_dir = time.monotonic(), os.path.join(work, bug.name)
        if lost:  # nothing is judged after a lost GPU
            verdict, stage, how = NOT_RUN, "", "-"
        elif os.path.isfile(os.path.join(library_dir, "libkernels.so")):
            with open(os.path.join(work, f"{bug.name}.log"), "w", encoding="utf-8") as log:
                verdict, stage, how = judge(bug, build_dir, library_dir, log)
            checked = ctest_runs.after_gpu_check(verdict, build_dir)
            verdict, how = (verdict, how) if checked is verdict else (checked, "-")
        else:
            verdict, stage, how = ctest_junit.Verdict(ctest_junit.NOT_COMPILING), "build", "-"
        if ctest_junit.gpu_lost(verdict):
            lost = f"{bug.name} [{bug.variant}]: error: {'; '.join(verdict.killed_by)}"
        seconds = time.monotonic() - started
        new_results.append(result_record(bug.name, bug.variant, verdict, stage, seconds, reproduced=how))
        results = results_file.write(new_results)
        by = " ".join(verdict.killed_by) if verdict.outcome in ctest_junit.KILLS else verdict.outcome.upper()
        by += f": {'; '.join(verdict.killed_by)}" if verdict.outcome == ctest_junit.ERROR else ""
        print(ROW.format(bug.name, bug.variant, f"{seconds:.0f}", how, by), flush=True)
    outputs = report.write_report(results, os.path.join(work, "report"), triaged=False)  # planted bugs: never triaged
    killed = [r for r in new_results if r["outcome"] in ctest_junit.KILLS]
    reproduced = [r for r in killed if not r["reproduced"].startswith(report.NOT_REPRODUCED)]
    print(f"killed {len(killed)} of {len(bugs)} mutants; {len(reproduced)} of the {len(killed)} kills reproduced; "
          f"report: {', '.join(outputs)}")  # fmt: skip
    if lost:
        print(f"the GPU was lost: {lost}; the run stopped there (the rest is not run)", flush=True)
        return 1
    return 0 if len(killed) == len(bugs) and len(reproduced) == len(killed) else 1
