#!/usr/bin/env python3
"""The suite's own timing: how long the presets take on a GPU machine, against their targets.

    bench/suite_timing.py --run gpu --run sanitize [--build-dir build] --out bench/results/suite-timing.md
    bench/suite_timing.py --junit gpu=junit-gpu.xml --junit sanitize=junit-sanitize.xml --out FILE

--run runs `ctest --preset <name> --output-junit` from the repository root (a GPU machine with
the build); --junit reads a JUnit file such a run wrote before. The Markdown it writes gives per
preset the wall time (ctest's own), the entries and their outcomes, the summed time of the
entries (what -j hides), the ten slowest entries, each variant's summed entry time (what
`ctest -L <family>/<variant>` costs on one core) and the targets met or not: the gpu preset in
60 s, sanitize in 150 s, one variant's GPU entries in 5 s. Where --build-dir lists the entries and
a resource specification, the slot-seconds the GPU entries held (seconds times slots) over the
build's slots: the least wall with every slot busy, which a run near it cannot beat by starting
processes faster.

    bench/suite_timing.py --failure-path onesweep_skips_top_digit=sort.radix_onesweep ...

--failure-path MUTANT=ENTRY times the failure path: ENTRY's command, as a developer runs it (no
stop at the first failure), against the library of the catalogue mutant MUTANT
(<mutants>/MUTANT/libkernels.so, $KERNELS_MUTANTS_DIR or build-mutants, which
`ci/mutation/run_mutants.py --catalogue MUTANT --build-only` makes): when its first failure was
printed (target 10 s), when it ended (target 30 s), and the summaries it printed; a sanitizer
entry's targets are its usual time when it passes (test/entry_seconds.txt) where that is longer.
ENTRY runs with the variables its ctest entry sets (a shard's GTEST_SHARD_INDEX).

    bench/suite_timing.py --junit gpu=junit-gpu.xml --junit sanitize=junit-sanitize.xml \
        --costs-out test/entry_seconds.txt --out FILE

    KERNELS_PHASE_TIMES=1 ctest --preset gpu
    bench/suite_timing.py --phases gpu=build/Testing/Temporary/LastTest.log --out FILE

--phases PRESET=LOG reads the line each GPU test process printed at exit under
KERNELS_PHASE_TIMES=1 (test/harness/session/phase_clock.hpp) from ctest's log of the run, and adds
a table of where the processes' time went: per kind of entry (a family's entries of every type, its
properties, its large tests), the summed seconds of each step of the batch runner, the rest, and
the processes' wall and CPU time.

--costs-out also writes each GPU entry's measured seconds, which become the entries' ctest COST
(cmake/KernelsTesting.cmake): ctest starts the longest first, even in a fresh build folder that
has no cost data of its own.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from dataclasses import dataclass

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TARGETS_S = {"gpu": 60, "sanitize": 150}
VARIANT_TARGET_S = 5
FIRST_FAILURE_TARGET_S, FAILED_ENTRY_TARGET_S = 10, 30
FAMILIES = ("reduce/", "scan/", "sort/")


@dataclass(frozen=True)
class Entry:
    name: str
    status: str  # run, fail, notrun, disabled (ctest's JUnit)
    seconds: float
    labels: tuple


@dataclass(frozen=True)
class PresetRun:
    preset: str
    wall_s: float
    entries: tuple


def read_junit(preset, path):
    """The entries of a ctest JUnit file and the run's wall time (its testsuite's time)."""
    root = ElementTree.parse(path).getroot()
    entries = []
    for case in root.iter("testcase"):
        labels = ()
        for prop in case.iter("property"):
            if prop.get("name") == "cmake_labels":
                labels = tuple(label for label in prop.get("value", "").split(";") if label)
        entries.append(Entry(case.get("name"), case.get("status"), float(case.get("time") or 0), labels))
    return PresetRun(preset, float(root.get("time") or 0), tuple(entries))


def run_preset(preset, out_dir):
    """Runs ctest --preset <preset> from the repository root; its JUnit file goes to out_dir."""
    junit = os.path.join(out_dir, f"junit-{preset}.xml")
    start = time.monotonic()
    subprocess.run(["ctest", "--preset", preset, "--output-junit", junit], cwd=ROOT, check=False)
    run = read_junit(preset, junit)
    return PresetRun(preset, run.wall_s or time.monotonic() - start, run.entries)


@dataclass(frozen=True)
class FailurePath:
    mutant: str
    entry: str
    exit_code: int
    first_failure_s: float  # None when nothing failed
    ended_s: float
    summaries: tuple
    # The targets: 10 and 30 s, or a sanitizer entry's usual time when it passes, if longer.
    first_failure_target_s: float = FIRST_FAILURE_TARGET_S
    ended_target_s: float = FAILED_ENTRY_TARGET_S


@dataclass(frozen=True)
class EntryRun:
    command: list
    variables: dict
    setups: list  # the commands of the fixtures' setup entries ctest runs before it (the MPS daemon's)
    cleanups: list  # and of their cleanup entries, after it


def ctest_tests(build_dir, *arguments):
    """The build's entries as ctest lists them (--show-only=json-v1), narrowed by `arguments`."""
    listing = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1", *arguments],
                             capture_output=True, text=True, check=True)
    return json.loads(listing.stdout).get("tests", [])


