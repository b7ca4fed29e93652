#!/usr/bin/env python3
"""The report of a mutation run (report.py RESULTS_JSON OUT_DIR): scores, survivors, operand order."""

import argparse
import io
import json
import os
from collections import Counter, defaultdict
from pathlib import Path

import ctest_junit as outcomes
from generate import generate
from operators import CLASSES

HERE = os.path.dirname(os.path.abspath(__file__))
EQUIVALENTS = os.path.join(HERE, "triage", "equivalent.txt")
NAMED_SURVIVORS = os.path.join(HERE, "triage", "named_survivors.txt")
CONTRACTS = os.path.normpath(os.path.join(HERE, "..", "..", "test", "cpu", "declared_contracts.txt"))
COLUMNS = ["generated", "killed", "killed_timeout", "survived", "equivalent", "not_compiling", "not_run", "error"]
_UNJUDGED = ["equivalent", "not_compiling", "not_run", "error"]
NOT_REPRODUCED = "NOT REPRODUCED"


def load_triage(path):
    """{(mutant id, variant label or None for all): reason} of lines `<id>[@<label>] <reason>`."""
    triage = {}
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            if not line.strip() or line.startswith("#"):
                continue
            name, _, reason = line.strip().partition(" ")
            mutant, _, label = name.partition("@")
            if not reason.strip() or (mutant, label or None) in triage:
                raise ValueError(f"{path}:{number}: {name} has no reason or is listed twice")
            triage[(mutant, label or None)] = reason.strip()
    return triage


def equivalence(triage, mutant, label):
    return triage.get((mutant, label)) or triage.get((mutant, None))


def score(counts):
    judged = counts["generated"] - sum(counts[c] for c in _UNJUDGED)
    return (counts["killed"] + counts["killed_timeout"]) / judged if judged else None


def tally(results, equivalents):
    """Counts per variant and per class, and the survivors {mutant: [variants]}."""
    op_class = {m["id"]: m["op_class"] for m in results["mutants"]}
    by_variant, by_class, survivors = defaultdict(Counter), defaultdict(Counter), defaultdict(list)
    for result in results["results"]:
        column = result["outcome"]
        if column == outcomes.SURVIVED and equivalence(equivalents, result["mutant"], result["variant"]):
            column = "equivalent"
        for counts in (by_variant[result["variant"]], by_class[op_class[result["mutant"]]]):
            counts["generated"] += 1
            counts[column] += 1
        if column == outcomes.SURVIVED:
            survivors[result["mutant"]].append(result["variant"])
    return by_variant, by_class, survivors


def below(results, equivalents, minimum):
    """(variant, score) of every variant whose score is below `minimum` (a fraction)."""
    scores = {v: score(c) for v, c in tally(results, equivalents)[0].items()}
    return [(v, s) for v, s in sorted(scores.items()) if s is not None and s < minimum]


def gpu_lost(results):
    return [f"`{r['mutant']}` [{r['variant']}]: {'; '.join(r['killed_by'])}" for r in results["results"]
            if outcomes.gpu_lost(outcomes.Verdict(r["outcome"], tuple(r.get("killed_by", []))))]  # fmt: skip


def load_order_flags(path=CONTRACTS):
    """{variant: True where it keeps operand order}, from its first line of `path`."""
    flags = {}
    with open(path, encoding="utf-8") if os.path.exists(path) else io.StringIO() as file:
        for fields in map(str.split, file):
            if fields and not fields[0].startswith("#") and fields[0] not in flags:
                values = dict(f.split("=", 1) for f in fields[1:] if "=" in f)
                flags[fields[0]] = {"1": True, "0": False}.get(values.get("keeps_operand_order"))
    return flags


def _percent(value):
    return "n/a" if value is None else f"{100 * value:.1f} %"


def _table(header, rows):
    return ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)] + [
        "| " + " | ".join(map(str, row)) + " |" for row in rows]  # fmt: skip


def _row(name, counts):
    killed = counts["killed"] + counts["killed_timeout"]
    return [name, _percent(score(counts)), counts["generated"], killed, counts["survived"], counts["equivalent"],
            counts["not_compiling"], counts["not_run"] + counts["error"]]  # fmt: skip


