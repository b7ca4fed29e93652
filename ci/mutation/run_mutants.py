#!/usr/bin/env python3
"""Builds mutants and judges each against its variants' ctest entries on a GPU (docs/mutation.md)."""

import argparse
import json
import os
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import catalogue_run
import ctest_junit
import ctest_runs
from python_deps import BUILD_DIR, ROOT  # before unidiff: its folder on sys.path
import report
import unidiff
from generate import generate, patch_name
from mutant_builds import SuiteLibrary, files_digest, prepared_slots
from operators import CLASSES
from outside_project import BadProject, Project
from results_file import AnotherCampaign, ResultsFile, current_commit, earlier_run, mutant_record, result_record, suite_digest

LIBRARIES = os.environ.get("KERNELS_MUTANTS_DIR", os.path.join(ROOT, "build-mutants"))
LANES_PER_GPU, JOBS_PER_LANE = 4, 4
# A skipped GPU entry fails; no rerun line confirmed, no fault attributed: the failure is the verdict.
GENERATED_ENVIRONMENT = {"KERNELS_REQUIRE_GPU": "1", "KERNELS_CONFIRM_RERUN_LINES": "0", "KERNELS_ATTRIBUTE_FAULTS": "0"}
# (stage, its ctest selection, --no-tests) in order; the large stage runs alone on its GPU.
TESTS_STAGE = ("tests", ["-LE", "sanitize|mutation|perf|large"], "error")
SANITIZER_STAGE = ("sanitizer", ["-L", "^sanitize$"], "ignore")
LARGE_STAGE = ("large", ["-L", "^large$"], "ignore")
# Set by SIGINT: what ends from then on may have ended by the signal, so nothing more is recorded.
STOPPING = threading.Event()


class UnknownRef(Exception):
    """--changed-since names no commit."""


# --changed-since: lines changed since a ref, committed or not, in today's numbering (a deletion: the next).
def changed_lines(root, ref, folder="kernels"):
    """{path from root: set of changed line numbers (1-based)} of the files under `folder`."""
    git = lambda *args: subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)  # noqa: E731
    if git("rev-parse", "--verify", "--quiet", ref + "^{commit}").returncode != 0:
        raise UnknownRef(f"--changed-since: {ref!r} names no commit of {root}")
    changed = {}
    for patched in unidiff.PatchSet(git("diff", "-U0", "--no-color", "--no-ext-diff", "--relative", ref, "--", folder).stdout):
        if patched.is_removed_file:
            continue
        lines = changed.setdefault(patched.path, set())
        for hunk in patched:
            lines.update(range(hunk.target_start, hunk.target_start + hunk.target_length) if hunk.target_length
                         else [hunk.target_start + 1])  # fmt: skip
    for path in git("ls-files", "--others", "--exclude-standard", "--", folder).stdout.split():
        with open(f"{root}/{path}", encoding="utf-8", errors="replace") as file:
            changed[path] = set(range(1, sum(1 for _ in file) + 1))
    return changed


def mutants_of(mutants, changed):
    """The mutants whose line an edit changed, in their order."""
    return [m for m in mutants if m.line in changed.get(m.file, ())]


def select_pairs(mutants, args):
    """The (mutant, variant label) pairs the options select, in mutant id order."""
    if args.operator_class:
        mutants = [m for m in mutants if m.op_class == args.operator_class]
    if args.file:
        wanted = args.file if args.project or args.file.startswith("kernels/") else f"kernels/{args.file}"
        mutants = [m for m in mutants if m.file == wanted]
    if args.changed_since:
        source, folder = (args.project.source, ".") if args.project else (ROOT, "kernels")
        mutants = mutants_of(mutants, changed_lines(source, args.changed_since, folder))
    if args.variant:
        return [(m, args.variant) for m in mutants if args.variant in m.variants]
    if args.sample is not None:
        mutants = sorted(random.Random(args.seed).sample(mutants, min(args.sample, len(mutants))), key=lambda m: m.id)
    return [(m, v) for m in mutants for v in m.variants]


