#!/usr/bin/env python3
"""Runs mutants against the suite on a GPU machine and writes the report.

    run_mutants.py [--variant LABEL | --sample N --seed S] [--operator-class CLASS] [--budget-s SECONDS] [options]
    run_mutants.py --catalogue [NAME...] [--build-only]
    run_mutants.py --rejudge RESULTS... [--pairs N --seed S]

Needs the normal build (build/, `cmake --workflow --preset gpu` or a carried bundle) and a GPU.
Two sources of mutants, one build path (mutant_builds.py), one judge (ctest_junit.py, on the JUnit
file of each ctest run) and one report (report.py): the generated mutants (generate.py), in the
modes below, and the catalogue's planted bugs (--catalogue: catalogue_run.py says how each is
judged and its kill reproduced).
Compiling the mutants is most of the cost: with --object-cache DIR --build-only they can be
compiled on any machine first (DIR keeps their object files), and a later run with the same
--object-cache links them instead (mutant_builds.py).
Three modes for generated mutants: --variant (the mutants that variant's tests should kill, run against that variant
only: "how strong are the tests of my variant?"), --sample (N mutants drawn with seed S, each
against all its variants), and, with neither, the full set. --operator-class keeps only the mutants
of one operator class, alone (each against the variants its file maps to) or within any of those
modes: --operator-class operand_order judges the operand swaps. --file keeps only one source
file's mutants in the same way: the campaign of one kernel (--file sort/radix_onesweep.cu over
several sittings with --resume), without the shared headers' mutants, each of which recompiles
every file that includes its header. --list prints the plan and stops. --rejudge judges again pairs that earlier campaigns killed
(rejudge.py).

For each mutant a build slot compiles its libkernels.so (mutant_builds.py); each (mutant, variant)
pair then runs on a lane, one ctest process with a resource specification of its own that names
one GPU (ci/gpu-resource-spec.sh lists them; lanes of one GPU share it as the slots of the gpu
preset do), LD_LIBRARY_PATH pointing at the mutant's library, in up to three stages, each stopping
at its first failure (ctest --stop-on-failure) and the next run only if the mutant survived:
  1. the variant's entries but the large, sanitizer, mutation and perf ones;
  2. its compute-sanitizer entries (races and out-of-range accesses that change no result);
  3. its large entries, alone on their GPU but for sanitizer entries (they hold most of its
     memory). A pair waiting for them gives its lane back, and they run in batches (Gpu): once a
     lane's worth of pairs waits, or when no lane of the GPU is busy. Taking the GPU alone waits
     for every running tests stage to end, so it is paid once per batch, not once per survivor.
The suite's hang watchdog (a batch past its deadline ends its process) and its TIMEOUT properties
bound every entry: a mutant that hangs is killed by timeout and reported as such. A mutant that
does not compile is counted apart. A run that lost its GPU (ctest_junit.py; or the build's
gpu_probe failing before a verdict) is the error "GPU lost": the campaign stops there, exit 1.
With --budget-s, nothing new starts once the budget is spent; what is left is reported as not run. Writes <work>/results.json (rewritten after every judged
pair, so a sitting cut off keeps what it judged) and the report (report.py) into <work>/report/.
A sitting cut off by SIGINT (a timeout's, Ctrl-C) records nothing judged after the signal: a build
or a test it killed would read as a mutant that does not compile, or as a kill.
With --resume, the pairs an earlier run of the same mode and suite judged in <work>/results.json
are kept, not run again: a campaign longer than one sitting on a GPU machine goes on over several (carry results.json to the next
machine), and the report covers them all. After the kernels, tests or build files changed (a
test added to kill a survivor), --resume --across-suites keeps the earlier kills, each named with
the suite that judged it, and judges the survivors again.
"""

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field

