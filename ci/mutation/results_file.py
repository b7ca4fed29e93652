"""<work>/results.json: {meta (commit, suite, mode, runs...), mutants, results} of a campaign's runs."""

import datetime
import json
import os
import platform
import subprocess
import tempfile

import ctest_junit
from mutant_builds import files_digest
from python_deps import ROOT

# Outcomes that judge a pair for good; a resumed run judges the others (not run, error) again.
JUDGED = (ctest_junit.KILLED, ctest_junit.KILLED_BY_TIMEOUT, ctest_junit.SURVIVED, ctest_junit.NOT_COMPILING)
# What a pair's outcome depends on besides its mutant: a campaign resumes only over the same files.
SUITE_FILES = ("CMakeLists.txt", "CMakePresets.json", "cmake", "fuzz", "kernels", "test")


def current_commit(root=ROOT):
    """The checkout's commit, +modified when its files differ from it."""
    commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout
    modified = subprocess.run(["git", "-C", root, "diff", "--quiet", "HEAD"], capture_output=True).returncode
    return commit.strip() + ("+modified" if modified else "")


def suite_digest(root=ROOT):
    return files_digest(root, SUITE_FILES).hexdigest()[:16]


class AnotherCampaign(Exception):
    """results.json holds a run of another mode, or over another suite."""


def mutant_record(mutant):
    return {key: getattr(mutant, key) for key in ("id", "file", "line", "operator", "op_class", "variants")}


def result_record(mutant_id, variant, verdict, stage="", seconds=0.0, **extra):
    """One judged pair; a catalogue run adds how a kill was `reproduced`."""
    return {"mutant": mutant_id, "variant": variant, "outcome": verdict.outcome, "stage": stage,
            "killed_by": list(verdict.killed_by), "seconds": round(seconds, 1), **extra}  # fmt: skip


def earlier_run(path, suite, mode, mutant_ids):
    """(kept results, runs) in `path`: the pairs judged for good whose mutant is still made today."""
    if not os.path.exists(path):
        return [], []
    with open(path, encoding="utf-8") as file:
        earlier = json.load(file)
    meta = earlier["meta"]
    if meta["mode"] != mode or meta.get("suite") != suite:
        raise AnotherCampaign(f"--resume: {path} holds a run in mode {meta['mode']!r} over suite {meta.get('suite')}, "
                              f"not in mode {mode!r} over suite {suite}: use another --work-dir")  # fmt: skip
    kept = [r for r in earlier["results"] if r["outcome"] in JUDGED and r["mutant"] in mutant_ids]
    return kept, meta.get("runs", [])


class ResultsFile:
    """<work>/results.json, rewritten atomically after every pair so that --resume keeps what was judged."""

    def __init__(self, path, meta, mutants, kept, runs):
        self.path, self.meta, self.mutants, self.kept, self.runs = path, meta, mutants, kept, runs
        self.started = datetime.datetime.now(datetime.timezone.utc)
        self.this_run = {"date": self.started.strftime("%Y-%m-%d %H:%M UTC"), "machine": machine_description(),
                         "commit": meta["commit"]}  # fmt: skip

    def write(self, new_results):
        """Writes the kept and the new results with this run's wall time so far; returns them."""
        elapsed_s = round((datetime.datetime.now(datetime.timezone.utc) - self.started).total_seconds())
        runs = self.runs + [{**self.this_run, "wall_s": elapsed_s}]
        meta = {**self.meta, "wall_s": sum(run["wall_s"] for run in runs), "runs": runs}
        ordered = sorted(self.kept + list(new_results), key=lambda r: (r["mutant"], r["variant"]))
        results = {"meta": meta, "mutants": self.mutants, "results": ordered}
        with tempfile.NamedTemporaryFile("w", dir=os.path.dirname(self.path), delete=False, encoding="utf-8") as file:
            json.dump(results, file, indent=1)
        os.replace(file.name, self.path)
        return results


def machine_description():
    try:
        listed = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True, text=True)
        gpus = [name.strip() for name in listed.stdout.split("\n") if name.strip() and listed.returncode == 0]
    except OSError:
        gpus = []
    return f"{platform.node()}: {os.cpu_count()} cores, {f'{len(gpus)} x {gpus[0]}' if gpus else 'no GPU'}"