def mode_of(args):
    """The campaign's name in results.json: a resumed run must be of the same."""
    sample = f"{args.sample} seed {args.seed}" if args.sample is not None else None
    parts = [f"{name} {value}" for name, value in (("project", args.project and args.project.source),
             ("rejudge", args.rejudge and len(args.rejudge)), ("variant", args.variant), ("changed since", args.changed_since),
             ("file", args.file), ("class", args.operator_class), ("sample", sample)) if value]  # fmt: skip
    return ", ".join(parts) or "full"


# --rejudge: a faster suite must not be weaker; only kills are drawn (a survivor says nothing of power lost).
def earlier_kills(paths, mutant_ids):
    """The (mutant id, variant) pairs the results files report killed, of mutants made today."""
    kills = set()
    for path in paths:
        with open(path, encoding="utf-8") as file:
            killed = [r for r in json.load(file)["results"] if r["outcome"] in ctest_junit.KILLS]
        kills |= {(r["mutant"], r["variant"]) for r in killed if r["mutant"] in mutant_ids}
    return kills


def drawn_kills(kills, mutants, count, seed):
    """`count` of the pairs (all if fewer), drawn with `seed`, as (mutant, variant) in id order."""
    by_id = {m.id: m for m in mutants}
    chosen = random.Random(seed).sample(sorted(kills), min(count, len(kills)))
    return [(by_id[mutant], variant) for mutant, variant in sorted(chosen)]


def write_comparison(kills, results, folder):
    """Writes <folder>/rejudged.md; returns the pairs not killed now (unrun ones are not) and its path."""
    now = {(r["mutant"], r["variant"]): "killed" if r["outcome"] in ctest_junit.KILLS else r["outcome"]
           for r in results["results"] if (r["mutant"], r["variant"]) in kills}  # fmt: skip
    lost = sorted(pair for pair, outcome in now.items() if outcome not in ("killed", ctest_junit.NOT_RUN))
    counts = ", ".join(f"{sum(o == outcome for o in now.values())} {outcome}" for outcome in sorted(set(now.values())))
    lines = ["# Earlier kills judged again", "", f"{len(now)} pairs that earlier campaigns killed, judged again: {counts}."]
    if lost:
        lines += ["", "## Not killed now", ""] + [f"- `{m}` [{v}]: {now[(m, v)]}" for m, v in lost]
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "rejudged.md")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return lost, path


def gpu_lanes(work):
    """[(lane spec, large stage spec)], LANES_PER_GPU lanes a GPU, each spec naming one GPU."""
    listed = subprocess.run([os.path.join(ROOT, "test", "runtime", "gpu-resource-spec.sh")], capture_output=True, text=True, check=True)
    spec = json.loads(listed.stdout)

    def written(name, gpu):
        path = os.path.join(work, f"gpu{gpu['id']}-{name}.json")
        Path(path).write_text(json.dumps({**spec, "local": [{"gpus": [gpu]}]}), encoding="utf-8")
        return path

    gpus = spec["local"][0]["gpus"]
    return [(written(f"lane{lane}", gpu), written("large", gpu)) for gpu in gpus for lane in range(LANES_PER_GPU)]


def run_stages(library_dir, label, spec, stages, log_prefix, build_dir=None):
    """Runs `stages` of one pair in `build_dir` (the suite's) up to the first that kills: (verdict, the deciding stage or "")."""
    folder = os.path.splitext(spec)[0]  # the specification's run folder (ctest_runs.py)
    environment = ctest_runs.mutant_environment(library_dir, GENERATED_ENVIRONMENT)
    for stage, selection, no_tests in stages:
        arguments = ["-L", f"^{re.escape(label)}$", *selection, "--stop-on-failure", "--output-on-failure",
                     "-j", str(JOBS_PER_LANE), "--resource-spec-file", spec, f"--no-tests={no_tests}"]  # fmt: skip
        ctest_runs.prepare_folder(build_dir or BUILD_DIR, folder)
        with open(f"{log_prefix}.{stage}.log", "w", encoding="utf-8") as log:
            verdict, _ = ctest_runs.run(folder, arguments, environment, log)
        if verdict.outcome != ctest_junit.SURVIVED:
            return verdict, stage
    return ctest_junit.Verdict(ctest_junit.SURVIVED), ""


