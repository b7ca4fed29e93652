#!/usr/bin/env python3
"""The slowdown check's power and false alarms, from a study's runs: a Markdown table.

    perf_power.py --runs FOLDER|runs.json [--pack runs.json] [--out table.md] [--plot ratios.png]

A study run is two rounds of kernels_bench runs (one process each, the same rows and
repetitions) in the order A, P5, A2, P10, P20: A and A2 the unchanged build, P5/P10/P20 the
same build with KERNELS_BENCH_SLOWDOWN planting 5, 10 and 20 %. FOLDER holds their Google
Benchmark JSON as <study>-<round>-<side>.json; --pack writes them as one small JSON (each row's
repetition times, 9 significant digits) that --runs reads back.

Per head side (A2: unchanged, the false alarms; P5, P10, P20: the power) and length, the rows
read SLOW against A, by perf_compare.py's verdict on two units, and with confirmation:
  v1  pooled repetitions: per study, A's two runs against the side's two (the method before
      run medians);
  v2  run medians: A's runs of one round over the studies against the side's of one round
      (each row: 2 disjoint groups of runs a side, 4 pairings: regroupings of the same runs,
      not fresh measurements);
  v2 confirmed  a v2 check of round 1's A runs whose SLOW stands only where round 2's runs of
      both sides, as perf_regression.py's fresh runs, read SLOW too (2 checks a row).
Also each length's spread of run medians between processes and of repetitions within one.
"""

import argparse
import json
import math
import os
import re
import statistics
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import perf_compare  # noqa: E402

HEADS = (("A2", "none (unchanged code)"), ("P5", "5 %"), ("P10", "10 %"), ("P20", "20 %"))
LENGTHS = (1 << 10, 1 << 20, 1 << 28)
RUN_FILE = re.compile(r"^(\d+)-(\d+)-([A-Za-z0-9]+)\.json$")
# v1 took ceil(9 / 2) = 5 repetitions from each of 2 runs and asked for 9 a side.
V1_MIN_REPETITIONS = 9


def load_folder(folder):
    """{(study, round, side): {row: [ms per repetition]}} and the first file's context."""
    runs, context = {}, {}
    for name in sorted(os.listdir(folder)):
        match = RUN_FILE.match(name)
        if not match:
            continue
        path = os.path.join(folder, name)
        samples, errors = perf_compare.load_run(path)
        if errors:
            raise perf_compare.BadInput(next(iter(errors.values())))
        runs[(int(match[1]), int(match[2]), match[3])] = samples
        if not context:
            with open(path, encoding="utf-8") as file:
                context = json.load(file).get("context", {})
    if not runs:
        raise perf_compare.BadInput(f"{folder}: no <study>-<round>-<side>.json files")
    return runs, context


def pack(runs, context):
    rows = sorted({row for samples in runs.values() for row in samples})
    return {"context": {key: context[key] for key in ("date", "gpu", "cuda_driver", "cuda_runtime")
                        if key in context},
            "rows": rows,
            "runs": {f"{study}-{rnd}-{side}": [[float(f"{time:.9g}") for time in samples.get(row, [])]
                                                for row in rows]
                     for (study, rnd, side), samples in sorted(runs.items())}}


def load(path):
    if os.path.isdir(path):
        return load_folder(path)
    try:
        with open(path, encoding="utf-8") as file:
            packed = json.load(file)
        runs = {}
        for key, times in packed["runs"].items():
            study, rnd, side = key.split("-")
            runs[(int(study), int(rnd), side)] = {row: row_times for row, row_times in zip(packed["rows"], times)
                                                  if row_times}
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise perf_compare.BadInput(f"{path}: neither a folder of runs nor a packed study ({error})") from error
    return runs, packed.get("context", {})


def length_of(row):
    return int(row.rsplit("/", 1)[1])


def slow_counts(runs, threshold, alpha):
    """{(method, head side, length): [rows SLOW, row checks]}."""
    studies = sorted({study for study, _, _ in runs})
    rounds = sorted({rnd for _, rnd, _ in runs})
    rows = sorted(runs[(studies[0], rounds[0], "A")])
    counts = defaultdict(lambda: [0, 0])

    def verdict(row, base, head, level, min_units=perf_compare.MIN_RUNS):
        return perf_compare.compare_row(row, base, head, threshold, level, min_units).verdict

    def tally(method, side, row, base, head, min_units):
        entry = counts[(method, side, length_of(row))]
        entry[0] += verdict(row, base, head, alpha, min_units) == perf_compare.SLOW
        entry[1] += 1

    for side, _ in HEADS:
        for row in rows:
            for study in studies:
                tally("v1", side, row, [time for rnd in rounds for time in runs[(study, rnd, "A")][row]],
                      [time for rnd in rounds for time in runs[(study, rnd, side)][row]], V1_MIN_REPETITIONS)
            medians = {(rnd, name): [statistics.median(runs[(study, rnd, name)][row]) for study in studies]
                       for rnd in rounds for name in ("A", side)}
            for base_round in rounds:
                for head_round in rounds:
                    tally("v2", side, row, medians[(base_round, "A")], medians[(head_round, side)], perf_compare.MIN_RUNS)
            if len(rounds) == 2:
                # A check's SLOW confirmed by the other round of each side, as perf_regression.py's fresh runs.
                for head_round, other in (tuple(rounds), tuple(reversed(rounds))):
                    first = verdict(row, medians[(rounds[0], "A")], medians[(head_round, side)], alpha)
                    again = verdict(row, medians[(rounds[1], "A")], medians[(other, side)], perf_compare.CONFIRM_ALPHA)
                    entry = counts[("v2 confirmed", side, length_of(row))]
                    entry[0] += first == again == perf_compare.SLOW
                    entry[1] += 1
    return counts, len(studies), len(rounds), len(rows)


