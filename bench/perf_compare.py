#!/usr/bin/env python3
"""Compares two revisions' kernels_bench timings row by row: SAME, FAST or SLOW.

    perf_compare.py --base A1.json ... A5.json --head B1.json ... B5.json
                    [--threshold 0.05] [--slower-floor 0.02] [--alpha 0.01] [--min-runs 5]
                    [--out table.md] [--plot ratios.png]

Each file is one run (one kernels_bench process) in Google Benchmark JSON with the repetitions
themselves (entries of run_type "iteration"): kernels_bench --benchmark_repetitions=5
--benchmark_report_aggregates_only=false --benchmark_out=A1.json --benchmark_out_format=json.

The unit is the run, not the repetition: per row, each file gives its median, and the two-sided
Mann-Whitney U test (scipy.stats.mannwhitneyu) compares the base's run medians with the head's.
Processes differ more than the repetitions of one process (on an H100, unchanged code: 9 %
between runs' medians at 2^10, 4 % within a run; 0.5 % and 0.2 % at 2^28), so pooled
repetitions count as independent samples that are not, and unchanged code read SLOW in 7 % of
the rows (bench/results/perf-regression/table.md). The U test is Google Benchmark's own
(tools/compare.py): it assumes no distribution, and GPU timings are skewed.

Verdicts, from the medians of each side's run medians:
  SLOW      the head's exceeds the base's by more than the threshold, and p < alpha;
  FAST      the head's is below the base's by more than the threshold, and p < alpha;
  slower    the head's exceeds the base's by 2 % (--slower-floor) up to the threshold, p < alpha, on
            runs whose spread is at most twice the loss: a steady loss below the bar, reported and
            not failing (a 2.5 % loss of bandwidth at 2^28 where runs agree to 1-2 %, not a 3 %
            change among launch-bound runs that differ by 20 %);
  SAME      otherwise: no significant difference, or one smaller than the threshold or the spread;
  too few   a side has fewer than --min-runs runs of the row (no verdict): 5 against 5 is the
            fewest where p < 0.01 can happen (2/252, every head run slower than every base run);
  base only / head only / error   the row is missing on a side, or a side's run failed.

Many comparisons: over some hundreds of rows at alpha 0.01, a few rows of unchanged code reach
p < alpha by chance; a SLOW also needs the medians to differ by more than the threshold. alpha
stays configurable for a stricter bound (alpha divided by the number of rows: Bonferroni).

Prints a Markdown table sorted by slowdown, largest first (--out writes it too); its spread is
the larger side's range of run medians against its median. Exit status: 2 on bad input (an
unreadable file, a row on one side only, a failed row, a row without its repetitions), else 1
when a row is SLOW, else 0.
"""

import argparse
import json
import math
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass
from typing import Optional

# The defaults of --threshold, --slower-floor, --alpha and --min-runs, which perf_regression.py shares.
THRESHOLD, SLOWER_FLOOR, ALPHA, MIN_RUNS = 0.05, 0.02, 0.01, 5
# perf_regression.py confirms a SLOW row with fresh runs at this level: unchanged code then stays
# SLOW in under 1 row in 10,000 (1 in 252 after the first check, 4 in 252 after the second).
CONFIRM_ALPHA = 0.05

# Google Benchmark's time units; kernels_bench reports milliseconds (benchmark_rows.cpp).
_MS_PER_UNIT = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}

SLOW, SLOWER, FAST, SAME, TOO_FEW = "SLOW", "slower", "FAST", "SAME", "too few"
# perf_regression.py's verdict on a SLOW row whose fresh runs did not read SLOW again.
UNCONFIRMED = "SLOW, not confirmed"
BASE_ONLY, HEAD_ONLY, ERROR = "base only", "head only", "error"


class BadInput(Exception):
    pass


@dataclass
class Comparison:
    row: str
    verdict: str
    base_ms: Optional[float] = None
    head_ms: Optional[float] = None
    p_value: Optional[float] = None
    base_count: int = 0
    head_count: int = 0
    spread: Optional[float] = None

    @property
    def ratio(self):
        if self.base_ms is None or self.head_ms is None or self.base_ms <= 0:
            return None
        return self.head_ms / self.base_ms


def row_label(run_name):
    """The row as kernels_bench names it: family/variant/type/n, without /manual_time."""
    return run_name[: -len("/manual_time")] if run_name.endswith("/manual_time") else run_name