class Campaign:
    """Builds in slots, judges on free lanes, survivors' large stages last (one a GPU); fills self.results."""

    def __init__(self, work, pairs, lanes, deadline=None, results_file=None, build_only=False, project=None):
        self.work, self.deadline, self.results_file, self.build_only = work, deadline, results_file, build_only
        self.project = project  # an outside Project: a mutant's libraries are judged in a build of its own a lane
        self.labels = {}  # mutant id -> (mutant, [variant label])
        for mutant, label in pairs:
            self.labels.setdefault(mutant.id, (mutant, []))[1].append(label)
        self.left = {i: len(labels) for i, (_, labels) in self.labels.items()}  # pairs to judge, per library
        self.results, self.lock, self.gpu_lost, self.waiting_large = [], threading.Lock(), None, {}  # large spec -> pairs
        self.lanes, self.free_lanes = lanes, queue.Queue()
        for lane in lanes:
            self.free_lanes.put(lane)

    def out_of_time(self):
        late = self.deadline is not None and time.monotonic() > self.deadline
        return STOPPING.is_set() or self.gpu_lost is not None or late

    def record(self, mutant, label, verdict, stage="", seconds=0.0):
        with self.lock:
            if STOPPING.is_set() or self.gpu_lost:  # after a signal or a lost GPU, no verdict holds
                return
            if ctest_junit.gpu_lost(verdict):
                self.gpu_lost = f"{mutant.id} [{label}]: error: {'; '.join(verdict.killed_by)}"
            self.results.append(result_record(mutant.id, label, verdict, stage, seconds))
            if self.results_file:
                self.results_file.write(self.results)
        if verdict.outcome != ctest_junit.NOT_RUN:
            print(f"{mutant.id} [{label}]: {verdict.outcome} {stage} in {seconds:.0f} s {' '.join(verdict.killed_by)}", flush=True)

    def run(self, slots):
        free_slots = queue.Queue()
        for slot in slots:
            free_slots.put(slot)
        with ThreadPoolExecutor(max(1, len(self.lanes))) as testers:
            tests = []

            def build(mutant, labels):
                name, started = patch_name(mutant.id), time.monotonic()
                library = library_of(name, self.project)
                if self.out_of_time():
                    return [self.record(mutant, label, ctest_junit.Verdict(ctest_junit.NOT_RUN)) for label in labels]
                compiled = True
                if not os.path.exists(library):  # not built before (--build-only, here or elsewhere)
                    slot = free_slots.get()
                    try:
                        compiled = slot.build(mutant.diff, library, os.path.join(self.work, "logs", f"{name}.build.log"))
                    finally:
                        free_slots.put(slot)
                if compiled is None:  # a signal stopped the build: nothing more starts, nothing is recorded
                    return STOPPING.set()
                if not compiled or self.build_only:
                    verdict = ctest_junit.Verdict(ctest_junit.NOT_RUN if compiled else ctest_junit.NOT_COMPILING)
                    return [self.record(mutant, label, verdict, "build", time.monotonic() - started) for label in labels]
                tests.extend(testers.submit(self.test, mutant, label, library) for label in labels)

            with ThreadPoolExecutor(max(1, len(slots))) as builders:
                for future in [builders.submit(build, m, labels) for m, labels in self.labels.values()]:
                    future.result()  # a patch that does not apply: the generator is wrong, stop here
            for future in tests:
                future.result()
        with ThreadPoolExecutor(max(1, len(self.waiting_large))) as gpus:  # a large stage holds most of its GPU's memory
            list(gpus.map(lambda waiting: [self.large(*pair) for pair in waiting], self.waiting_large.values()))

    def test(self, mutant, label, library):
        """The tests and sanitizer stages of a pair on a free lane; a survivor waits for its large stage."""
        lane = self.free_lanes.get()
        try:
            verdict, stage, seconds = self.stages(mutant, label, library, lane[0], [TESTS_STAGE, SANITIZER_STAGE])
        finally:
            self.free_lanes.put(lane)
        if verdict.outcome == ctest_junit.SURVIVED:
            with self.lock:
                self.waiting_large.setdefault(lane[1], []).append((mutant, label, library, lane[1], seconds))
        else:
            self.judged(mutant, label, library, verdict, stage, seconds)

    def large(self, mutant, label, library, spec, seconds):
        verdict, stage, more = self.stages(mutant, label, library, spec, [LARGE_STAGE])
        self.judged(mutant, label, library, verdict, stage, seconds + more)

    def stages(self, mutant, label, library, spec, stages):
        """(verdict, deciding stage, seconds) of `stages` of a pair; not run once out of time."""
        if self.out_of_time():
            return ctest_junit.Verdict(ctest_junit.NOT_RUN), "", 0.0
        started, log_prefix = time.monotonic(), os.path.join(self.work, "logs", patch_name(f"{mutant.id}@{label}"))
        try:
            judging = [self.project.judging_build(spec, library)] if self.project else []
            verdict, stage = run_stages(os.path.dirname(library), label, spec, stages, log_prefix, *judging)
        except (OSError, subprocess.SubprocessError) as error:  # ctest missing or not startable
            verdict, stage = ctest_junit.Verdict(ctest_junit.ERROR, (str(error),)), ""
        return verdict, stage, time.monotonic() - started

    def judged(self, mutant, label, library, verdict, stage, seconds):
        if verdict.outcome != ctest_junit.NOT_RUN and not self.gpu_lost:
            verdict = ctest_runs.after_gpu_check(verdict, BUILD_DIR)
        self.record(mutant, label, verdict, stage, seconds)
        with self.lock:  # the library goes with its mutant's last pair
            self.left[mutant.id] -= 1
            if self.left[mutant.id] == 0:
                shutil.rmtree(os.path.dirname(library), ignore_errors=True)


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", help="an outside project's source folder: its variant files' mutants")
    parser.add_argument("--project-build", help="the project's configured build (with --project): its options and entries")
    parser.add_argument("--file", help="the mutants of one source file under kernels/ (sort/radix_onesweep.cu) or --project")
    parser.add_argument("--variant", help="the mutants of one variant, against its tests only (scan/naive)")
    parser.add_argument("--sample", type=int, help="N mutants drawn with --seed (with --rejudge: N pairs)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--changed-since", metavar="REF", help="the mutants of the kernel lines changed since REF")
    parser.add_argument("--operator-class", choices=CLASSES, metavar="CLASS", help="only this operator class")
    parser.add_argument("--catalogue", nargs="*", metavar="NAME", help="the catalogue's planted bugs (all if no NAME)")
    parser.add_argument("--rejudge", nargs="+", metavar="RESULTS", help="judge again kills of these results.json files")
    parser.add_argument("--budget-s", type=float, help="start nothing new after this many seconds")
    parser.add_argument("--work-dir", help="results, logs and build slots: build-mutation (build-mutants with --catalogue)")
    parser.add_argument("--resume", action="store_true", help="keep the pairs <work>/results.json judged; run the rest")
    parser.add_argument("--build-only", action="store_true", help="build the mutants' libraries, judge nothing (no GPU)")
    parser.add_argument("--list", action="store_true", help="print the (mutant, variant) pairs and stop")
    parser.add_argument("--min-score", type=float, help="exit 1 if a variant scores below this (0.95)")
    args = parser.parse_args()
    if args.project or args.project_build:  # a project that cannot be judged stops here, exit 2
        if not (args.project and args.project_build):
            parser.error("--project and --project-build go together: the project's sources and its configured build")
        try:
            args.project = Project(args.project, args.project_build)
        except BadProject as error:
            parser.error(str(error))
        if args.file and os.path.exists(args.file):
            args.file = os.path.relpath(os.path.realpath(args.file), args.project.source)
    return args


