#!/usr/bin/env python3
"""The report of a mutation run: scores per variant, counts per variant and operator class, the
survivors' diffs.

    report.py RESULTS_JSON OUT_DIR [--equivalents FILE] [--named FILE] [--contracts FILE]

RESULTS_JSON is what run_mutants.py writes, for generated or catalogue mutants alike. Writes
OUT_DIR/report.md (the tables), report.json (the same counts), survivors.md (each surviving
mutant's diff and the variants it survived), pairs.md (every pair: its outcome, seconds, what
killed it and how the kill was reproduced) and score.png (the score per variant), and prints
their paths. A catalogue run reproduces each kill (catalogue_run.py): "kcheck: exit 1",
"sanitizer kcheck: exit 1", "no rerun line; entry: fails", or "NOT REPRODUCED (...)"; a generated
run does not ("not checked").

A (mutant, variant) pair counts once for that variant. Triage (equivalent.txt) names mutants, by
key (generate.py), judged equivalent: no test can tell them from the original. named_survivors.txt names survivors
that are real bugs which no test of the suite can be relied on to catch, with the reason: they
still count as survived (the score does not hide them), and the report gives their reasons. A variant's score is
killed / (generated - equivalent - not compiling - not run - error): not run (the budget ran out)
and error (ctest could not judge) are left out of the denominator like the two that the issue
names, and shown beside it, so that an incomplete run says so instead of scoring low. A run that
lost its GPU (ctest_junit.gpu_lost) stopped there: report.md opens with NOT A SCORE.

When the results hold operand_order mutants (`op(a, b)` made `op(b, a)`), report.md has a section
"Operand order": per variant, whether it keeps order, its swap mutants, the killed and the
survivors (those the triage judges equivalent for the variant marked so). Whether a variant keeps order is its contract's flag in test/cpu/declared_contracts.txt
(--contracts), on the variant's first line: commutative_only=0 keeps order, and every swap must be
killed; commutative_only=1 admits only commutative ops, so its survivors are not required; a
variant without the flag shows "?". report.json has the same under "operand_order".
"""

import argparse
import json
import os
from collections import Counter, defaultdict

import ctest_junit as outcomes
from generate import mutant_key
from operators import CLASSES

HERE = os.path.dirname(os.path.abspath(__file__))
EQUIVALENTS = os.path.join(HERE, "triage", "equivalent.txt")
NAMED_SURVIVORS = os.path.join(HERE, "triage", "named_survivors.txt")
CONTRACTS = os.path.normpath(os.path.join(HERE, "..", "..", "test", "cpu", "declared_contracts.txt"))
OPERAND_ORDER = "operand_order"
COLUMNS = ["generated", "killed", "killed_timeout", "survived", "equivalent", "not_compiling", "not_run", "error"]
_UNJUDGED = ["equivalent", "not_compiling", "not_run", "error"]


def load_triage(path):
    """{(mutant key, variant label or None for every variant): reason} from a triage file whose
    lines read `<key>[@<label>] <reason>` (`#` starts a comment line); by_id() resolves the keys
    of the mutants at hand."""
    equivalents = {}
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, reason = line.partition(" ")
            if not reason.strip():
                raise ValueError(f"{path}:{number}: {key} has no reason")
            mutant, _, label = key.partition("@")
            if (mutant, label or None) in equivalents:
                raise ValueError(f"{path}:{number}: {key} is listed twice")
            equivalents[(mutant, label or None)] = reason.strip()
    return equivalents


def by_id(triage, mutants):
    """The judgements of `triage` (load_triage) for the mutants at hand (Mutant objects, or the
    dicts of a results file), keyed by (mutant id, label): a judgement names what was mutated, so
    it reaches a mutant whose lines moved and no other."""
    ids = defaultdict(list)
    for mutant in mutants:
        fields = mutant if isinstance(mutant, dict) else mutant.__dict__
        ids[mutant_key(fields["file"], fields["operator"], fields["diff"])].append(fields["id"])
    return {(mutant_id, label): reason for (key, label), reason in triage.items() for mutant_id in ids.get(key, ())}


def equivalence(equivalents, mutant, label):
    return equivalents.get((mutant, label)) or equivalents.get((mutant, None))


def category(result, equivalents):
    """The column a pair counts in besides `generated`."""
    outcome = result["outcome"]
    if outcome in {outcomes.KILLED, outcomes.KILLED_BY_TIMEOUT}:
        return outcome
    if equivalence(equivalents, result["mutant"], result["variant"]):
        return "equivalent"
    return outcome


