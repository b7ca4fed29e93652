"""Judging again what earlier campaigns killed: a harness change that makes the suite faster must
not make it weaker. Only kills are drawn: a survivor judged again says nothing of power lost."""

import json
import os
import random

import ctest_junit

KILLS = (ctest_junit.KILLED, ctest_junit.KILLED_BY_TIMEOUT)


def earlier_kills(paths, mutant_ids):
    """The (mutant id, variant) pairs the results files report killed, of mutants made today."""
    kills = set()
    for path in paths:
        with open(path, encoding="utf-8") as file:
            results = json.load(file)["results"]
        kills |= {(r["mutant"], r["variant"]) for r in results if r["outcome"] in KILLS and r["mutant"] in mutant_ids}
    return kills


def drawn(kills, mutants, count, seed):
    """`count` of the pairs (all if fewer), drawn with `seed`, as (mutant, variant) in id order."""
    by_id = {m.id: m for m in mutants}
    chosen = random.Random(seed).sample(sorted(kills), min(count, len(kills)))
    return [(by_id[mutant], variant) for mutant, variant in sorted(chosen)]


def write_comparison(kills, results, folder):
    """<folder>/rejudged.md: each earlier kill judged again and what it is now. Returns the pairs
    that are not kills now (a pair the budget left unrun is none) and the path."""
    now = {(r["mutant"], r["variant"]): "killed" if r["outcome"] in KILLS else r["outcome"]
           for r in results["results"] if (r["mutant"], r["variant"]) in kills}  # fmt: skip
    lost = sorted(pair for pair, outcome in now.items() if outcome not in ("killed", ctest_junit.NOT_RUN))
    counts = ", ".join(f"{sum(o == outcome for o in now.values())} {outcome}" for outcome in sorted(set(now.values())))
    lines = ["# Earlier kills judged again", "", f"{len(now)} pairs that earlier campaigns killed, judged again: {counts}."]
    if lost:
        lines += ["", "## Not killed now", ""] + [f"- `{m}` [{v}]: {now[(m, v)]}" for m, v in lost]
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "rejudged.md")
    with open(path, "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")
    return lost, path
