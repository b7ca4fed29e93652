"""Judging again what earlier campaigns killed: does today's suite keep their kills?

A harness change that makes the suite faster (fewer processes, judges on the device, sampled
checks) must not make it weaker. `run_mutants.py --rejudge RESULTS... --pairs N` draws N of the
(mutant, variant) pairs that the earlier campaigns' results.json files report killed, whose
mutant today's generator still makes with the same diff, judges them again and compares: a kill
that became a survivor is power lost and fails the run, as does a pair it could not judge. Only
kills are drawn: a survivor judged again can stay one or be killed, and neither says power was
lost.
"""

import json
import os
import random

import ctest_junit

KILLS = (ctest_junit.KILLED, ctest_junit.KILLED_BY_TIMEOUT)


def earlier_kills(paths, mutants):
    """The (mutant id, variant) pairs the files report killed whose mutant today's generator makes
    with the same diff."""
    today = {m.id: m.diff for m in mutants}
    kills = set()
    for path in paths:
        with open(path, encoding="utf-8") as file:
            campaign = json.load(file)
        then = {m["id"]: m["diff"] for m in campaign["mutants"]}
        for result in campaign["results"]:
            mutant = result["mutant"]
            if result["outcome"] in KILLS and today.get(mutant) is not None and today[mutant] == then.get(mutant):
                kills.add((mutant, result["variant"]))
    return kills


def drawn(kills, mutants, count, seed):
    """`count` of the pairs (all if fewer), drawn with `seed`, as (mutant, variant) in id order."""
    by_id = {m.id: m for m in mutants}
    chosen = random.Random(seed).sample(sorted(kills), min(count, len(kills)))
    return [(by_id[mutant], variant) for mutant, variant in sorted(chosen)]


def write_comparison(kills, results, folder):
    """rejudged.md in `folder`: each earlier kill judged again in `results` (a results.json's
    content, as ResultsFile.write returns it) and what it is now. Returns the
    pairs that are not kills now (survivors, or pairs the run could not judge) and the path; a
    pair the time budget left unrun is neither (a --resume sitting judges it)."""
    now = {}
    for result in results["results"]:
        pair = (result["mutant"], result["variant"])
        if pair in kills:
            now[pair] = "killed" if result["outcome"] in KILLS else result["outcome"]
    lost = sorted(pair for pair, outcome in now.items() if outcome not in ("killed", ctest_junit.NOT_RUN))
    counts = {outcome: sum(o == outcome for o in now.values()) for outcome in sorted(set(now.values()))}
    lines = [
        "# Earlier kills judged again",
        "",
        f"{len(now)} pairs that earlier campaigns killed, judged again: "
        + ", ".join(f"{count} {outcome}" for outcome, count in counts.items())
        + ".",
    ]
    if lost:
        lines += ["", "## Not killed now", ""] + [f"- `{mutant}` [{variant}]: {now[(mutant, variant)]}" for mutant, variant in lost]
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "rejudged.md")
    with open(path, "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")
    return lost, path