def library_of(name, project=None):
    """Where a mutant's library is kept: libkernels.so, or a project's libraries in a folder."""
    return os.path.join(LIBRARIES, name, "build" if project else "libkernels.so")


def prepared(args, work, planned, mutant_ids, project=None):
    """(campaign, its prepared build slots) of the planned pairs that --resume did not find judged."""
    suite = files_digest(project.source, project.parts).hexdigest()[:16] if project else suite_digest()
    results_path, mode = os.path.join(work, "results.json"), mode_of(args)
    try:
        kept, runs = earlier_run(results_path, suite, mode, mutant_ids) if args.resume else ([], [])
    except AnotherCampaign as refusal:
        sys.exit(str(refusal))
    judged = {(r["mutant"], r["variant"]) for r in kept}
    pairs = [(mutant, label) for mutant, label in planned if (mutant.id, label) not in judged]
    print(f"{len(judged)} pairs judged before, {len(pairs)} to run" if kept else f"{len(pairs)} pairs to run", flush=True)
    os.makedirs(os.path.join(work, "logs"), exist_ok=True)
    try:
        lanes = [] if args.build_only else gpu_lanes(work)
    except subprocess.CalledProcessError as error:
        sys.exit(f"no GPU to judge on: {error.stderr.strip()}")
    unreachable = ctest_runs.gpu_probe_failure(BUILD_DIR) if lanes else None
    if unreachable:  # the driver may list a GPU that CUDA cannot reach
        sys.exit(f"no GPU to judge on: {unreachable}")
    meta = {"commit": current_commit(), "suite": suite, "mode": mode, "budget_s": args.budget_s}
    records = [mutant_record(m) for m in {m.id: m for m, _ in planned}.values()]
    results_file = None if args.build_only else ResultsFile(results_path, meta, records, kept, runs)
    slots = prepared_slots(work, project.source if project else ROOT, len(records), project or SuiteLibrary())
    deadline = time.monotonic() + args.budget_s if args.budget_s else None
    return Campaign(work, pairs, lanes, deadline, results_file, args.build_only, project), slots