def entry_run(build_dir, entry):
    """How ctest runs the entry, from its own listing: its command, the variables it sets for it
    (ENVIRONMENT, and ENVIRONMENT_MODIFICATION's set: operations, as a sharded entry's), and the
    entries of the fixtures it requires."""
    tests = ctest_tests(build_dir, "-R", f"^{re.escape(entry)}$")
    named = [test for test in tests if test["name"] == entry]
    if len(named) != 1:
        raise SystemExit(f"--failure-path: no ctest entry named {entry} in {build_dir}")
    roles = {test["name"]: {p["name"] for p in test.get("properties", [])} for test in tests}
    setups = [test["command"] for test in tests if "FIXTURES_SETUP" in roles[test["name"]]]
    cleanups = [test["command"] for test in tests if "FIXTURES_CLEANUP" in roles[test["name"]]]
    variables = {}
    for prop in named[0].get("properties", []):
        if prop["name"] == "ENVIRONMENT":
            variables.update(item.partition("=")[::2] for item in prop["value"])
        elif prop["name"] == "ENVIRONMENT_MODIFICATION":
            for item in prop["value"]:
                name, _, change = item.partition("=")
                operation, _, value = change.partition(":")
                if operation != "set":
                    raise SystemExit(f"--failure-path: {entry} changes {name} by {operation}, which this script "
                                     "does not apply")
                variables[name] = value
    return EntryRun(named[0]["command"], variables, setups, cleanups)


# What a failing entry prints first: a gtest failure, a failing case's FAIL line, or the hang
# watchdog's report (test/harness/diagnosis/hang_watchdog.hpp), which comes at its deadline.
FAILURE_MARKS = (": Failure", "FAIL ", "HANG: ")


def is_failure_line(line):
    return line.startswith(FAILURE_MARKS[1:]) or FAILURE_MARKS[0] in line


class PrintedSummaries:
    """What a failing entry printed that says what failed: its tests' bulk summaries, and the hang
    watchdog's report with the FAIL and rerun lines that follow it."""

    def __init__(self):
        self.lines = []
        self._report_lines_left = 0

    def add(self, line):
        text = line.rstrip()
        if text.startswith(FAILURE_MARKS[2]):
            self.lines.append(text)
            self._report_lines_left = 2
        elif self._report_lines_left and text:
            self.lines.append(text)
            self._report_lines_left -= 1
        elif "cases failed" in text or text.startswith("failed at "):
            self.lines.append(text.strip().removeprefix("Actual: false ("))