def score(counts):
    judged = counts["generated"] - sum(counts[c] for c in _UNJUDGED)
    return (counts["killed"] + counts["killed_timeout"]) / judged if judged else None


def tally(results, equivalents):
    """Counts per variant and class, per variant, per class; the survivors; and the mutants that
    triage calls equivalent although a test killed them."""
    op_class = {m["id"]: m["op_class"] for m in results["mutants"]}
    by_pair, by_variant, by_class = defaultdict(Counter), defaultdict(Counter), defaultdict(Counter)
    survivors, contradictions = defaultdict(list), []
    for result in results["results"]:
        column = category(result, equivalents)
        keys = (
            by_pair[(result["variant"], op_class[result["mutant"]])],
            by_variant[result["variant"]],
            by_class[op_class[result["mutant"]]],
        )
        for counts in keys:
            counts["generated"] += 1
            counts[column] += 1
        if column == outcomes.SURVIVED:
            survivors[result["mutant"]].append(result["variant"])
        if column.startswith(outcomes.KILLED) and equivalence(equivalents, result["mutant"], result["variant"]):
            contradictions.append(f"{result['mutant']} [{result['variant']}]: {', '.join(result['killed_by'])}")
    return by_pair, by_variant, by_class, survivors, contradictions


def below(results, equivalents, minimum):
    """(variant, score) of every variant whose score is below `minimum` (a fraction)."""
    by_variant = tally(results, equivalents)[1]
    return [(v, score(c)) for v, c in sorted(by_variant.items()) if score(c) is not None and score(c) < minimum]


def classes_of(by_class):
    """The operator classes present, in CLASSES order, then any other (the catalogue's)."""
    return [k for k in CLASSES if k in by_class] + sorted(k for k in by_class if k not in CLASSES)


NOT_CHECKED = "not checked"
NOT_REPRODUCED = "NOT REPRODUCED"


def reproduction(results):
    """(kills, kills reproduced) over the pairs whose run reproduced its kills; None if none did."""
    checked = [r for r in results["results"] if "reproduced" in r and r["outcome"].startswith(outcomes.KILLED)]
    if not checked:
        return None
    return len(checked), sum(not r["reproduced"].startswith(NOT_REPRODUCED) for r in checked)


def gpu_lost(results):
    """The pairs whose run lost its GPU (ctest_junit.gpu_lost): "`mutant` [variant]: what was seen"."""
    return [
        f"`{r['mutant']}` [{r['variant']}]: {'; '.join(r['killed_by'])}"
        for r in results["results"]
        if outcomes.gpu_lost(outcomes.Verdict(r["outcome"], tuple(r.get("killed_by", []))))
    ]


def _gpu_lost_lines(results):
    """A campaign that lost its GPU stopped there: its numbers are no score, and say so first."""
    lost = "; ".join(gpu_lost(results))
    notice = f"NOT A SCORE: the GPU was lost judging {lost}. The campaign stopped there: resume it on a working GPU."
    return [notice, ""] if lost else []


def _reproduction_line(results):
    counts = reproduction(results)
    if counts is None:
        return "Kills were not reproduced: the failure itself is the verdict. Every pair is in pairs.md."
    return f"{counts[1]} of the {counts[0]} kills reproduced; how each was is in pairs.md, with every pair."


def _percent(value):
    return "n/a" if value is None else f"{100 * value:.1f} %"


