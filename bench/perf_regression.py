#!/usr/bin/env python3
"""Catches slowdowns: kernels_bench of a base revision (A) against the head's build (B), run
interleaved A1, B1, ..., A5, B5 and compared row by row by perf_compare.py (docs/benchmarks.md).

    perf_regression.py [--base REV | --base-build DIR] [--head-build build] [--rounds 5]
                       [--confirm-rounds 5] [--repetitions 5] [--rows touched|all] [--filter REGEX]
                       [--plant 'ROW_REGEX=FRACTION'] [--out build-perf/report] [--dry-run]

Base: REV (default $KERNELS_PERF_BASE, else the merge base of HEAD and origin/main, or of HEAD
and main) checked out detached into build-perf/base-src (git worktree), configured with the
head build's cache options into build-perf/base-build, target kernels_bench only; or
--base-build, a folder with bench/kernels_bench already built (made elsewhere and carried).

Rows: each variant and element type's sum rows at 2^10 (launch-bound), 2^20 and 2^28
(bandwidth-bound), or the variant's longest row where it stops earlier; rows both builds list.
--rows touched (the default) keeps the variants whose files (kernels/<family>/*.cu registering
them) changed against REV, when no other file the benchmark is built from changed (all rows
then, and with --base-build); --filter (a Google Benchmark filter) narrows them further.

Runs: each a process; perf_compare.py takes each run's median per row as a unit, since
processes differ more than one process's repetitions. --rounds 5 is the fewest for which the
U test can reach p < 0.01. --repetitions 5, as in the H100 study that measured the check
(bench/results/perf-regression/): a median of 5 is steady to ~2 % at 2^10, inside the ~9 % that
runs differ by, so more would lengthen runs for little. --plant sets KERNELS_BENCH_SLOWDOWN on the
head's runs only (the check's power); the variable is never passed from the environment.

Confirmation: with 5 runs a side, unchanged code reads SLOW whenever its 5 head runs all land
above its 5 base runs, 1 row in 252: over every row (324) a check would fail for nothing in
about one run in three. Rows read SLOW are timed again (--confirm-rounds fresh rounds, A6, B6,
..., of those rows only) and stay SLOW only where these read SLOW too (p < 0.05, the same
threshold); the others are reported "SLOW, not confirmed" and do not fail the check. In the H100 study's runs
(bench/results/perf-regression/table.md, "v2 confirmed") a 10 % slowdown at 2^28 was confirmed
in every check, and no unchanged row stayed SLOW.

Below the bar: a row read slower (perf_compare.py: 2 % to 5 %, p < 0.01, runs spread by at most twice that)
is timed again with the SLOW rows and stays slower only where the fresh rounds read slower too,
at p < 0.01 (all 5 fresh head runs above all 5 base runs); the others read SAME. A slower row is
in the table and the summary line and does not fail the check.

Writes table.md (the confirmation's table below the first), ratios.png and the runs' JSON and
logs (runs/) to --out. Exit status: 1 when a row is SLOW (confirmed), 2 on bad input (an unknown
revision, a missing binary, a failed build, run or row), 77 when kernels_bench finds no GPU,
else 0.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import perf_compare  # noqa: E402

SKIPPED, BAD_INPUT = 77, 2
# A variant file registers variants by name; another file kernels_bench is built from may move every row.
VARIANT_FILE = re.compile(r"^kernels/([a-z0-9_]+)/[^/]+\.cu$")
VARIANT_NAME = re.compile(r'\.name\s*=\s*"([^"]+)"')
BUILD_INPUT = re.compile(r"^(kernels/|test/harness/|cmake/|bench/[^/]+\.(cpp|hpp|cu|cuh)$)|(^|/)CMakeLists\.txt$")
LAUNCH_BOUND, MIDDLE, BANDWIDTH_BOUND = 1 << 10, 1 << 20, 1 << 28
PLANT_VARIABLE = "KERNELS_BENCH_SLOWDOWN"
# The head build's settings the base is configured with: what decides the code generated.
COPIED_CACHE_ENTRIES = ("CMAKE_BUILD_TYPE", "CMAKE_CUDA_ARCHITECTURES", "CMAKE_CUDA_COMPILER", "CMAKE_CXX_COMPILER",
                        "CMAKE_CUDA_HOST_COMPILER", "CMAKE_CUDA_FLAGS", "CMAKE_CXX_FLAGS", "CMAKE_EXE_LINKER_FLAGS",
                        "CMAKE_SHARED_LINKER_FLAGS")


class Stop(Exception):
    """Ends the check with `status` and a message."""

    def __init__(self, message, status=BAD_INPUT):
        super().__init__(message)
        self.status = status


def say(text):
    print(f"perf_regression: {text}", flush=True)


def bench_binary(build):
    path = os.path.join(build, "bench", "kernels_bench")
    if not os.access(path, os.X_OK):
        raise Stop(f"{path}: no kernels_bench there (build the target kernels_bench)")
    return path


def git(*args):
    return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True, check=False)


def base_revision(requested):
    """(the revision as named, its commit)."""
    if requested is None:
        for upstream in ("origin/main", "main"):
            found = git("merge-base", "HEAD", upstream)
            if found.returncode == 0:
                requested = found.stdout.strip()
                break
        else:
            raise Stop("no base: neither origin/main nor main shares history with HEAD (name one with --base)")
    found = git("rev-parse", "--verify", "--quiet", f"{requested}^{{commit}}")
    if found.returncode != 0:
        raise Stop(f"unknown revision {requested!r} (--base or KERNELS_PERF_BASE)")
    return requested, found.stdout.strip()


def cache_options(head_build):
    """(generator, -D options) of the head build's CMakeCache.txt, for the base to build alike."""
    path = os.path.join(head_build, "CMakeCache.txt")
    try:
        with open(path, encoding="utf-8") as file:
            lines = file.read().splitlines()
    except OSError as error:
        raise Stop(f"{path}: unreadable ({error}); the base is configured as the head build was") from error
    generator, options = None, []
    for line in lines:
        match = re.match(r"^([A-Za-z_][A-Za-z0-9_]*):([A-Z]+)=(.*)$", line)
        if not match:
            continue
        name, kind, value = match.groups()
        if name == "CMAKE_GENERATOR" and kind == "INTERNAL":
            generator = value
        elif kind not in ("INTERNAL", "STATIC") and value and (
                name in COPIED_CACHE_ENTRIES or name.startswith("KERNELS_")):
            options.append(f"-D{name}={value}")
    return generator, options


