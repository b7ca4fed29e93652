#!/usr/bin/env python3
"""The suite's own timing: how long the presets take on a GPU machine, against their targets.

    bench/suite_timing.py --run gpu --run sanitize [--build-dir build] --out bench/results/suite-timing-<date>.md
    bench/suite_timing.py --junit gpu=junit-gpu.xml --junit sanitize=junit-sanitize.xml --out FILE

--run runs `ctest --preset <name> --output-junit` from the repository root (a GPU machine with
the build); --junit reads a JUnit file such a run wrote before. The Markdown it writes gives per
preset the wall time (ctest's own), the entries and their outcomes, the summed time of the
entries (what -j hides), the ten slowest entries, each variant's summed entry time (what
`ctest -L <family>/<variant>` costs on one core) and the targets met or not: the gpu preset in
60 s, sanitize in 150 s, one variant's GPU entries in 5 s.
"""

import argparse
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from dataclasses import dataclass

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TARGETS_S = {"gpu": 60, "sanitize": 150}
VARIANT_TARGET_S = 5
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


def variant_of(entry):
    """The variant label (family/name) an entry carries, or None."""
    for label in entry.labels:
        if label.startswith(FAMILIES):
            return label
    return None


def section(run):
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


def markdown(runs, about):
    lines = ["# Suite timing", "", about, ""]
    for run in runs:
        lines += section(run)
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", action="append", default=[], help="a ctest preset to run (gpu, sanitize)")
    parser.add_argument("--junit", action="append", default=[], help="PRESET=FILE: a JUnit file of an earlier run")
    parser.add_argument("--about", default="", help="a line on the machine and the tree")
    parser.add_argument("--out", required=True, help="the Markdown file to write")
    args = parser.parse_args(argv)
    runs = []
    for spec in args.junit:
        preset, _, path = spec.partition("=")
        if not path:
            parser.error(f"--junit {spec}: expected PRESET=FILE")
        runs.append(read_junit(preset, path))
    out_dir = os.path.dirname(os.path.abspath(args.out))
    for preset in args.run:
        runs.append(run_preset(preset, out_dir))
    if not runs:
        parser.error("nothing to report: give --run or --junit")
    with open(args.out, "w", encoding="utf-8") as file:
        file.write(markdown(runs, args.about))
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