def main():
    global LIBRARIES  # a project's mutants are kept in its work dir
    signal.signal(signal.SIGINT, lambda signum, frame: (STOPPING.set(), signal.default_int_handler(signum, frame)))
    args = parse_arguments()
    if args.catalogue is not None:
        args.work_dir = os.path.abspath(args.work_dir or LIBRARIES)
        sys.exit(catalogue_run.main(args.catalogue, args.work_dir, BUILD_DIR, args.build_only))
    work = os.path.abspath(args.work_dir or os.path.join(ROOT, "build-mutation"))
    if args.project:
        work = os.path.abspath(args.work_dir or os.path.join(args.project.build, "mutation"))
        LIBRARIES = os.environ.get("KERNELS_MUTANTS_DIR", os.path.join(work, "mutants"))
    mutants, _ = generate(args.project.source, project=True) if args.project else generate(ROOT)
    try:
        if args.rejudge:
            kills = earlier_kills(args.rejudge, {m.id for m in mutants})
            planned = drawn_kills(kills, mutants, args.sample or 100, args.seed)
        else:
            planned = select_pairs(mutants, args)
    except UnknownRef as error:
        sys.exit(str(error))
    if args.list or not planned:
        for mutant, label in planned:
            print(f"{mutant.id} {label}")
        print(f"{len({m.id for m, _ in planned})} mutants, {len(planned)} (mutant, variant) pairs")
        return
    campaign, slots = prepared(args, work, planned, {m.id for m in mutants}, args.project)
    campaign.run(slots)
    if args.build_only:
        built = sum(os.path.exists(library_of(patch_name(i), args.project)) for i in campaign.labels)
        print(f"{built} of {len(campaign.labels)} mutant libraries in {LIBRARIES}")
        return
    results = campaign.results_file.write(campaign.results)
    outputs = report.write_report(results, os.path.join(work, "report"), {m.id: m for m, _ in planned})
    print(f"results: {campaign.results_file.path}; report: {', '.join(outputs)}")
    if campaign.gpu_lost:
        sys.exit(f"the GPU was lost: {campaign.gpu_lost}; the campaign stopped there (--resume on a working GPU)")
    if args.rejudge:
        lost, path = write_comparison(kills, results, os.path.join(work, "report"))
        print(f"earlier kills judged again: {path}")
        if lost:
            sys.exit(f"{len(lost)} earlier kills are not kills now: see {path}")
    weak = report.below(results, report.load_triage(report.EQUIVALENTS), args.min_score) if args.min_score else []
    if weak:
        sys.exit("below the minimum score: " + ", ".join(f"{v} {100 * s:.1f} %" for v, s in weak))


if __name__ == "__main__":
    main()