def _row(cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _table(header, rows):
    return [_row(header), _row(["---"] * len(header)), *(_row(r) for r in rows)]


def _count_cells(counts):
    killed = counts["killed"] + counts["killed_timeout"]
    by_timeout = f" ({counts['killed_timeout']} by timeout)" if counts["killed_timeout"] else ""
    return [
        counts["generated"],
        f"{killed}{by_timeout}",
        counts["survived"],
        counts["equivalent"],
        counts["not_compiling"],
        counts["not_run"] + counts["error"],
    ]


def _earlier_suites(results):
    """The sentence naming the kills and equivalent survivors kept from runs over earlier suites
    (run_mutants.py --across-suites), or nothing when every pair was judged under the current one."""
    current = results["meta"]["suite"]
    earlier = {}
    for r in results["results"]:
        if r.get("suite", current) != current:
            earlier.setdefault((r["suite"], r.get("commit", "?")), []).append(r)
    if not earlier:
        return ""
    parts = [
        f"{sum(r['outcome'] != 'survived' for r in rs)} kills and {sum(r['outcome'] == 'survived' for r in rs)} "
        f"equivalent survivors under suite {suite} (commit {commit})"
        for (suite, commit), rs in sorted(earlier.items())
    ]
    return f"Kept from earlier suites: {', '.join(parts)}; every other pair was judged under this one. "


def _named_reasons(mutant, variants, named):
    """[(variant, reason)] of the variants whose survival of `mutant` named_survivors.txt names."""
    return [(v, equivalence(named, mutant, v)) for v in sorted(variants) if equivalence(named, mutant, v)]


def _survivor_line(mutant, variants, named):
    reasons = [f"{v}: {reason}" for v, reason in _named_reasons(mutant, variants, named)]
    return f"- `{mutant}`: {', '.join(sorted(variants))}" + (f". Named: {'; '.join(reasons)}" if reasons else "")


def _unnamed(survivors, named):
    return sum(len(vs) - len(_named_reasons(m, vs, named)) for m, vs in survivors.items())


def load_order_flags(path=CONTRACTS):
    """{variant label: True where it keeps order (commutative_only=0), False where its contract
    admits only commutative ops (commutative_only=1)}, from the first line of each variant in a
    declared_contracts.txt (`<label> deterministic=1 ... commutative_only=0 ...`); a variant whose
    first line has no such flag, or a missing file, gives no entry."""
    flags, seen = {}, set()
    if not os.path.exists(path):
        return flags
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            fields = line.split()
            if not fields or fields[0].startswith("#") or fields[0] in seen:
                continue
            seen.add(fields[0])
            values = dict(field.split("=", 1) for field in fields[1:] if "=" in field)
            if "commutative_only" in values:
                if values["commutative_only"] not in {"0", "1"}:
                    raise ValueError(f"{path}:{number}: commutative_only={values['commutative_only']}, not 0 or 1")
                flags[fields[0]] = values["commutative_only"] == "0"
    return flags


def operand_order(results, flags, equivalents=None):
    """{variant: {keeps_order, swap_mutants, killed, equivalent, survived, not_judged}} over the
    pairs of operand_order mutants (keeps_order: True, False or None where the contract does not
    say; equivalent and survived: the ids of the surviving swaps that the triage judges
    equivalent for the variant, and of the others; not_judged: pairs not compiling, not run or in
    error); None when the results hold no such mutant."""
    equivalents = equivalents or {}
    swaps = {m["id"] for m in results["mutants"] if m.get("op_class") == OPERAND_ORDER}
    rows = {}
    for result in results["results"]:
        if result["mutant"] not in swaps:
            continue
        row = rows.setdefault(
            result["variant"],
            {
                "keeps_order": flags.get(result["variant"]),
                "swap_mutants": 0,
                "killed": 0,
                "equivalent": [],
                "survived": [],
                "not_judged": 0,
            },
        )
        row["swap_mutants"] += 1
        if result["outcome"] in {outcomes.KILLED, outcomes.KILLED_BY_TIMEOUT}:
            row["killed"] += 1
        elif result["outcome"] == outcomes.SURVIVED:
            judged = equivalence(equivalents, result["mutant"], result["variant"])
            row["equivalent" if judged else "survived"].append(result["mutant"])
        else:
            row["not_judged"] += 1
    rows = {v: {**r, "equivalent": sorted(r["equivalent"]), "survived": sorted(r["survived"])} for v, r in rows.items()}
    return dict(sorted(rows.items())) or None


def _operand_order_lines(rows):
    keeps = {True: "yes", False: "no", None: "?"}
    table = []
    for variant, row in rows.items():
        left = row["equivalent"] + row["survived"]
        survived = str(len(left))
        if row["keeps_order"] is False and left:
            survived += ", not required: " + ", ".join(f"`{m}`" for m in left)
        elif left:
            survived += ": " + ", ".join(
                [f"`{m}` (equivalent, triage)" for m in row["equivalent"]] + [f"`{m}`" for m in row["survived"]]
            )
        table.append([variant, keeps[row["keeps_order"]], row["swap_mutants"], row["killed"], survived])
    ordered = [r for r in rows.values() if r["keeps_order"]]
    missed = sum(len(r["survived"]) + r["not_judged"] for r in ordered)
    equivalent = sum(len(r["equivalent"]) for r in ordered)
    if not ordered:
        verdict = "No variant here is declared to keep order (commutative_only=0): no swap must be killed."
    elif missed:
        verdict = (
            f"Not every operand swap is killed on the variants that keep order ({len(ordered)} of the {len(rows)} "
            f"here): pairs survived {sum(len(r['survived']) for r in ordered)}, not judged (not compiling, not run "
            f"or error) {sum(r['not_judged'] for r in ordered)}."
        )
    elif equivalent:
        verdict = (
            f"Every operand swap is killed on every variant that keeps order ({len(ordered)} of the {len(rows)} here), "
            f"but {equivalent} that the triage judges equivalent there (equivalent.txt gives each reason)."
        )
    else:
        verdict = (
            f"Every operand swap is killed on every variant that keeps order ({len(ordered)} of the {len(rows)} here)."
        )
    unknown = sum(r["keeps_order"] is None for r in rows.values())
    if unknown:
        verdict += f" Variants that do not declare commutative_only (`?`): {unknown}."
    about = (
        "A swap mutant makes `op(a, b)` `op(b, a)`. A variant keeps order when its contract "
        "(test/cpu/declared_contracts.txt) says commutative_only=0: then every swap must be killed; "
        "with commutative_only=1 it admits only commutative ops, and its survivors are not required."
    )
    return [
        "",
        "## Operand order",
        "",
        about,
        "",
        verdict,
        "",
        *_table(["variant", "keeps order", "swap mutants", "killed", "survived"], table),
    ]


def markdown(results, by_pair, by_variant, by_class, survivors, contradictions, named, order=None):
    meta = results["meta"]
    header = ["generated", "killed", "survived", "equivalent", "not compiling", "not run or error", "score"]
    runs = meta.get("runs", [])
    machines = "; ".join(dict.fromkeys(run["machine"] for run in runs)) or meta["machine"]
    over = f" over {len(runs)} runs ({runs[0]['date']} to {runs[-1]['date']})" if len(runs) > 1 else ""
    about = (
        f"Machine: {machines}. Commit {meta['commit']} (suite {meta['suite']}), mode: {meta['mode']}, "
        f"{meta['wall_s']} s{over}. {_earlier_suites(results)}"
        "Score = killed / (generated - equivalent - not compiling - not run or error); a pair is one mutant "
        "against one variant's tests."
    )
    lines = [f"# Mutation run of {meta['date']}", "", *_gpu_lost_lines(results), about, ""]
    lines += [_reproduction_line(results), ""]
    lines += ["## Score per variant", ""]
    lines += _table(
        ["variant", *header], [[v, *_count_cells(c), _percent(score(c))] for v, c in sorted(by_variant.items())]
    )
    lines += ["", "## Per operator class, all variants", ""]
    lines += _table(
        ["class", *header],
        [[k, *_count_cells(by_class[k]), _percent(score(by_class[k]))] for k in classes_of(by_class)],
    )
    lines += ["", "## Variant x operator class", ""]
    lines += _table(
        ["variant", "class", *header],
        [[v, k, *_count_cells(c), _percent(score(c))] for (v, k), c in sorted(by_pair.items())],
    )
    if order:
        lines += _operand_order_lines(order)
    pairs = sum(len(vs) for vs in survivors.values())
    awaiting = _unnamed(survivors, named)
    lines += [
        "",
        f"## Survivors: {len(survivors)} mutants, {pairs} pairs (diffs in survivors.md)",
        "",
        f"{pairs - awaiting} of the pairs are named in named_survivors.txt with the reason no test can be relied on "
        + f"to catch them; {awaiting} await triage.",
        "",
    ]
    lines += [_survivor_line(m, vs, named) for m, vs in sorted(survivors.items())] or ["None."]
    if contradictions:
        lines += ["", "## Killed although triage calls them equivalent (fix equivalent.txt)", ""]
        lines += [f"- {c}" for c in contradictions]
    return "\n".join(lines) + "\n"


def survivors_markdown(results, survivors, named):
    diffs = {m["id"]: m["diff"] for m in results["mutants"]}
    advice = (
        "Each needs a test that kills it, a line in ci/mutation/triage/equivalent.txt saying why it is equivalent, "
        "or a line in ci/mutation/triage/named_survivors.txt saying why no test can be relied on to catch it."
    )
    lines = ["# Surviving mutants", "", advice, ""]
    for mutant, variants in sorted(survivors.items()):
        reasons = [f"Named ({v}): {reason}" for v, reason in _named_reasons(mutant, variants, named)]
        lines += [
            f"## `{mutant}`",
            "",
            f"Survived the tests of {', '.join(sorted(variants))}.",
            "",
            *[line for reason in reasons for line in (reason, "")],
            "```diff",
            diffs[mutant].rstrip("\n"),
            "```",
            "",
        ]
    return "\n".join(lines)


def pairs_markdown(results):
    """Every pair: what judged it, what killed it and how the kill was reproduced."""
    header = ["mutant", "variant", "outcome", "stage", "seconds", "reproduced", "killed by"]
    rows = [
        [f"`{r['mutant']}`", r["variant"], r["outcome"], r.get("stage") or "-", r.get("seconds", "-"),
         r.get("reproduced", NOT_CHECKED), ", ".join(r.get("killed_by", [])) or "-"]
        for r in sorted(results["results"], key=lambda r: (r["mutant"], r["variant"]))
    ]
    return "\n".join(["# Every pair", "", *_table(header, rows)]) + "\n"


def plot(by_variant, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    variants = sorted(by_variant, key=lambda v: (score(by_variant[v]) or 0, v))
    values = [100 * (score(by_variant[v]) or 0) for v in variants]
    figure, axes = plt.subplots(figsize=(9, 0.3 * len(variants) + 1.5))
    colours = ["tab:green" if value >= 95 else "tab:red" for value in values]
    axes.barh(variants, values, color=colours)
    axes.axvline(95, color="grey", linestyle="--", linewidth=1, label="95 %")
    for index, variant in enumerate(variants):
        if score(by_variant[variant]) is None:
            axes.text(1, index, "not judged", va="center", fontsize=7)
    axes.set_xlim(0, 100)
    axes.set_xlabel("mutation score (%): killed / judged")
    axes.tick_params(axis="y", labelsize=7)
    axes.legend(loc="lower right", fontsize=8)
    axes.set_title("Mutation score per variant")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def write_report(results, equivalents, out_dir, named=None, order_flags=None):
    """Writes the five files into out_dir; returns their paths (the plot only with matplotlib).
    `named`: the named survivors (load_triage(NAMED_SURVIVORS)), none if not given.
    `order_flags`: load_order_flags() of the contracts, read from CONTRACTS if not given and the
    results hold operand_order mutants."""
    named = named or {}
    os.makedirs(out_dir, exist_ok=True)
    by_pair, by_variant, by_class, survivors, contradictions = tally(results, equivalents)
    order = None
    if any(m.get("op_class") == OPERAND_ORDER for m in results["mutants"]):
        order = operand_order(results, load_order_flags() if order_flags is None else order_flags, equivalents)
    names = ("report.md", "report.json", "survivors.md", "pairs.md", "score.png")
    paths = {name: os.path.join(out_dir, name) for name in names}
    with open(paths["report.md"], "w", encoding="utf-8") as file:
        file.write(markdown(results, by_pair, by_variant, by_class, survivors, contradictions, named, order))
    with open(paths["survivors.md"], "w", encoding="utf-8") as file:
        file.write(survivors_markdown(results, survivors, named))
    with open(paths["pairs.md"], "w", encoding="utf-8") as file:
        file.write(pairs_markdown(results))
    summary = {
        "meta": results["meta"],
        "variants": {
            v: {
                "score": score(c),
                **{k: c[k] for k in COLUMNS},
                "classes": {
                    k: {col: by_pair[(v, k)][col] for col in COLUMNS} for k in classes_of(by_class) if (v, k) in by_pair
                },
            }
            for v, c in sorted(by_variant.items())
        },
        "classes": {
            k: {"score": score(by_class[k]), **{col: by_class[k][col] for col in COLUMNS}}
            for k in classes_of(by_class)
        },
        "survivors": {m: sorted(vs) for m, vs in sorted(survivors.items())},
        "named_survivors": {
            f"{m}@{v}": reason for m, vs in sorted(survivors.items()) for v, reason in _named_reasons(m, vs, named)
        },
        "survivors_awaiting_triage": _unnamed(survivors, named),
        "killed_but_triaged_equivalent": contradictions,
        "reproduction": dict(zip(("kills", "reproduced"), reproduction(results) or ())) or None,
    }
    if order:
        summary["operand_order"] = order
    if gpu_lost(results):
        summary["gpu_lost"] = gpu_lost(results)
    with open(paths["report.json"], "w", encoding="utf-8") as file:
        json.dump(summary, file, indent=1)
    try:
        plot(by_variant, paths["score.png"])
    except ImportError:
        del paths["score.png"]  # a GPU runner without matplotlib: the tables still say everything
    return list(paths.values())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results")
    parser.add_argument("out_dir")
    parser.add_argument("--equivalents", default=EQUIVALENTS)
    parser.add_argument("--named", default=NAMED_SURVIVORS)
    parser.add_argument("--contracts", default=CONTRACTS, help="declared_contracts.txt: which variants keep order")
    args = parser.parse_args()
    with open(args.results, encoding="utf-8") as file:
        results = json.load(file)
    equivalents = by_id(load_triage(args.equivalents), results["mutants"])
    named = by_id(load_triage(args.named), results["mutants"])
    for path in write_report(results, equivalents, args.out_dir, named, load_order_flags(args.contracts)):
        print(path)


if __name__ == "__main__":
    main()