import catalogue_run
import changed_lines
import ctest_junit
import ctest_runs
import rejudge
import report
from generate import generate, patch_name
from mutant_builds import BuildSlot, ObjectCache, source_digest
from shared_lock import SharedLock
from operators import CLASSES
from results_file import AnotherCampaign, ResultsFile, current_commit, earlier_run, suite_digest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
JOBS_PER_LANE = 4  # entries of one pair run at once; a large entry takes all its GPU's slots
# Besides ctest_runs.KILL_ENVIRONMENT: a skipped GPU entry fails, as in the gpu preset, no
# printed rerun line is confirmed and no stream failure is attributed to one case (unlike a
# catalogue run, which reproduces each kill): the verdict is the failure itself, and on the H100
# the confirmation of a line that depends on timing took one to three minutes of a lane, the
# attribution of a fault whose case is not its batch's smallest two to three.
GENERATED_ENVIRONMENT = {
    "KERNELS_REQUIRE_GPU": "1",
    "KERNELS_CONFIRM_RERUN_LINES": "0",
    "KERNELS_ATTRIBUTE_FAULTS": "0",
}
# (stage, its ctest selection, --no-tests), in their order. The tests share their GPU's lock with
# the other lanes' tests; the large stage takes it alone. The sanitizer entries take no part in
# it: their cases are compact and their buffers exact, and a mutant that hangs only under a tool
# (whose watchdog is off) runs to the entry's TIMEOUT, which must not keep the GPU's other lanes
# waiting behind a large stage.
TESTS_STAGE = ("tests", ["-LE", "sanitize|mutation|perf|large"], "error")
SANITIZER_STAGE = ("sanitizer", ["-L", "^sanitize$"], "ignore")
LARGE_STAGE = ("large", ["-L", "^large$"], "ignore")



def print_survivors(results, mutants, equivalents, named):
    """After an edit's run: each surviving pair that no triage file explains, with its diff."""
    unexplained = [
        r
        for r in results["results"]
        if r["outcome"] == ctest_junit.SURVIVED
        and not report.equivalence(equivalents, r["mutant"], r["variant"])
        and not report.equivalence(named, r["mutant"], r["variant"])
    ]
    print(f"\n{len(unexplained)} surviving pairs no test kills and no triage explains", flush=True)
    for result in unexplained:
        print(f"\nSURVIVED {result['mutant']} [{result['variant']}]\n{mutants[result['mutant']].diff}", end="")


def of_file(mutants, path):
    """The mutants of one source file, named as under kernels/ (sort/radix_onesweep.cu) or from
    the repository root (kernels/sort/radix_onesweep.cu)."""
    wanted = path if path.startswith("kernels/") else f"kernels/{path}"
    return [m for m in mutants if m.file == wanted]


def select_pairs(mutants, variant=None, sample=None, seed=0, op_class=None):
    """The (mutant, variant label) pairs a mode runs, in mutant id order; with `op_class`, only
    the mutants of that operator class (drawn from them with `sample`)."""
    if op_class:
        mutants = [m for m in mutants if m.op_class == op_class]
    if variant:
        return [(m, variant) for m in mutants if variant in m.variants]
    if sample is not None:
        chosen = random.Random(seed).sample(mutants, min(sample, len(mutants)))
        mutants = sorted(chosen, key=lambda m: m.id)
    return [(m, v) for m in mutants for v in m.variants]


@dataclass
class Gpu:
    """One GPU of a campaign. Its lanes' tests stages share `lock`; its large stages take it
    alone, in batches, each through `large_spec` (a resource specification of its own, so its run
    folder is no lane's). `busy` counts its lanes running a pair; `waiting` holds the pairs whose
    large stage is due (Campaign.run_large_batch)."""

    lock: SharedLock
    large_spec: str
    lanes: int
    busy: int = 0
    waiting: list = field(default_factory=list)


@dataclass(frozen=True)
class Lane:
    spec: str  # a resource specification file; its run folder is beside it (ctest_runs.py)
    gpu: Gpu