def load_run(path):
    """({row: [ms per repetition]}, {row: error message}) of one run's file."""
    try:
        with open(path, encoding="utf-8") as file:
            entries = json.load(file)["benchmarks"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise BadInput(f"{path}: not a readable Google Benchmark JSON file ({error})") from error
    samples, errors, aggregated = defaultdict(list), {}, set()
    for entry in entries:
        row = row_label(entry.get("run_name", entry.get("name", "")))
        if entry.get("error_occurred"):
            errors.setdefault(row, f"{path}: {entry.get('error_message', 'error')}")
        elif entry.get("run_type") == "aggregate":
            aggregated.add(row)
        else:
            try:
                samples[row].append(entry["real_time"] * _MS_PER_UNIT[entry.get("time_unit", "ns")])
            except (KeyError, TypeError) as error:
                raise BadInput(f"{path}: row {row}: no real_time in a known unit ({error})") from error
    # kernels_bench writes aggregates only by default: a run's median needs its repetitions.
    unrepeated = sorted(aggregated - set(samples) - set(errors))
    if unrepeated:
        raise BadInput(f"{path}: row {unrepeated[0]} has aggregates but no repetitions "
                       "(run kernels_bench with --benchmark_report_aggregates_only=false)")
    return dict(samples), errors


def load_side(paths):
    """({row: [the row's median in each run]}, {row: error message}) for one side's runs."""
    medians, errors = defaultdict(list), {}
    for path in paths:
        samples, run_errors = load_run(path)
        for row, times in samples.items():
            medians[row].append(statistics.median(times))
        for row, message in run_errors.items():
            errors.setdefault(row, message)
    return dict(medians), errors


def u_test_p(base, head):
    """Two-sided Mann-Whitney U p-value; 1 where every time is equal (no evidence either way)."""
    from scipy.stats import mannwhitneyu
    p_value = mannwhitneyu(head, base, alternative="two-sided").pvalue
    return 1.0 if math.isnan(p_value) else float(p_value)


def _spread(units):
    # A side's range against its median: how far apart its runs are, beside the change.
    return (max(units) - min(units)) / statistics.median(units) if len(units) > 1 else None


def reads_slower(result, alpha, floor=SLOWER_FLOOR):
    """Whether a compared row lost more than `floor`, at p < alpha, on runs whose spread is at most twice the
    loss (one slow run among five widens the range: on the H200 a planted 3 % read +2.7 % with a 3.1 % spread)."""
    return (result.p_value is not None and result.p_value < alpha and result.ratio is not None
            and result.ratio > 1 + floor and result.spread is not None and result.spread <= 2 * (result.ratio - 1))


def compare_row(row, base, head, threshold, alpha, min_units, floor=SLOWER_FLOOR):
    """The verdict on one row's units a side (run medians; perf_power.py also passes pooled
    repetitions, the method this replaced, to measure it)."""
    result = Comparison(row, SAME, base_count=len(base), head_count=len(head))
    if base:
        result.base_ms = statistics.median(base)
    if head:
        result.head_ms = statistics.median(head)
    spreads = [spread for spread in (_spread(base), _spread(head)) if spread is not None]
    result.spread = max(spreads) if spreads else None
    if not head:
        result.verdict = BASE_ONLY
    elif not base:
        result.verdict = HEAD_ONLY
    elif min(len(base), len(head)) < min_units:
        result.verdict = TOO_FEW
    else:
        result.p_value = u_test_p(base, head)
        if result.p_value < alpha and result.ratio > 1 + threshold:
            result.verdict = SLOW
        elif result.p_value < alpha and result.ratio < 1 - threshold:
            result.verdict = FAST
        elif reads_slower(result, alpha, floor):
            result.verdict = SLOWER
    return result


def compare_sides(base, head, threshold, alpha, min_units, errors=({}, {}), names=("the base", "the head"),
                  floor=SLOWER_FLOOR):
    """(comparisons sorted by slowdown, problem messages) for two sides' {row: units}."""
    base_errors, head_errors = errors
    results, problems = [], []
    for row in sorted(set(base) | set(head) | set(base_errors) | set(head_errors)):
        if row in base_errors or row in head_errors:
            results.append(Comparison(row, ERROR))
            problems += [f"row {row} failed: {side[row]}" for side in (base_errors, head_errors) if row in side]
            continue
        result = compare_row(row, base.get(row, []), head.get(row, []), threshold, alpha, min_units, floor)
        if result.verdict == BASE_ONLY:
            problems.append(f"row {row} is missing from {names[1]}")
        elif result.verdict == HEAD_ONLY:
            problems.append(f"row {row} is missing from {names[0]}")
        results.append(result)
    # Largest slowdown first; rows without a ratio (one side only, failed) last.
    results.sort(key=lambda result: (result.ratio is None, -(result.ratio or 0.0), result.row))
    return results, problems


def compare(base_paths, head_paths, threshold, alpha, min_runs, floor=SLOWER_FLOOR):
    """(comparisons sorted by slowdown, problem messages) for the two sides' run files."""
    base, base_errors = load_side(base_paths)
    head, head_errors = load_side(head_paths)
    return compare_sides(base, head, threshold, alpha, min_runs, (base_errors, head_errors),
                         (f"the base ({', '.join(base_paths)})", f"the head ({', '.join(head_paths)})"), floor)


def _number(value, spec):
    # '#' keeps trailing zeros (1.000 beside 0.9931); a bare trailing point goes.
    return "" if value is None else format(value, spec).rstrip(".")


def markdown(results, threshold, alpha, min_runs, floor=SLOWER_FLOOR):
    counts = defaultdict(int)
    for result in results:
        counts[result.verdict] += 1
    summary = ", ".join(f"{counts[verdict]} {verdict}" for verdict in
                        (SLOW, UNCONFIRMED, SLOWER, FAST, SAME, TOO_FEW, BASE_ONLY, HEAD_ONLY, ERROR) if counts[verdict])
    lines = [f"{len(results)} rows: {summary}. Medians of the runs' medians; SLOW/FAST: they differ by more "
             f"than {threshold * 100:g} % and the U test of the run medians gives p < {alpha:g}; slower (not "
             f"failing): the head's by {floor * 100:g} % to {threshold * 100:g} %, p < {alpha:g}, and a spread at most "
             f"twice that; at least {min_runs} runs a side. Spread: the larger side's range of run medians.", "",
             "| row | base median (ms) | head median (ms) | change % | p-value | runs a side | spread % | verdict |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    for result in results:
        change = None if result.ratio is None else (result.ratio - 1) * 100
        spread = None if result.spread is None else result.spread * 100
        lines.append(f"| {result.row} | {_number(result.base_ms, '#.4g')} | {_number(result.head_ms, '#.4g')} | "
                     f"{_number(change, '+.2f')} | {_number(result.p_value, '.2g')} | "
                     f"{result.base_count}/{result.head_count} | {_number(spread, '.1f')} | {result.verdict} |")
    return "\n".join(lines) + "\n"


def plot(results, threshold, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    styles = {SLOW: ("tab:red", "v"), UNCONFIRMED: ("tab:pink", "v"), SLOWER: ("tab:purple", "v"),
              FAST: ("tab:green", "^"), SAME: ("tab:grey", "o"),
              TOO_FEW: ("tab:orange", "x")}
    shown = [result for result in results if result.ratio is not None]
    figure, axes = plt.subplots(figsize=(max(6, min(24, 0.12 * len(shown) + 4)), 5))
    for verdict, (colour, marker) in styles.items():
        points = [(index, result.ratio) for index, result in enumerate(shown) if result.verdict == verdict]
        if points:
            axes.scatter(*zip(*points), color=colour, marker=marker, s=18, label=f"{verdict} ({len(points)})")
    axes.axhline(1.0, color="black", linewidth=1)
    for bound in (1 - threshold, 1 + threshold):
        axes.axhline(bound, color="black", linewidth=0.8, linestyle="--")
    axes.set_xlabel("rows, largest slowdown first")
    axes.set_ylabel("head / base, medians of run medians")
    axes.set_title(f"Head against base: {len(shown)} rows, dashed lines at 1 \u00b1 {threshold * 100:g} %")
    if len(shown) <= 40:
        axes.set_xticks(range(len(shown)), [result.row for result in shown], rotation=90, fontsize=6)
    else:
        axes.set_xticks([])
    axes.legend(loc="best", fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", nargs="+", required=True, metavar="JSON", help="the base revision's runs, a file each")
    parser.add_argument("--head", nargs="+", required=True, metavar="JSON", help="the head revision's runs, a file each")
    parser.add_argument("--threshold", type=float, default=THRESHOLD, help="smallest change reported (0.05: 5 %%)")
    parser.add_argument("--slower-floor", type=float, default=SLOWER_FLOOR,
                        help="smallest loss reported as slower, below the threshold (0.02: 2 %%)")
    parser.add_argument("--alpha", type=float, default=ALPHA, help="significance level of the U test")
    parser.add_argument("--min-runs", type=int, default=MIN_RUNS, help="fewest runs a side for a verdict")
    parser.add_argument("--out", help="write the Markdown table here too")
    parser.add_argument("--plot", help="write a PNG of the ratios here")
    args = parser.parse_args(argv)
    try:
        import scipy  # noqa: F401
    except ImportError:
        print("perf_compare: scipy is missing (ci/install-deps.sh installs python3-scipy)", file=sys.stderr)
        return 2
    try:
        results, problems = compare(args.base, args.head, args.threshold, args.alpha, args.min_runs, args.slower_floor)
    except BadInput as error:
        print(f"perf_compare: {error}", file=sys.stderr)
        return 2
    table = markdown(results, args.threshold, args.alpha, args.min_runs, args.slower_floor)
    print(table, end="")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as file:
            file.write(table)
    if args.plot:
        plot(results, args.threshold, args.plot)
    for problem in problems:
        print(f"perf_compare: {problem}", file=sys.stderr)
    if problems or not results:
        if not results:
            print("perf_compare: no rows to compare", file=sys.stderr)
        return 2
    return 1 if any(result.verdict == SLOW for result in results) else 0


if __name__ == "__main__":
    sys.exit(main())