def base_build_commands(sha, work, head_build):
    """The commands that check out and build the base's kernels_bench in `work`."""
    source, build = os.path.join(work, "base-src"), os.path.join(work, "base-build")
    if os.path.exists(os.path.join(source, ".git")):
        checkout = ["git", "-C", source, "checkout", "--quiet", "--detach", "--force", sha]
    else:
        checkout = ["git", "-C", ROOT, "worktree", "add", "--quiet", "--detach", source, sha]
    generator, options = cache_options(head_build)
    configure = ["cmake", "-S", source, "-B", build, *(["-G", generator] if generator else []), *options]
    return [["git", "-C", ROOT, "worktree", "prune"], checkout, configure,
            ["cmake", "--build", build, "--target", "kernels_bench"]], build


def list_rows(binary, regex=None):
    command = [binary, "--benchmark_list_tests"] + ([f"--benchmark_filter={regex}"] if regex else [])
    listed = subprocess.run(command, capture_output=True, text=True, check=False)
    if listed.returncode != 0:
        raise Stop(f"{shlex.join(command)} failed (exit {listed.returncode}): {listed.stderr.strip()}")
    return [line.strip() for line in listed.stdout.splitlines() if line.strip()]


def select_rows(names):
    """Each (family, variant, type)'s sum rows at 2^10, 2^20 and 2^28 or its longest, in listing order."""
    lengths = defaultdict(dict)
    for name in names:
        prefix, _, n = perf_compare.row_label(name).rpartition("/")
        # Other operators' rows (type:op) have one length and the sum's kernels: left out.
        if n.isdigit() and ":" not in prefix.rsplit("/", 1)[-1]:
            lengths[prefix][int(n)] = name
    chosen = set()
    for by_n in lengths.values():
        longest = BANDWIDTH_BOUND if BANDWIDTH_BOUND in by_n else max(by_n)
        chosen.update(by_n[n] for n in (LAUNCH_BOUND, MIDDLE, longest) if n in by_n)
    return [name for name in names if name in chosen]