def time_failure_path(spec, build_dir):
    """Runs ENTRY of MUTANT=ENTRY against the mutant's library, timing its output lines."""
    mutant, _, entry = spec.partition("=")
    library_dir = os.path.join(os.environ.get("KERNELS_MUTANTS_DIR", os.path.join(ROOT, "build-mutants")), mutant)
    if not entry or not os.path.isfile(os.path.join(library_dir, "libkernels.so")):
        raise SystemExit(f"--failure-path {spec}: expected MUTANT=ENTRY and {library_dir}/libkernels.so "
                         f"(ci/mutation/run_mutants.py --catalogue {mutant} --build-only makes it)")
    run = entry_run(build_dir, entry)
    environment = {**os.environ, **run.variables, "KERNELS_REQUIRE_GPU": "1",
                   "LD_LIBRARY_PATH": ":".join(filter(None, [library_dir, os.environ.get("LD_LIBRARY_PATH")]))}
    for setup in run.setups:
        subprocess.run(setup, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, check=False)
    start = time.monotonic()
    first_failure, summaries = None, PrintedSummaries()
    with subprocess.Popen(run.command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          env=environment, text=True, errors="replace") as process:
        for line in process.stdout:
            if first_failure is None and is_failure_line(line):
                first_failure = time.monotonic() - start
            summaries.add(line)
        exit_code = process.wait()
    ended = time.monotonic() - start
    for cleanup in run.cleanups:
        subprocess.run(cleanup, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, check=False)
    usual = passing_seconds(entry) if entry.startswith("sanitize.") else 0.0
    return FailurePath(mutant, entry, exit_code, first_failure, ended, tuple(summaries.lines),
                       max(FIRST_FAILURE_TARGET_S, usual), max(FAILED_ENTRY_TARGET_S, usual))


def passing_seconds(entry):
    """The entry's measured seconds when it passes (test/entry_seconds.txt), or 0."""
    with open(os.path.join(ROOT, "test", "entry_seconds.txt"), encoding="utf-8") as file:
        for line in file:
            name, _, seconds = line.strip().rpartition(" ")
            if name == entry:
                return float(seconds)
    return 0.0


def failure_section(path):
    if path.first_failure_s is None and path.exit_code == 0:
        return ["## Failure path", "", f"{path.entry} against `{path.mutant}`: nothing failed (exit "
                f"{path.exit_code}) in {path.ended_s:.1f} s: the mutant is not killed.", ""]
    if path.first_failure_s is None:
        return ["## Failure path", "", f"{path.entry} against `{path.mutant}`: exit {path.exit_code} after "
                f"{path.ended_s:.1f} s without a failure line (target {path.first_failure_target_s:g} s, not met): a "
                "crash or an abort, which the entry should have reported as a failing case.", ""]
    first = "met" if path.first_failure_s <= path.first_failure_target_s else "not met"
    ended = "met" if path.ended_s <= path.ended_target_s else "not met"
    lines = [
        "## Failure path",
        "",
        f"{path.entry} against the catalogue mutant `{path.mutant}`, run as a developer runs it: first "
        f"failure printed after {path.first_failure_s:.1f} s (target {path.first_failure_target_s:g} s, {first}), "
        f"entry ended after {path.ended_s:.1f} s (target {path.ended_target_s:g} s, {ended}), exit {path.exit_code}. "
        "Its first summaries:",
        "",
    ]
    return lines + [f"    {summary}" for summary in path.summaries[:6]] + [""]


PHASE_LINE = re.compile(r"^phase seconds: (?P<steps>.*); wall (?P<wall>[\d.]+) cpu (?P<cpu>[\d.]+)$")
LOGGED_ENTRY = re.compile(r"^\d+/\d+ Test: (?P<name>\S+)$")


def entry_kind(name):
    """An entry's kind for the phase table: its family, then property, large or types."""
    family, _, rest = name.partition(".")
    kind = rest.partition(".")[0]
    return f"{family} {kind if kind in ('property', 'large') else 'types'}"


def read_phases(path):
    """{kind: {column: seconds}} summed over the phase lines of a ctest log (LastTest.log), each
    under the entry whose output it is; columns are the steps, other, wall, cpu and entries."""
    table = defaultdict(lambda: defaultdict(float))
    entry = None
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            line = line.rstrip("\n")
            if named := LOGGED_ENTRY.match(line):
                entry = named["name"]
            elif (phases := PHASE_LINE.match(line)) and entry is not None:
                row = table[entry_kind(entry)]
                words = phases["steps"].split()
                for step, seconds in zip(words[::2], words[1::2]):
                    row[step] += float(seconds)
                row["wall"] += float(phases["wall"])
                row["cpu"] += float(phases["cpu"])
                row["entries"] += 1
    return table


