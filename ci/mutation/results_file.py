"""<work>/results.json: what a mutation run judged, and the runs of its campaign.

{meta: {date, machine, commit, suite, mode, budget_s, wall_s, runs}, mutants: [Mutant as a dict],
results: [{mutant, variant, outcome, stage, killed_by, seconds, log, suite, commit}, and for a
catalogue mutant reproduced]}. report.py makes the report of it.
"""

import datetime
import json
import os
import platform
import subprocess
import tempfile

import ctest_junit
import report
from generate import mutant_key
from mutant_builds import files_digest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
# Outcomes that judge a pair for good; --resume runs the others (not run, error) again.
JUDGED = (ctest_junit.KILLED, ctest_junit.KILLED_BY_TIMEOUT, ctest_junit.SURVIVED, ctest_junit.NOT_COMPILING)
# Outcomes kept from a run over another suite with --across-suites: a kill stays a kill once a test
# caught the mutant, since tests are only added or strengthened (never loosened), and the report
# names the suite that judged it. earlier_run also keeps a survivor that equivalent.txt judges
# equivalent (no suite can tell it from the original code, whatever tests were added). Any other
# survivor, and a mutant that did not compile, is judged again.
KEPT_ACROSS_SUITES = (ctest_junit.KILLED, ctest_junit.KILLED_BY_TIMEOUT)
# What a pair's outcome depends on besides its mutant: the library, the tests and their harness,
# the properties (which kill most of some variants' mutants), the build files. A campaign resumes
# only over the same files, whatever commits lie between (a sitting on another day, after commits
# that touched only documentation, goes on).
SUITE_FILES = ("CMakeLists.txt", "CMakePresets.json", "cmake", "fuzz", "kernels", "test")


def current_commit(root=ROOT):
    """The checkout's commit, +modified when its files differ from it."""
    commit = subprocess.run(
        ["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    # A copy of a working tree (a lent GPU machine's) may carry a .git of another commit: say so.
    # The suite digest, computed from the files themselves, is what a result is judged under.
    if subprocess.run(["git", "-C", root, "diff", "--quiet", "HEAD"], check=False).returncode != 0:
        commit += "+modified"
    return commit


def suite_digest(root=ROOT):
    return files_digest(root, SUITE_FILES).hexdigest()[:16]


class AnotherCampaign(Exception):
    """results.json holds a run of another mode, or over another suite."""


def todays_ids(earlier_mutants, mutants):
    """{earlier id: today's id} of the earlier run's mutants that the generator still makes: the
    same id with the same diff, or else the one mutant of today with the same key (an edit
    elsewhere in the file moved its lines; generate.mutant_key). A mutant whose change or context
    is gone, or whose key two of today's mutants share, has no entry: it is judged again."""
    by_id = {m.id: m for m in mutants}
    by_key = {}
    for mutant in mutants:
        by_key.setdefault(mutant.key, []).append(mutant.id)
    today = {}
    for earlier in earlier_mutants:
        same = by_id.get(earlier["id"])
        if same is not None and same.diff == earlier["diff"]:
            today[earlier["id"]] = earlier["id"]
        elif "file" in earlier and "operator" in earlier:
            moved = by_key.get(mutant_key(earlier["file"], earlier["operator"], earlier["diff"]), [])
            if len(moved) == 1:
                today[earlier["id"]] = moved[0]
    return today


def earlier_run(path, suite, mode, mutants, across_suites=False, equivalents=None):
    """(kept results, runs) of the earlier runs of this campaign kept in `path`; nothing when there
    is no file. The mode must be this one. Each result and run names the suite digest and commit
    that judged it. Results of this suite that judged their pair are kept; with `across_suites`,
    so are kills judged under other suites (KEPT_ACROSS_SUITES) and survivors that `equivalents`
    (report.load_triage) names, and without it another suite raises AnotherCampaign. A pair whose mutant's
    change is no longer today's (the generator, or the mutated lines or their context changed) is
    never kept; one whose lines moved is kept under today's id (todays_ids). A run is
    {date, machine, wall_s, commit, suite}."""
    if not os.path.exists(path):
        return [], []
    with open(path, encoding="utf-8") as file:
        earlier = json.load(file)
    meta = earlier["meta"]
    judged_under = {"suite": meta.get("suite"), "commit": meta["commit"]}
    if meta["mode"] != mode or (meta.get("suite") != suite and not across_suites):
        raise AnotherCampaign(
            f"--resume: {path} holds a run in mode {meta['mode']!r} over suite {meta.get('suite')} "
            f"(commit {meta['commit']}), not in mode {mode!r} over suite {suite}: the kernels, tests "
            f"or build files ({', '.join(SUITE_FILES)}) changed since (--across-suites keeps its kills), "
            "or the mode is another"
        )
    runs = meta.get("runs") or [{key: meta[key] for key in ("date", "machine", "wall_s")}]
    runs = [{**judged_under, **run} for run in runs]
    today = todays_ids(earlier.get("mutants", []), mutants)
    kept, seen = [], set()
    for result in earlier["results"]:
        result = {**judged_under, **result}
        same_suite = result["suite"] == suite
        if result["mutant"] not in today or (today[result["mutant"]], result["variant"]) in seen:
            continue
        result["mutant"] = today[result["mutant"]]
        seen.add((result["mutant"], result["variant"]))
        if same_suite:
            keep = result["outcome"] in JUDGED
        else:
            keep = result["outcome"] in KEPT_ACROSS_SUITES or (
                result["outcome"] == ctest_junit.SURVIVED
                and report.equivalence(equivalents or {}, result["mutant"], result["variant"]) is not None
            )
        if keep:
            kept.append(result)
    return kept, runs


class ResultsFile:
    """<work>/results.json, rewritten (whole, atomically) after every judged pair: a sitting cut off
    by a lent machine taken back or a call's time limit keeps what it judged, for --resume."""

    def __init__(self, path, meta, mutants, kept, runs):
        self.path, self.meta, self.mutants, self.kept, self.runs = path, meta, mutants, kept, runs
        self.started = datetime.datetime.now(datetime.UTC)
        self.this_run = {
            "date": self.started.strftime("%Y-%m-%d %H:%M UTC"),
            "machine": machine_description(),
            "commit": meta["commit"],
            "suite": meta["suite"],
        }

    def elapsed_s(self):
        return round((datetime.datetime.now(datetime.UTC) - self.started).total_seconds())

    def write(self, new_results):
        """Writes the kept and the new results with this run's wall time so far; returns them."""
        wall = self.elapsed_s()
        runs = self.runs + [{**self.this_run, "wall_s": wall}]
        judged_now = [{**r, "suite": self.meta["suite"], "commit": self.meta["commit"]} for r in new_results]
        results = {
            "meta": {**runs[0], **self.meta, "wall_s": sum(run["wall_s"] for run in runs), "runs": runs},
            "mutants": self.mutants,
            "results": sorted(self.kept + judged_now, key=lambda r: (r["mutant"], r["variant"])),
        }
        with tempfile.NamedTemporaryFile("w", dir=os.path.dirname(self.path), delete=False, encoding="utf-8") as file:
            json.dump(results, file, indent=1)
        os.replace(file.name, self.path)
        return results




def machine_description():
    try:
        names = subprocess.run(
            ["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True, text=True, check=True
        ).stdout.split("\n")
        gpus = [name.strip() for name in names if name.strip()]
        gpu_text = f"{len(gpus)} x {gpus[0]}" if gpus else "no GPU"
    except (OSError, subprocess.CalledProcessError):
        gpu_text = "no GPU"
    return f"{platform.node()}: {os.cpu_count()} cores, {gpu_text}"