def exact_filter(names):
    """A --benchmark_filter of exactly these names: Google Benchmark's regex (std::regex, or POSIX
    extended where built so) takes a backslash before each metacharacter in either case."""
    return "^(" + "|".join(re.sub(r"([\\.^$|?*+()\[\]{}])", r"\\\1", name) for name in names) + ")$"


def run_environments(plant):
    """The base's and the head's environments: the planted slowdown on the head's runs only."""
    base = {key: value for key, value in os.environ.items() if key != PLANT_VARIABLE}
    head = dict(base, **({PLANT_VARIABLE: plant} if plant else {}))
    return base, head


def run_command(binary, regex, repetitions, json_path):
    return [binary, f"--benchmark_filter={regex}", f"--benchmark_repetitions={repetitions}",
            "--benchmark_report_aggregates_only=false", f"--benchmark_out={json_path}", "--benchmark_out_format=json"]


def run_once(command, environment, log_path, name):
    started = time.monotonic()
    with open(log_path, "w", encoding="utf-8") as log:
        status = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, env=environment, check=False).returncode
    if status == SKIPPED:
        raise Stop(f"run {name}: kernels_bench found no GPU (exit 77): skipped", SKIPPED)
    if status != 0:
        with open(log_path, encoding="utf-8", errors="replace") as log:
            tail = "".join(log.readlines()[-10:])
        raise Stop(f"run {name} failed (exit {status}); the end of {log_path}:\n{tail}")
    say(f"run {name}: {time.monotonic() - started:.0f} s")


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    base = parser.add_mutually_exclusive_group()
    base.add_argument("--base", default=os.environ.get("KERNELS_PERF_BASE") or None,
                      help="base revision (default $KERNELS_PERF_BASE, else the merge base with origin/main)")
    base.add_argument("--base-build", help="a build folder with the base's bench/kernels_bench, already built")
    parser.add_argument("--head-build", default=os.path.join(ROOT, "build"), help="the head's build folder")
    parser.add_argument("--work", default=os.path.join(ROOT, "build-perf"),
                        help="where the base is checked out and built")
    parser.add_argument("--out", help="report folder (default <work>/report)")
    parser.add_argument("--rounds", type=int, default=perf_compare.MIN_RUNS,
                        help="runs of each side, interleaved A, B, A, B")
    parser.add_argument("--repetitions", type=int, default=5, help="repetitions of each row in a run")
    parser.add_argument("--rows", choices=("touched", "all"), default="touched",
                        help="the variants changed against the base revision (default), or every variant")
    parser.add_argument("--filter", help="narrows the rows (a Google Benchmark filter regex)")
    parser.add_argument("--plant", metavar="ROW_REGEX=FRACTION", help=f"{PLANT_VARIABLE} for the head's runs")
    parser.add_argument("--confirm-rounds", type=int, default=perf_compare.MIN_RUNS,
                        help="fresh rounds that time the rows read SLOW again (0: none)")
    parser.add_argument("--threshold", type=float, default=perf_compare.THRESHOLD, help="smallest change reported")
    parser.add_argument("--alpha", type=float, default=perf_compare.ALPHA, help="significance level of the U test")
    parser.add_argument("--dry-run", action="store_true", help="print the plan; build and run nothing")
    args = parser.parse_args(argv)
    # 4 runs against 4 give p >= 2/70: the U test could never reach 0.01.
    if args.rounds < perf_compare.MIN_RUNS:
        parser.error(f"--rounds must be at least {perf_compare.MIN_RUNS} (a run is the U test's unit)")
    if args.confirm_rounds and args.confirm_rounds < perf_compare.MIN_RUNS:
        parser.error(f"--confirm-rounds must be 0 or at least {perf_compare.MIN_RUNS}")
    if args.repetitions < 1:
        parser.error("--repetitions must be at least 1")
    args.out = args.out or os.path.join(args.work, "report")
    return args


def plan_base(args):
    """(base binary, or None until built; what the base is; its build commands; its build folder;
    its commit, None for --base-build)."""
    if args.base_build:
        return bench_binary(args.base_build), f"the build in {args.base_build}", [], args.base_build, None
    name, sha = base_revision(args.base)
    commands, build = base_build_commands(sha, args.work, args.head_build)
    return None, f"{name} ({sha[:12]}), built in {build}", commands, build, sha