def phases_section(preset, table):
    if not table:
        return [f"## Where {preset}'s time went", "", "No phase lines in the log (run with KERNELS_PHASE_TIMES=1).", ""]
    columns = [column for column in next(iter(table.values())) if column not in ("wall", "cpu", "entries")]
    total = defaultdict(float)
    for row in table.values():
        for column, seconds in row.items():
            total[column] += seconds
    lines = [
        f"## Where {preset}'s time went",
        "",
        "Summed seconds of the GPU test processes, by step of the batch runner (KERNELS_PHASE_TIMES=1); "
        "start is each process's own until its first test (the device's context), other the rest of "
        "its time (RapidCheck's own work, the tests' own work, gtest); a property's device calls count "
        "by step, its inputs as generate, its checks as judge.",
        "",
        "| entries | count | " + " | ".join(columns) + " | wall | cpu |",
        "| --- " * (len(columns) + 4) + "|",
    ]
    for kind, row in sorted(table.items(), key=lambda item: -item[1]["wall"]) + [("all", total)]:
        cells = [f"{row[column]:.0f}" for column in columns + ["wall", "cpu"]]
        lines.append(f"| {kind} | {row['entries']:.0f} | " + " | ".join(cells) + " |")
    return lines + ["", context_share(total), ""]


def context_share(total):
    """The line that puts a number on start cost: the processes' starts (contexts) against their device calls."""
    wall, count = total["wall"], total["entries"]
    device = total["launch"] + total["wait"]
    return (f"Contexts: {count:.0f} processes spent {total['start']:.0f} s starting ({total['start'] / count:.2f} s each, "
            f"{100 * total['start'] / wall:.0f} % of their summed {wall:.0f} s), against {device:.0f} s in device calls "
            f"(launch and wait, {100 * device / wall:.0f} %).")


def variant_of(entry):
    """The variant label (family/name) an entry carries, or None."""
    for label in entry.labels:
        if label.startswith(FAMILIES):
            return label
    return None


@dataclass(frozen=True)
class Slots:
    of_entry: dict  # {entry: the GPU slots its RESOURCE_GROUPS take}
    capacity: int  # the slots of the build's resource specification, every GPU's


def read_slots(build_dir):
    """The build's entries' slots and its resource specification's (ctest's own listing), or None
    where the folder has no tests or no specification."""
    try:
        tests = ctest_tests(build_dir)
        with open(os.path.join(build_dir, "CTestTestfile.cmake"), encoding="utf-8") as file:
            spec = re.search(r'set\(CTEST_RESOURCE_SPEC_FILE "([^"]+)"\)', file.read())
        with open(spec[1], encoding="utf-8") as file:
            gpus = json.load(file)["local"][0]["gpus"]
    except (OSError, subprocess.CalledProcessError, TypeError, KeyError, IndexError, ValueError):
        return None
    of_entry = {}
    for test in tests:
        for prop in test.get("properties", []):
            if prop["name"] == "RESOURCE_GROUPS":
                of_entry[test["name"]] = sum(int(need["slots"]) for group in prop["value"]
                                             for need in group["requirements"] if need[".type"] == "gpus")
    return Slots(of_entry, sum(int(gpu["slots"]) for gpu in gpus))


def slot_line(run, slots):
    """What a run's GPU slots allow: its entries' seconds times the slots each held, over the
    build's slots, is the least wall with every slot busy; near the wall, the run is bound by the work
    its slots hold, and fewer or cheaper processes shorten it only by the time they hold slots."""
    held = sum(entry.seconds * slots.of_entry[entry.name] for entry in run.entries if entry.name in slots.of_entry)
    if not held or not slots.capacity:
        return None
    least = held / slots.capacity
    return (f"Slots: the GPU entries held {held:.0f} slot-seconds (each entry's seconds times its slots) of the "
            f"build's {slots.capacity}: at least {least:.1f} s with every slot busy, against a wall of "
            f"{run.wall_s:.1f} s ({100 * least / run.wall_s:.0f} %).")