def markdown(results, equivalents, named, mutants_today=None):
    by_variant, by_class, survivors = tally(results, equivalents)
    meta, lost = results["meta"], gpu_lost(results)
    lines = [f"NOT A SCORE: the GPU was lost judging {'; '.join(lost)}. Resume on a working GPU.", ""] if lost else []
    runs = f"{len(meta.get('runs', []))} run(s), {meta.get('wall_s', 0)} s in all"
    lines += [f"# Mutation report: {meta['mode']}", "", f"Commit {meta['commit']}, suite {meta.get('suite')}, {runs}."]
    header = ["", "score", "pairs", "killed", "survived", "equivalent", "not compiling", "not run or error"]
    lines += ["", "## Per variant", ""] + _table(header, [_row(v, c) for v, c in sorted(by_variant.items())]) + [""]
    classes = [k for k in CLASSES if k in by_class] + sorted(k for k in by_class if k not in CLASSES)
    lines += ["## Per operator class", ""] + _table(header, [_row(k, by_class[k]) for k in classes]) + [""]
    checked = [r for r in results["results"] if "reproduced" in r and r["outcome"].startswith(outcomes.KILLED)]
    if checked:
        reproduced = sum(not r["reproduced"].startswith(NOT_REPRODUCED) for r in checked)
        lines += [f"{reproduced} of the {len(checked)} kills reproduced.", ""]
    lines += _order_lines(results, equivalents)
    lines += [f"## Survivors ({sum(len(v) for v in survivors.values())} pairs)", ""]
    for mutant, variants in sorted(survivors.items()):
        reasons = "; ".join(f"{v}: {why}" for v in sorted(variants) if (why := equivalence(named, mutant, v)))
        lines.append(f"- `{mutant}`: {', '.join(sorted(variants))}" + (f". Named: {reasons}" if reasons else ""))
        if mutants_today and mutant in mutants_today:
            lines += ["", "```diff", mutants_today[mutant].diff.rstrip("\n"), "```", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def _order_lines(results, equivalents):
    """Per variant, its operand swaps and whether its contract requires them killed."""
    ids = {m["id"] for m in results["mutants"] if m["op_class"] == "operand_order"}
    swaps = {"mutants": results["mutants"], "results": [r for r in results["results"] if r["mutant"] in ids]}
    rows = tally(swaps, equivalents)[0]  # counted as the scores are, equivalents included
    if not rows:
        return []
    flags, keeps = load_order_flags(), {True: "yes", False: "no", None: "?"}
    table = [[v, keeps[flags.get(v)], c["generated"], c["killed"] + c["killed_timeout"], c["survived"], c["equivalent"]]
             for v, c in sorted(rows.items())]  # fmt: skip
    missed = sum(c["survived"] for v, c in rows.items() if flags.get(v))
    verdict = f"{missed} operand swaps survive on variants that keep order." if missed else (
        "Every operand swap is killed on every variant that keeps order.")  # fmt: skip
    return ["## Operand order", "", verdict, ""] + _table(
        ["", "keeps order", "swaps", "killed", "survived", "equivalent"], table) + [""]  # fmt: skip


def write_report(results, out_dir, mutants_today=None, triaged=True):
    """report.md and report.json in out_dir, triaged unless the planted bugs; returns their paths."""
    equivalents, named = (load_triage(EQUIVALENTS), load_triage(NAMED_SURVIVORS)) if triaged else ({}, {})
    os.makedirs(out_dir, exist_ok=True)
    paths = [os.path.join(out_dir, "report.md"), os.path.join(out_dir, "report.json")]
    Path(paths[0]).write_text(markdown(results, equivalents, named, mutants_today), encoding="utf-8")
    by_variant, by_class, survivors = tally(results, equivalents)
    summary = {"meta": results["meta"]}
    for key, groups in (("variants", by_variant), ("classes", by_class)):
        summary[key] = {g: {"score": score(c), **{k: c[k] for k in COLUMNS}} for g, c in sorted(groups.items())}
    summary.update(survivors={m: sorted(vs) for m, vs in sorted(survivors.items())}, gpu_lost=gpu_lost(results))
    Path(paths[1]).write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return paths


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results")
    parser.add_argument("out_dir")
    args = parser.parse_args()
    results = json.loads(Path(args.results).read_text(encoding="utf-8"))
    mutants = {m.id: m for m in generate()[0]}  # the survivors' diffs, as today's sources make them
    for path in write_report(results, args.out_dir, mutants, results["meta"]["mode"] != "catalogue"):
        print(path)


if __name__ == "__main__":
    main()
