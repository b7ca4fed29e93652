#!/usr/bin/env python3
"""Where a ctest selection's device time goes: each kernel file's kernels, the copies and the
memsets, summed over every test process.

    bench/gpu_time.py --ctest "--preset gpu" --out gpu-time.md [--build-dir build]
    bench/gpu_time.py --from DIR --out gpu-time.md

--ctest runs ctest (from the repository root, with the given arguments) with the build's
libgpu_time_injection.so (bench/gpu_time_injection.cpp, built where the CUDA toolkit has
CUPTI) as CUDA_INJECTION64_PATH; each test process writes <pid>.tsv into a scratch folder.
--from sums such files written before. A kernel is named by the source file of its anonymous
namespace (odd_even_multi_block.cu; the harness's own kernels as "harness <file>"), CUB's
kernels together, any other by its name; with KERNELS_GPU_TIME_BY_GRID=1 in the environment each
also by its grid's size class (bench/gpu_time_injection.cpp). Device time
runs from a record's start to its end: where test processes take turns on one GPU it includes
the others' turns, so the shares mean more than the sums. The union of each process's
records counts no time twice within a process: with one test process at a time (ctest -j1)
their sum is the GPU time the selection needs.
"""

import argparse
import collections
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# _GLOBAL__N__<hash>_<length>_<file stem>_cu_<hash>: an anonymous namespace of <file stem>.cu
SOURCE_FILE = re.compile(r"_GLOBAL__N__[0-9a-f]+_\d+_(\w+?)_cu_[0-9a-f]+")


# The injection library's line of each process's union of records (no record counted twice).
BUSY = "busy"
GRID_CLASS = re.compile(r" \[[^\]]*blocks?\]$")


def group_of(name):
    """The line a record is summed into (a grid's size class, where recorded, kept)."""
    if not name.startswith("kernel "):
        return name
    grid = GRID_CLASS.search(name)
    suffix = grid.group(0) if grid else ""
    mangled = name[len("kernel "):len(name) - len(suffix)]
    found = SOURCE_FILE.search(mangled)
    owner = "harness " if mangled.startswith("_ZN7harness") else ""
    if found:
        return f"kernel {owner}{found.group(1)}.cu{suffix}"
    if mangled.startswith("_ZN3cub"):
        return f"kernel cub{suffix}"
    return name


def read_totals(folder):
    """{line: [records, nanoseconds]} over the .tsv files in `folder`, the summed nanoseconds of
    their busy lines (each process's union of records), and how many files."""
    totals = collections.defaultdict(lambda: [0, 0])
    busy = 0
    files = sorted(glob.glob(os.path.join(folder, "*.tsv")))
    for path in files:
        with open(path, encoding="utf-8") as file:
            for line in file:
                name, count, nanoseconds = line.rstrip("\n").rsplit("\t", 2)
                if name == BUSY:
                    busy += int(nanoseconds)
                    continue
                entry = totals[group_of(name)]
                entry[0] += int(count)
                entry[1] += int(nanoseconds)
    return totals, busy, len(files)


def markdown(totals, busy, processes, top, about):
    everything = sum(ns for _, ns in totals.values())
    lines = ["# Device time by kernel file", ""]
    if about:
        lines += [about, ""]
    lines += [f"{processes} test processes, {everything / 1e9:.1f} s of device time in all; "
              f"the union of each process's records {busy / 1e9:.1f} s.", "",
              "| what | records | seconds | share |", "| --- | --- | --- | --- |"]
    ranked = sorted(totals.items(), key=lambda item: -item[1][1])
    for name, (count, nanoseconds) in ranked[:top]:
        share = 100 * nanoseconds / everything if everything else 0
        lines.append(f"| {name} | {count} | {nanoseconds / 1e9:.2f} | {share:.1f} % |")
    if len(ranked) > top:
        rest = sum(ns for _, (_, ns) in ranked[top:])
        lines.append(f"| {len(ranked) - top} others | | {rest / 1e9:.2f} | {100 * rest / everything:.1f} % |")
    return "\n".join(lines) + "\n"


def run_ctest(arguments, build_dir, folder):
    library = os.path.join(build_dir, "bench", "libgpu_time_injection.so")
    if not os.path.isfile(library):
        sys.exit(f"no {library}: the build has no CUPTI (bench/CMakeLists.txt builds it where the toolkit has it)")
    environment = {**os.environ, "CUDA_INJECTION64_PATH": library, "KERNELS_GPU_TIME_OUT": folder}
    return subprocess.run(["ctest", *shlex.split(arguments)], cwd=ROOT, env=environment, check=False).returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--ctest", help="the arguments of the ctest run to measure, one string")
    source.add_argument("--from", dest="folder", help="a folder of <pid>.tsv files written before")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--top", type=int, default=25, help="lines before the rest is summed")
    parser.add_argument("--about", default="", help="a line on the machine and the tree")
    parser.add_argument("--out", required=True, help="the Markdown file to write")
    args = parser.parse_args()
    status = 0
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.folder
        if args.ctest is not None:
            folder = scratch
            status = run_ctest(args.ctest, os.path.abspath(args.build_dir), folder)
        totals, busy, processes = read_totals(folder)
    if processes == 0:
        sys.exit(f"no <pid>.tsv in {folder}: nothing ran under the injection library")
    with open(args.out, "w", encoding="utf-8") as file:
        file.write(markdown(totals, busy, processes, args.top, args.about))
    print(f"wrote {args.out} ({processes} processes); ctest exit {status}")
    return status


if __name__ == "__main__":
    sys.exit(main())