def section(run, slots=None):
    entries = run.entries
    count = defaultdict(int)
    for entry in entries:
        count[entry.status] += 1
    summed = sum(entry.seconds for entry in entries)
    lines = [
        f"## {run.preset}",
        "",
        f"{len(entries)} entries: {count['run']} passed, {count['fail']} failed, {count['notrun']} not run or "
        f"skipped; wall {run.wall_s:.0f} s, entries' summed time {summed:.0f} s.",
    ]
    if run.preset in TARGETS_S:
        target = TARGETS_S[run.preset]
        verdict = "met" if run.wall_s <= target else f"not met ({run.wall_s / target:.1f}x)"
        lines.append(f"Target: {target} s, {verdict}.")
    if slots is not None and (line := slot_line(run, slots)):
        lines.append(line)
    lines += ["", "The ten slowest entries:", "", "| entry | seconds |", "| --- | --- |"]
    for entry in sorted(entries, key=lambda e: (-e.seconds, e.name))[:10]:
        lines.append(f"| {entry.name} | {entry.seconds:.1f} |")
    per_variant, longest = defaultdict(float), defaultdict(float)
    for entry in entries:
        variant = variant_of(entry)
        if variant is not None and "cpu" not in entry.labels:
            per_variant[variant] += entry.seconds
            longest[variant] = max(longest[variant], entry.seconds)
    if per_variant and run.preset == "gpu":
        over = sum(seconds > VARIANT_TARGET_S for seconds in per_variant.values())
        lines += [
            "",
            f"Each variant's GPU entries: summed (its time on one core; target {VARIANT_TARGET_S} s: "
            f"{len(per_variant) - over} of {len(per_variant)} variants within it) and the longest (its time "
            f"with a core per entry):",
            "",
            "| variant | summed seconds | longest entry |",
            "| --- | --- | --- |",
        ]
        for variant, seconds in sorted(per_variant.items(), key=lambda item: (-item[1], item[0])):
            lines.append(f"| {variant} | {seconds:.1f} | {longest[variant]:.1f} |")
    return lines + [""]


def costs_text(runs, about):
    """`<entry> <seconds>` per GPU entry that ran, longest first, under a header saying whence."""
    seconds = {}
    for run in runs:
        for entry in run.entries:
            if "gpu" in entry.labels and entry.status in ("run", "fail"):
                seconds[entry.name] = entry.seconds
    lines = [
        "# Seconds each GPU entry took, written by bench/suite_timing.py --costs-out: ctest's COST of",
        "# the entry (cmake/KernelsTesting.cmake), so that ctest starts the longest first. " + about,
    ]
    lines += [f"{name} {value:.1f}" for name, value in sorted(seconds.items(), key=lambda item: (-item[1], item[0]))]
    return "\n".join(lines) + "\n"


def markdown(runs, failure_paths, about, phases=(), slots=None):
    lines = ["# Suite timing", "", about, ""]
    for run in runs:
        lines += section(run, slots)
    for preset, table in phases:
        lines += phases_section(preset, table)
    for path in failure_paths:
        lines += failure_section(path)
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", action="append", default=[], help="a ctest preset to run (gpu, sanitize)")
    parser.add_argument("--junit", action="append", default=[], help="PRESET=FILE: a JUnit file of an earlier run")
    parser.add_argument("--failure-path", action="append", default=[], metavar="MUTANT=ENTRY",
                        help="time ENTRY against a catalogue mutant's library")
    parser.add_argument("--phases", action="append", default=[], metavar="PRESET=LOG",
                        help="ctest's log of a run under KERNELS_PHASE_TIMES=1: where its processes' time went")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"), help="the build the entries are in")
    parser.add_argument("--about", default="", help="a line on the machine and the tree")
    parser.add_argument("--out", required=True, help="the Markdown file to write")
    parser.add_argument("--costs-out", help="also write each GPU entry's seconds (ctest's COST) to this file")
    args = parser.parse_args(argv)

    def preset_and_path(option, spec):
        preset, _, path = spec.partition("=")
        if not path:
            parser.error(f"{option} {spec}: expected PRESET=FILE")
        return preset, path

    runs = [read_junit(*preset_and_path("--junit", spec)) for spec in args.junit]
    out_dir = os.path.dirname(os.path.abspath(args.out))
    for preset in args.run:
        runs.append(run_preset(preset, out_dir))
    failure_paths = [time_failure_path(spec, args.build_dir) for spec in args.failure_path]
    phases = []
    for spec in args.phases:
        preset, path = preset_and_path("--phases", spec)
        phases.append((preset, read_phases(path)))
    if not runs and not failure_paths and not phases:
        parser.error("nothing to report: give --run, --junit, --failure-path or --phases")
    with open(args.out, "w", encoding="utf-8") as file:
        slots = read_slots(args.build_dir) if runs else None
        file.write(markdown(runs, failure_paths, args.about, phases, slots))
    print(args.out)
    if args.costs_out:
        with open(args.costs_out, "w", encoding="utf-8") as file:
            file.write(costs_text(runs, args.about))
        print(args.costs_out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