def spreads(runs):
    """{length: (median and largest sd of log run medians over the unplanted runs, median sd of
    log repetitions within a run)}."""
    between, within = defaultdict(list), defaultdict(list)
    unplanted = [samples for (_, _, side), samples in runs.items() if side in ("A", "A2")]
    for row in unplanted[0]:
        between[length_of(row)].append(statistics.pstdev([math.log(statistics.median(s[row])) for s in unplanted]))
        within[length_of(row)] += [statistics.pstdev([math.log(time) for time in s[row]]) for s in unplanted]
    return {n: (statistics.median(between[n]), max(between[n]), statistics.median(within[n])) for n in between}


def markdown(runs, context, threshold, alpha):
    counts, studies, rounds, rows = slow_counts(runs, threshold, alpha)
    about = ", ".join(str(context[key]) for key in ("gpu", "date") if key in context)
    lines = [f"# The slowdown check's power and false alarms{f' ({about})' if about else ''}", "",
             f"{rows} rows, {studies} study runs of {rounds} rounds, each round's runs in the order A, P5, A2, "
             "P10, P20 (A, A2: the same build; P: KERNELS_BENCH_SLOWDOWN planted in every row). Rows read SLOW "
             f"against A: more than {threshold * 100:g} % slower and U test p < {alpha:g}.", "",
             f"- **v1**, pooled repetitions: per study, A's {rounds} runs against the side's {rounds}, their "
             "repetitions pooled (the method before).",
             f"- **v2**, run medians (the method now): A's runs of one round over the {studies} studies against "
             f"the side's runs of one round, each run's median a unit. Per row: {rounds} disjoint groups of "
             f"{studies} runs a side, {rounds * rounds} pairings. These checks regroup the same runs; the check "
             "itself, run afresh, is in check-runs.md beside this table.",
             f"- **v2 confirmed**, as perf_regression.py decides: a v2 check's SLOW stands only where the other "
             f"round of each side, as fresh runs, reads SLOW too (p < {perf_compare.CONFIRM_ALPHA:g}); 2 checks a "
             "row: round 1's A against each head round, confirmed by the other round of both sides.", "",
             "| head side | planted | method | " + " | ".join(f"2^{n.bit_length() - 1}" for n in LENGTHS)
             + " | all |", "|---|---|---|" + "---:|" * (len(LENGTHS) + 1)]
    for side, planted in HEADS:
        for method in ("v1", "v2", "v2 confirmed"):
            cells = [counts[(method, side, n)] for n in LENGTHS]
            total = [sum(cell[0] for cell in cells), sum(cell[1] for cell in cells)]
            lines.append(f"| {side} | {planted} | {method} | "
                         + " | ".join(f"{slow}/{checks}" if checks else "" for slow, checks in cells + [total]) + " |")
    lines += ["", "Spread of unchanged code (A and A2 runs): standard deviation of log times, between the "
              "processes' run medians (median over rows, largest) and within a run's repetitions (median).", "",
              "| length | between runs % | largest % | within a run % |", "|---|---:|---:|---:|"]
    for n, (median_between, largest, within) in sorted(spreads(runs).items()):
        lines.append(f"| 2^{n.bit_length() - 1} | {median_between * 100:.1f} | {largest * 100:.1f} | "
                     f"{within * 100:.2f} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", required=True, help="a folder of <study>-<round>-<side>.json, or a packed study")
    parser.add_argument("--pack", help="write the runs here as one small JSON")
    parser.add_argument("--out", help="write the Markdown table here too")
    parser.add_argument("--plot", help="a PNG of the check's ratios: round 1's A runs against round 1's P10 runs")
    parser.add_argument("--threshold", type=float, default=perf_compare.THRESHOLD)
    parser.add_argument("--alpha", type=float, default=perf_compare.ALPHA)
    args = parser.parse_args(argv)
    try:
        runs, context = load(args.runs)
        table = markdown(runs, context, args.threshold, args.alpha)
    except (perf_compare.BadInput, KeyError) as error:
        print(f"perf_power: {error}", file=sys.stderr)
        return 2
    print(table, end="")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as file:
            file.write(table)
    if args.pack:
        packed = pack(runs, context)
        # A run a line: a new study's diff reads run by run.
        lines = [f"{json.dumps(key)}: {json.dumps(times, separators=(',', ':'))}" for key, times in packed["runs"].items()]
        with open(args.pack, "w", encoding="utf-8") as file:
            file.write(f'{{"context": {json.dumps(packed["context"])},\n"rows": {json.dumps(packed["rows"])},\n'
                       '"runs": {\n' + ",\n".join(lines) + "\n}}\n")
    if args.plot:
        medians = {side: {row: [statistics.median(samples[row]) for (_, rnd, name), samples in sorted(runs.items())
                                if name == side and rnd == 1] for row in runs[min(runs)]} for side in ("A", "P10")}
        results, _ = perf_compare.compare_sides(medians["A"], medians["P10"], args.threshold, args.alpha,
                                                perf_compare.MIN_RUNS)
        perf_compare.plot(results, args.threshold, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