def touched_variants(changed, read):
    """({(family, variant)} that the changed variant files register, or None for every variant;
    why). read(path) gives the head's text of a file, '' where there is none."""
    variants = set()
    for path in changed:
        match = VARIANT_FILE.match(path)
        text = read(path) if match else ""
        names = VARIANT_NAME.findall(text) if "register_variant(" in text else []
        if names:
            variants.update((match[1], name) for name in names)
        elif BUILD_INPUT.search(path):
            return None, f"every variant: {path} changed, which is not a variant file"
    if not variants:
        return None, "every variant: no variant file changed"
    return variants, "the changed variants: " + ", ".join(sorted("/".join(variant) for variant in variants))


def changed_variants(sha):
    """touched_variants of the working tree against the commit `sha`."""
    changed = git("diff", "--name-only", sha)
    if changed.returncode != 0:
        raise Stop(f"git diff --name-only {sha} failed: {changed.stderr.strip()}")

    def read(path):
        try:
            with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as file:
                return file.read()
        except OSError:
            return ""  # deleted: not a variant file of the head

    return touched_variants(changed.stdout.split(), read)


def variant_of(row):
    """(family, variant) of a row family/variant/type/n, the variant possibly with slashes."""
    parts = perf_compare.row_label(row).split("/")
    return parts[0], "/".join(parts[1:-2])


def build_base(commands, build):
    for command in commands:
        say(shlex.join(command))
        if subprocess.run(command, check=False).returncode != 0:
            raise Stop(f"building the base failed: {shlex.join(command)}")
    return bench_binary(build)


def compared_rows(head, base, narrowing, variants=None):
    """The head's selected rows of `variants` (None: all) that --filter keeps and the base lists
    too (when built)."""
    rows = select_rows(list_rows(head))
    if variants is not None:
        rows = [row for row in rows if variant_of(row) in variants]
    if narrowing:
        kept = set(list_rows(head, narrowing))
        rows = [row for row in rows if row in kept]
    if base is not None:
        listed = set(list_rows(base))
        if any(row not in listed for row in rows):
            say(f"left out {sum(row not in listed for row in rows)} head row(s) the base lacks (new rows)")
        rows = [row for row in rows if row in listed]
    if not rows and variants is not None:
        raise Stop("no rows of the changed variants in both builds (new variants): nothing to compare", 0)
    if not rows:
        raise Stop("no rows to compare")
    return rows


def print_plan(rows, regex, commands, plant):
    print("".join(f"  {row}\n" for row in rows), end="")
    print(f"FILTER={shlex.quote(regex)}")
    for name, command in commands.items():
        words = [shlex.quote(word) for word in command]
        words[1] = '--benchmark_filter="$FILTER"'
        planted = f"{PLANT_VARIABLE}={shlex.quote(plant)} " if name.startswith("B") and plant else ""
        print(f"{name}: {planted}{' '.join(words)}")


def check(args):
    started = time.monotonic()
    head = bench_binary(args.head_build)
    base, base_about, build_commands, base_build, sha = plan_base(args)
    say(f"base: {base_about}; head: {head}")
    variants, why = changed_variants(sha) if args.rows == "touched" and sha else (None, "every variant")
    say(f"rows of {why}")
    if args.dry_run:
        if build_commands:
            say("the base would be built with:\n" + "".join(f"  {shlex.join(c)}\n" for c in build_commands))
    else:
        try:
            import scipy  # noqa: F401
        except ImportError as error:
            raise Stop("scipy is missing (ci/install-deps.sh installs python3-scipy)") from error
        if build_commands:
            base = build_base(build_commands, base_build)
    rows = compared_rows(head, base, args.filter, variants)
    folder = os.path.join(args.out, "runs")
    binaries = {"A": base or os.path.join(base_build, "bench", "kernels_bench"), "B": head}
    commands = round_commands(binaries, rows, 1, args.rounds, args.repetitions, folder)
    say(f"{len(rows)} rows, {args.rounds} rounds of {args.repetitions} repetitions a side, runs "
        f"{', '.join(commands)} (A base, B head)")
    if args.confirm_rounds:
        say(f"rows read SLOW or slower are timed again, {args.confirm_rounds} fresh rounds of those rows, and stay SLOW "
            f"only if these read SLOW too (p < {perf_compare.CONFIRM_ALPHA:g}), slower only if slower too "
            f"(p < {args.alpha:g})")
    if args.dry_run:
        print_plan(rows, exact_filter(rows), commands, args.plant)
        return 0
    os.makedirs(folder, exist_ok=True)
    environments = dict(zip("AB", run_environments(args.plant)))
    results, problems = run_and_compare(commands, environments, folder, args.threshold, args.alpha)
    flagged = {result.row for result in results if result.verdict in (perf_compare.SLOW, perf_compare.SLOWER)}
    confirmation = []
    if flagged and args.confirm_rounds and not problems:
        again = round_commands(binaries, [row for row in rows if perf_compare.row_label(row) in flagged],
                               args.rounds + 1, args.confirm_rounds, args.repetitions, folder)
        say(f"{len(flagged)} row(s) read SLOW or slower: runs {', '.join(again)} of those rows confirm or clear them")
        confirmation, problems = run_and_compare(again, environments, folder, args.threshold, perf_compare.CONFIRM_ALPHA)
        confirmed = {result.row for result in confirmation if result.verdict == perf_compare.SLOW}
        still_slower = {result.row for result in confirmation if perf_compare.reads_slower(result, args.alpha)}
        for result in results:
            if result.verdict == perf_compare.SLOW and result.row not in confirmed:
                result.verdict = perf_compare.UNCONFIRMED
            elif result.verdict == perf_compare.SLOWER and result.row not in still_slower:
                result.verdict = perf_compare.SAME
    return report(args, results, confirmation, problems, base_about, len(rows), time.monotonic() - started)