def gpu_lanes(work, lanes_per_gpu):
    """The lanes of every GPU ci/gpu-resource-spec.sh lists, `lanes_per_gpu` each."""
    spec = json.loads(
        subprocess.run(
            [os.path.join(ROOT, "ci", "gpu-resource-spec.sh")],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )

    def specification(name, gpu):
        path = os.path.join(work, f"gpu{gpu['id']}-{name}.json")
        with open(path, "w", encoding="utf-8") as file:
            json.dump({**spec, "local": [{"gpus": [gpu]}]}, file)
        return path

    lanes = []
    for gpu in spec["local"][0]["gpus"]:
        shared = Gpu(SharedLock(), specification("large", gpu), lanes_per_gpu)
        lanes.extend(Lane(specification(f"lane{lane}", gpu), shared) for lane in range(lanes_per_gpu))
    return lanes


def run_stages(build_dir, library_dir, label, spec, stages, log_prefix):
    """Runs `stages` of one (mutant, variant) pair with the resource specification `spec`, up to
    the first that kills: (verdict, the stage that decided or "")."""
    folder = os.path.splitext(spec)[0]  # the specification's run folder (ctest_runs.py)
    environment = ctest_runs.mutant_environment(library_dir, GENERATED_ENVIRONMENT)
    for stage, selection, no_tests in stages:
        arguments = [
            "-L",
            f"^{re.escape(label)}$",
            *selection,
            "--stop-on-failure",
            "--output-on-failure",
            "-j",
            str(JOBS_PER_LANE),
            "--resource-spec-file",
            spec,
            f"--no-tests={no_tests}",
        ]
        ctest_runs.prepare_folder(build_dir, folder)
        with open(f"{log_prefix}.{stage}.log", "w", encoding="utf-8") as log:
            verdict, _ = ctest_runs.run(folder, arguments, environment, log)
        if verdict.outcome != ctest_junit.SURVIVED:
            return verdict, stage
    return ctest_junit.Verdict(ctest_junit.SURVIVED), ""


# Set by SIGINT: a build or test that ends from then on may have ended by the same signal (its
# processes share ours), so no verdict is recorded after it; --resume judges those pairs again.
STOPPING = threading.Event()


def stop_on_interrupt(signum, frame):
    STOPPING.set()
    signal.default_int_handler(signum, frame)


class Campaign:
    """Builds and runs the pairs, filling self.results."""

    def __init__(self, args, pairs, lanes, cache=None, results_file=None):
        self.args, self.lanes, self.cache, self.results_file = args, lanes, cache, results_file
        self.deadline = time.monotonic() + args.budget_s if args.budget_s else None
        self.pairs_of = {}
        for mutant, label in pairs:
            self.pairs_of.setdefault(mutant.id, (mutant, []))[1].append(label)
        self.results, self.lock = [], threading.Lock()
        self.gpu_lost = None  # the pair whose run lost the GPU, and what it saw: nothing is judged after it
        self.free_lanes = list(lanes)
        self.lane_available = threading.Condition()
        # Built libraries waiting for a lane stay few, so the disk does not fill with them.
        self.waiting_libraries = threading.Semaphore(max(2, 2 * len(lanes)))

    def out_of_time(self):
        """Whether nothing new starts: the budget is spent, or the GPU was lost."""
        return self.gpu_lost is not None or (self.deadline is not None and time.monotonic() > self.deadline)

    def record(self, mutant, labels, verdict, stage="", seconds=0.0, log=""):
        if STOPPING.is_set():
            return
        with self.lock:
            if self.gpu_lost:
                return
            if ctest_junit.gpu_lost(verdict):
                self.gpu_lost = f"{mutant.id} [{', '.join(labels)}]: error: {'; '.join(verdict.killed_by)}"
            for label in labels:
                self.results.append(
                    {
                        "mutant": mutant.id,
                        "variant": label,
                        "outcome": verdict.outcome,
                        "stage": stage,
                        "killed_by": list(verdict.killed_by),
                        "seconds": round(seconds, 1),
                        "log": log,
                    }
                )
            if self.results_file:
                self.results_file.write(self.results)

    def run(self, slots):
        work = self.args.work_dir
        free_slots = list(slots)
        slot_available = threading.Condition()
        builders_count = max(len(slots), self.args.compile_jobs)
        with ThreadPoolExecutor(builders_count) as builders, ThreadPoolExecutor(max(1, len(self.lanes))) as testers:

            def build_and_queue(mutant, labels):
                if self.out_of_time():
                    return self.record(mutant, labels, ctest_junit.Verdict(ctest_junit.NOT_RUN))
                self.waiting_libraries.acquire()
                name = patch_name(mutant.id)
                library = os.path.join(work, "libraries", name, "libkernels.so")
                log = os.path.join(work, "logs", f"{name}.build.log")
                started = time.monotonic()
                try:
                    # A mutant of a file compiled alone is compiled outside the slots, many at once;
                    # a slot only links it.
                    unit = self.compile_alone(slots[0], mutant, log) if slots[0].unit_of(mutant.diff) else None
                    with slot_available:
                        slot_available.wait_for(lambda: free_slots)
                        # Slot 0 last: a build there holds up the unit compiles, which read its tree.
                        slot = min(free_slots, key=lambda free: free is slots[0])
                        free_slots.remove(slot)
                    try:
                        compiled = self.build_or_link(slot, mutant, library, log, unit)
                    finally:
                        with slot_available:
                            free_slots.append(slot)
                            slot_available.notify()
                except BaseException:
                    self.waiting_libraries.release()  # no library waits: the others must not block on it
                    raise
                if not compiled or not self.lanes:
                    self.waiting_libraries.release()
                    outcome = ctest_junit.NOT_COMPILING if not compiled else ctest_junit.NOT_RUN
                    self.record(
                        mutant, labels, ctest_junit.Verdict(outcome), "build", time.monotonic() - started, log
                    )
                    shutil.rmtree(os.path.dirname(library), ignore_errors=True)
                    return None
                remaining = [len(labels)]
                with self.lock:
                    tests.extend(testers.submit(self.test, mutant, label, library, remaining) for label in labels)
                return None

            tests = []
            builds = [builders.submit(build_and_queue, mutant, labels) for mutant, labels in self.pairs_of.values()]
            try:
                for future in builds:
                    future.result()
            except BaseException:  # a patch that does not apply: the generator is wrong, stop here
                for future in builds:
                    future.cancel()
                raise
            for future in tests:
                future.result()

    def compile_alone(self, slot, mutant, log):
        """(compiled, objects folder) of a mutant of a file the library compiles alone: kept in
        the object cache, or compiled now (BuildSlot.compile_unit, outside any slot)."""
        name = patch_name(mutant.id)
        kept = self.cache.lookup(name) if self.cache else None
        if kept is not None:
            return kept
        objects = self.cache.objects_for(name) if self.cache else os.path.join(self.args.work_dir, "objects", name)
        shutil.rmtree(objects, ignore_errors=True)
        compiled = slot.compile_unit(mutant.diff, objects, log)
        if self.cache:
            self.cache.record(name, compiled)
        return compiled, objects

    def build_or_link(self, slot, mutant, library, log, unit=None):
        """Whether the mutant compiled; its library is built, or linked from kept or separately
        compiled objects (`unit`: compile_alone's answer)."""
        name = patch_name(mutant.id)
        kept = unit or (self.cache.lookup(name) if self.cache else None)
        if kept is not None:
            compiled, objects = kept
            if compiled and self.lanes and not slot.link(objects, library, log):
                raise RuntimeError(f"linking the kept objects of {mutant.id} failed: see {log}")
            if not self.cache and objects:
                shutil.rmtree(objects, ignore_errors=True)
            return compiled
        objects = self.cache.objects_for(name) if self.cache else None
        compiled = slot.build(mutant.diff, library if self.lanes else None, log, objects)
        if self.cache:
            self.cache.record(name, compiled)
        return compiled

    def test(self, mutant, label, library, remaining):
        """Runs a pair's lane stages on a free lane; a survivor then waits for its large stage
        without holding the lane (run_large_batch)."""
        if self.out_of_time():
            self.record(mutant, [label], ctest_junit.Verdict(ctest_junit.NOT_RUN))
            self.done_with(library, remaining)
            return
        with self.lane_available:
            self.lane_available.wait_for(lambda: self.free_lanes)
            lane = self.free_lanes.pop()
            lane.gpu.busy += 1
        waiting = None
        try:
            pair = PairInFlight(mutant, label, library, remaining, self.log_prefix(mutant, label))
            started = time.monotonic()
            lane.gpu.lock.acquire(False)
            try:
                verdict, stage = self.stages(pair, lane.spec, [TESTS_STAGE])
            finally:
                lane.gpu.lock.release(False)
            if verdict.outcome == ctest_junit.SURVIVED:
                verdict, stage = self.stages(pair, lane.spec, [SANITIZER_STAGE])
            pair.seconds = time.monotonic() - started
            if verdict.outcome == ctest_junit.SURVIVED:
                waiting = pair
            else:
                self.judged(pair, verdict, stage)
        finally:
            with self.lane_available:
                self.free_lanes.append(lane)
                lane.gpu.busy -= 1
                if waiting:
                    lane.gpu.waiting.append(waiting)
                self.lane_available.notify()
        self.run_large_batch(lane.gpu)

    def run_large_batch(self, gpu):
        """Runs the large stages waiting for `gpu`, alone on it, once a lane's worth of them waits
        or no lane of it is busy (the last pair's end always finds none busy)."""
        with self.lane_available:
            if not gpu.waiting or (gpu.busy and len(gpu.waiting) < gpu.lanes):
                return
            batch, gpu.waiting = gpu.waiting, []
        print(f"the large stages of {len(batch)} pairs, alone on their GPU", flush=True)
        gpu.lock.acquire(True)
        try:
            for pair in batch:
                started = time.monotonic()
                verdict, stage = self.stages(pair, gpu.large_spec, [LARGE_STAGE])
                pair.seconds += time.monotonic() - started
                self.judged(pair, verdict, stage)
        finally:
            gpu.lock.release(True)

    def stages(self, pair, spec, stages):
        if self.gpu_lost:  # a pair waiting for its large stage when the GPU was lost
            return ctest_junit.Verdict(ctest_junit.NOT_RUN), ""
        try:
            return run_stages(
                self.args.build_dir, os.path.dirname(pair.library), pair.label, spec, stages, pair.log_prefix
            )
        except (OSError, subprocess.SubprocessError) as error:  # ctest missing or not startable
            return ctest_junit.Verdict(ctest_junit.ERROR, (str(error),)), ""

    def log_prefix(self, mutant, label):
        return os.path.join(self.args.work_dir, "logs", f"{patch_name(mutant.id)}@{label.replace('/', '+')}")

    def judged(self, pair, verdict, stage):
        if not self.gpu_lost:  # after a lost GPU nothing is judged
            verdict = ctest_runs.after_gpu_check(verdict, self.args.build_dir)
            self.record(pair.mutant, [pair.label], verdict, stage, pair.seconds, pair.log_prefix + ".*.log")
            print(
                f"{pair.mutant.id} [{pair.label}]: {verdict.outcome} {stage} in {pair.seconds:.0f} s "
                f"{' '.join(verdict.killed_by)}",
                flush=True,
            )
        self.done_with(pair.library, pair.remaining)

    def done_with(self, library, remaining):
        """One pair of the library's mutant judged; the library goes with its last."""
        with self.lock:
            remaining[0] -= 1
            done = remaining[0] == 0
        if done:
            shutil.rmtree(os.path.dirname(library), ignore_errors=True)
            self.waiting_libraries.release()


@dataclass
class PairInFlight:
    """A (mutant, variant) pair between its stages; `seconds` counts its stages' time so far."""

    mutant: object
    label: str
    library: str
    remaining: list  # [pairs of the mutant's library not yet judged]
    log_prefix: str
    seconds: float = 0.0


def prepared_slots(args):
    """The campaign's build slots, each prepared (built, reused or updated:
    mutant_builds.BuildSlot.prepare)."""
    slots = [BuildSlot(args.work_dir, index, args.build_jobs) for index in range(args.build_slots)]
    with ThreadPoolExecutor(len(slots)) as pool:
        list(pool.map(lambda slot: slot.prepare(ROOT), slots))
    return slots


def preparations(slots):
    """'2 build slots prepared (1 reused, 1 updated)'."""
    kinds = [slot.preparation for slot in slots]
    named = ("built", "reused", "reused for linking", "updated")
    counted = ", ".join(f"{kinds.count(kind)} {kind}" for kind in named if kind in kinds)
    return f"{len(slots)} build slots prepared ({counted})"


def main():
    signal.signal(signal.SIGINT, stop_on_interrupt)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--variant", help="one variant's mutants, against its tests (a label: scan/naive)")
    mode.add_argument("--sample", type=int, help="N mutants drawn at random (with --seed)")
    mode.add_argument(
        "--changed-since",
        metavar="REF",
        help="the mutants of the kernel lines changed since a git ref (committed or not, new files "
        "too), each against the variants it maps to; the survivors' diffs are printed last",
    )
    mode.add_argument(
        "--catalogue",
        nargs="*",
        metavar="NAME",
        help="the catalogue's planted bugs (catalogue/NAME.patch; all if no NAME), each kill reproduced "
        "(catalogue_run.py); --work-dir defaults to $KERNELS_MUTANTS_DIR or build-mutants",
    )
    mode.add_argument(
        "--rejudge",
        nargs="+",
        metavar="RESULTS",
        help="judge again pairs that earlier campaigns killed (their results.json files) and compare "
        "(rejudge.py): --pairs of them drawn with --seed; exit 1 if one is not killed now",
    )
    parser.add_argument("--pairs", type=int, default=100, help="with --rejudge: how many pairs (default 100)")
    parser.add_argument(
        "--operator-class",
        choices=CLASSES,
        metavar="CLASS",
        help="only the mutants of this operator class (operators.CLASSES: operand_order, barrier, ...), "
        "each against the variants it maps to, or within --variant, --sample or --changed-since",
    )
    parser.add_argument(
        "--file",
        metavar="PATH",
        help="only the mutants of this source file (under kernels/: sort/radix_onesweep.cu), each against the "
        "variants it maps to, or within --variant, --sample or --changed-since: a campaign of one kernel file",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget-s", type=float, help="start nothing new after this many seconds")
    parser.add_argument(
        "--build-dir",
        default=os.environ.get("KERNELS_BUILD_DIR", os.path.join(ROOT, "build")),
        help="the normal build (tests): $KERNELS_BUILD_DIR or build",
    )
    parser.add_argument("--work-dir", help="default: build-mutation (build-mutants with --catalogue)")
    cores = os.cpu_count() or 2
    parser.add_argument("--build-slots", type=int, default=max(1, cores // 2), help="mutants built at once")
    parser.add_argument(
        "--build-jobs", type=int, help="compile jobs of each build slot: 2 (with --catalogue: all cores)"
    )
    parser.add_argument(
        "--compile-jobs",
        type=int,
        default=cores,
        help="mutants of a file the library compiles alone, compiled at once outside the slots (default: all cores)",
    )
    parser.add_argument("--lanes-per-gpu", type=int, default=4, help="pairs run at once on each GPU")
    parser.add_argument("--build-only", action="store_true", help="build the mutants, run nothing (no GPU needed)")
    parser.add_argument(
        "--prepare-only",
        action="store_true",
        help="prepare the build slots and stop (no GPU needed): a GPU machine given the work folder reuses them",
    )
    parser.add_argument(
        "--object-cache",
        help="keep each compiled mutant's object files here, and link (not compile) those kept before "
        "under the same sources and compiler: --build-only on any machine, then the run on the GPU one",
    )
    parser.add_argument("--list", action="store_true", help="print the (mutant, variant) pairs and stop")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep the pairs that <work>/results.json (this suite and mode) judged; run the rest",
    )
    parser.add_argument(
        "--across-suites",
        action="store_true",
        help="with --resume, after the kernels, tests or build files changed: keep the kills and the "
        "equivalent survivors judged under the earlier suites (the report names them), judge the rest again",
    )
    parser.add_argument("--min-score", type=float, help="exit 1 if a variant scores below this (0.95: 95 %%)")
    args = parser.parse_args()
    if args.catalogue is not None:
        if args.operator_class:
            parser.error("--operator-class selects generated mutants, not the catalogue's")
        args.build_jobs = args.build_jobs or cores
        args.work_dir = args.work_dir or os.environ.get("KERNELS_MUTANTS_DIR", os.path.join(ROOT, "build-mutants"))
        sys.exit(catalogue_run.main(args))
    args.work_dir = args.work_dir or os.path.join(ROOT, "build-mutation")
    args.build_jobs = args.build_jobs or 2
    if args.prepare_only:
        start = time.monotonic()
        slots = prepared_slots(args)
        print(f"{preparations(slots)} in {args.work_dir}, in {time.monotonic() - start:.0f} s")
        return

    mutants, _ = generate(ROOT)
    if args.variant and not any(args.variant in m.variants for m in mutants):
        sys.exit(f"no mutant maps to variant {args.variant!r} (labels look like scan/naive)")
    if args.file:
        mutants = of_file(mutants, args.file)
        if not mutants:
            sys.exit(f"no mutant of {args.file!r} (a file under kernels/ the generator reads: sort/radix_onesweep.cu)")
    if args.changed_since:
        try:
            mutants = changed_lines.mutants_of(mutants, changed_lines.changed_lines(ROOT, args.changed_since))
        except changed_lines.UnknownRef as error:
            sys.exit(str(error))
        if not mutants:
            print(f"no mutant lies on a kernel line changed since {args.changed_since}: nothing to run")
            return
    if args.rejudge:
        kills = rejudge.earlier_kills(args.rejudge, mutants)
        planned = rejudge.drawn(kills, mutants, args.pairs, args.seed)
    else:
        planned = select_pairs(mutants, args.variant, args.sample, args.seed, args.operator_class)
    if args.operator_class and not planned:
        within = f" of variant {args.variant}" if args.variant else " on the changed lines" if args.changed_since else ""
        print(f"no {args.operator_class} mutant{within}: nothing to run")
        return
    if args.list:
        for mutant, label in planned:
            print(f"{mutant.id} {label}")
        print(f"{len({m.id for m, _ in planned})} mutants, {len(planned)} (mutant, variant) pairs")
        return

    mode = (
        f"rejudge {len(planned)} pairs seed {args.seed}"
        if args.rejudge
        else f"variant {args.variant}"
        if args.variant
        else f"changed since {args.changed_since}"
        if args.changed_since
        else f"sample {args.sample} seed {args.seed}"
        if args.sample is not None
        else "full"
    )
    if args.file:
        mode = f"file {args.file}" if mode == "full" else f"{mode}, file {args.file}"
    if args.operator_class:
        mode = f"class {args.operator_class}" if mode == "full" else f"{mode}, class {args.operator_class}"
    mode += " (build only)" if args.build_only else ""
    commit = current_commit()
    suite = suite_digest()
    args.work_dir = os.path.abspath(args.work_dir)
    args.build_dir = os.path.abspath(args.build_dir)
    results_path = os.path.join(args.work_dir, "results.json")
    equivalents = report.by_id(report.load_triage(report.EQUIVALENTS), mutants)
    kept, runs = [], []
    if args.resume:
        try:
            # A build-only run resumes the campaign it builds for: it builds only what is left.
            campaign_mode = mode.removesuffix(" (build only)")
            kept, runs = earlier_run(results_path, suite, campaign_mode, mutants, args.across_suites, equivalents)
        except AnotherCampaign as refusal:
            sys.exit(str(refusal))
    judged = {(r["mutant"], r["variant"]) for r in kept}
    pairs = [(mutant, label) for mutant, label in planned if (mutant.id, label) not in judged]
    if kept:
        print(f"resuming: {len(judged)} pairs judged before, {len(pairs)} to run", flush=True)
    os.makedirs(os.path.join(args.work_dir, "logs"), exist_ok=True)
    lanes = [] if args.build_only else gpu_lanes(args.work_dir, args.lanes_per_gpu)
    unreachable = ctest_runs.gpu_probe_failure(args.build_dir) if lanes else None
    if unreachable:  # the driver may list a GPU (gpu_lanes) that CUDA cannot reach
        sys.exit(f"no GPU to judge on: {unreachable}")
    meta = {"commit": commit, "suite": suite, "mode": mode, "budget_s": args.budget_s}
    planned_mutants = [asdict(m) for m in {m.id: m for m, _ in planned}.values()]
    results_file = ResultsFile(results_path, meta, planned_mutants, kept, runs)
    slots = prepared_slots(args)
    print(f"{preparations(slots)} after {results_file.elapsed_s()} s", flush=True)
    cache = ObjectCache(os.path.abspath(args.object_cache), source_digest(ROOT)) if args.object_cache else None
    campaign = Campaign(args, pairs, lanes, cache, results_file)
    campaign.run(slots)
    results = results_file.write(campaign.results)
    named = report.by_id(report.load_triage(report.NAMED_SURVIVORS), mutants)
    outputs = report.write_report(results, equivalents, os.path.join(args.work_dir, "report"), named)
    print(f"results: {results_path}; report: {', '.join(outputs)}")
    if campaign.gpu_lost:
        sys.exit(f"the GPU was lost: {campaign.gpu_lost}; the campaign stopped there (--resume on a working GPU)")
    if args.changed_since:
        print_survivors(results, {m.id: m for m, _ in planned}, equivalents, named)
    if args.rejudge and not args.build_only:
        lost, path = rejudge.write_comparison(kills, results, os.path.join(args.work_dir, "report"))
        print(f"earlier kills judged again: {path}")
        if lost:
            sys.exit(f"{len(lost)} earlier kills are not kills now: see {path}")
    if args.min_score is not None:
        weak = report.below(results, equivalents, args.min_score)
        if weak:
            sys.exit("below the minimum score: " + ", ".join(f"{v} {100 * s:.1f} %" for v, s in weak))


if __name__ == "__main__":
    main()