def round_commands(binaries, rows, first, count, repetitions, folder):
    """{run name: command} of rounds first .. first + count - 1 over `rows`, in the order A, B, A, B:
    each side's samples spread over the same stretch of time."""
    regex = exact_filter(rows)
    names = [f"{side}{index}" for index in range(first, first + count) for side in "AB"]
    return {name: run_command(binaries[name[0]], regex, repetitions, os.path.join(folder, f"{name}.json"))
            for name in names}


def run_and_compare(commands, environments, folder, threshold, alpha):
    """Runs `commands` in turn; (perf_compare's comparisons of their A and B runs, problems)."""
    for name, command in commands.items():
        run_once(command, environments[name[0]], os.path.join(folder, f"{name}.log"), name)
    paths = {side: [os.path.join(folder, f"{name}.json") for name in commands if name[0] == side] for side in "AB"}
    try:
        return perf_compare.compare(paths["A"], paths["B"], threshold, alpha, perf_compare.MIN_RUNS)
    except perf_compare.BadInput as error:
        raise Stop(str(error)) from error


def report(args, results, confirmation, problems, base_about, row_count, elapsed):
    planted = f"; planted in the head: {PLANT_VARIABLE}={args.plant}" if args.plant else ""
    table = (f"Base {base_about} (A) against the head {args.head_build} (B){planted}.\n\n"
             + perf_compare.markdown(results, args.threshold, args.alpha, perf_compare.MIN_RUNS))
    if confirmation:
        table += (f"\nConfirmation: the rows read SLOW or slower, timed again in {args.confirm_rounds} fresh rounds a "
                  f"side; a row stays SLOW only where these read SLOW too, slower where they read slower at "
                  f"p < {args.alpha:g}.\n\n"
                  + perf_compare.markdown(confirmation, args.threshold, perf_compare.CONFIRM_ALPHA, perf_compare.MIN_RUNS))
    print(table, end="")
    with open(os.path.join(args.out, "table.md"), "w", encoding="utf-8") as file:
        file.write(table)
    try:
        perf_compare.plot(results, args.threshold, os.path.join(args.out, "ratios.png"))
    except ImportError:
        say("matplotlib is missing: no ratios.png (ci/install-deps.sh installs it)")
    say(f"{row_count} rows compared in {elapsed:.0f} s; report in {args.out}")
    slower = [result.row for result in results if result.verdict == perf_compare.SLOWER]
    if slower:
        say(f"{len(slower)} row(s) slower by {perf_compare.SLOWER_FLOOR * 100:g} % to {args.threshold * 100:g} %, "
            f"confirmed (reported, not failing): {', '.join(slower)}")
    for problem in problems:
        say(problem)
    if problems:
        return BAD_INPUT
    return 1 if any(result.verdict == perf_compare.SLOW for result in results) else 0


def main(argv=None):
    args = parse_args(argv)
    try:
        return check(args)
    except Stop as stop:
        print(f"perf_regression: {stop}", file=sys.stderr)
        return stop.status


if __name__ == "__main__":
    sys.exit(main())
