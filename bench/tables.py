#!/usr/bin/env python3
"""Prints markdown tables from kernels_bench's JSON.

    tables.py BENCH_JSON [--type int]

(a) per family, every variant at 2^28 or at its longest length: time, GB/s, elements/s,
copy_fraction, vs_cub; (b) Harris's reduction ladder (harris1..7) at 2^22 and 2^28 with step
and cumulative speedups, beside his G80 times; (c) the scan ladder from the naive scan to CUB.
A figure the file lacks shows as a dash.
"""

import argparse
import re
import sys

import bench_json
from bench_json import size_label

DASH = "—"

# Mark Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007): his times of kernels 1 to 7
# on a G80, 2^22 ints.
G80_MS = [8.054, 3.456, 1.722, 0.965, 0.536, 0.381, 0.268]
HARRIS_LENGTHS = [1 << 22, 1 << 28]

# The scan ladder: each step's algorithm, as registered alone (one block, or the naive scan's
# own limit) and under scan-then-fan (any length); None where that registration does not exist.
SCAN_LADDER = [
    ("naive", "naive", None),
    ("hillis_steele_two_barriers", "hillis_steele_two_barriers", "scan_then_fan/hillis_steele_two_barriers"),
    ("hillis_steele_double_buffer", "hillis_steele_double_buffer", "scan_then_fan/hillis_steele_double_buffer"),
    ("blelloch_plain", "blelloch_plain", "scan_then_fan/blelloch_plain"),
    ("blelloch_padded", "blelloch_padded", "scan_then_fan/blelloch_padded"),
    ("warp_shuffle", "warp_shuffle", "scan_then_fan/warp_shuffle"),
    ("decoupled_lookback", None, "decoupled_lookback"),
    ("cub", None, "cub"),
]
NAIVE_LIMIT = 1 << 16
SCAN_LADDER_LENGTHS = [NAIVE_LIMIT, 1 << 22, 1 << 28]


def fmt(value, spec=".4g", suffix=""):
    return DASH if value is None else f"{value:{spec}}{suffix}"


def markdown(header, body):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return "\n".join(lines)


def index_rows(rows):
    return {(row.family, row.variant, row.type, row.n): row for row in rows}


def family_tables(rows, type_name):
    """(a): per family, each variant at its longest length (2^28 for those that reach it)."""
    sections = []
    for family in ["reduce", "scan", "sort"]:
        longest = {}
        for row in rows:
            if row.family == family and row.type == type_name and row.n > longest.get(row.variant, (0, None))[0]:
                longest[row.variant] = (row.n, row)
        if not longest:
            continue
        body = []
        for variant, (n, row) in longest.items():
            if row.error:
                body.append([variant, size_label(n), f"error: {row.error}", DASH, DASH, DASH, DASH])
                continue
            elements = None if row.elements_per_second is None else row.elements_per_second / 1e9
            body.append([variant, size_label(n), fmt(row.time_ms), fmt(row.gb_per_second), fmt(elements),
                         fmt(row.copy_fraction, ".3f"), fmt(row.vs_cub, ".3f")])
        sections.append(f"### {family}, {type_name}: each variant at 2^28 or its longest length\n\n" +
                        markdown(["variant", "n", "time (ms)", "GB/s", "Gelem/s", "copy_fraction", "vs_cub"], body))
    return "\n\n".join(sections)


def harris_rows(rows, type_name, n):
    """The seven Harris kernels' rows at n, in ladder order (None where missing)."""
    by_step = {}
    for row in bench_json.measured(rows):
        match = re.fullmatch(r"harris([1-7])_\w+", row.variant)
        if row.family == "reduce" and match and row.type == type_name and row.n == n:
            by_step[int(match.group(1))] = row
    return [by_step.get(step) for step in range(1, 8)]


def ratio(numerator, denominator, spec=".2f"):
    if numerator is None or denominator is None:
        return DASH
    return f"{numerator / denominator:{spec}}x"


def harris_tables(rows, type_name):
    """(b): Harris's ladder at 2^22 and 2^28, step and cumulative speedups, his G80 times beside."""
    sections = []
    for n in HARRIS_LENGTHS:
        ladder = harris_rows(rows, type_name, n)
        times = [None if row is None else row.time_ms for row in ladder]
        body = []
        for step, row in enumerate(ladder):
            name = row.variant if row else f"harris{step + 1}"
            previous = times[step - 1] if step > 0 else None
            g80_previous = G80_MS[step - 1] if step > 0 else None
            body.append([name, fmt(G80_MS[step], ".3f"), ratio(g80_previous, G80_MS[step]), ratio(G80_MS[0], G80_MS[step]),
                         fmt(times[step]), fmt(row.gb_per_second if row else None),
                         ratio(previous, times[step]) if step > 0 else DASH, ratio(times[0], times[step])])
        sections.append(f"### Harris's reduction ladder, {type_name}, n = {size_label(n)} "
                        "(G80 figures: Harris's, at 2^22)\n\n" +
                        markdown(["kernel", "G80 (ms)", "G80 step", "G80 cumulative", "time (ms)", "GB/s",
                                  "step speedup", "cumulative speedup"], body))
    return "\n\n".join(sections)


def ladder_cell(row):
    if row is None:
        return DASH
    if row.error:
        return "error"
    return f"{fmt(row.time_ms)} ms ({fmt(row.vs_cub, '.2f')}x cub)"


def scan_ladder_table(rows, type_name):
    """(c): the scan ladder at the lengths its steps share."""
    scan = [row for row in rows if row.family == "scan" and row.type == type_name]
    by_key = index_rows(scan)

    def longest(variant):
        own = [row for row in scan if row.variant == variant]
        return max(own, key=lambda row: row.n) if own else None

    body = []
    for step, alone, any_length in SCAN_LADDER:
        one_block = longest(alone) if alone and alone != "naive" else None
        cells = [step, DASH if one_block is None else f"n={one_block.n}: {ladder_cell(one_block)}"]
        for n in SCAN_LADDER_LENGTHS:
            variant = alone if alone == "naive" and n == NAIVE_LIMIT else any_length
            cells.append(ladder_cell(by_key.get(("scan", variant, type_name, n)) if variant else None))
        body.append(cells)
    explanation = ("The one-block scans exist only up to one block's capacity, so they are compared at their own "
                   "limits; at 2^16 (the naive scan's limit), 2^22 and 2^28 each block algorithm appears in its "
                   "scan_then_fan/<algorithm> registration (the same tile scan under a multi-block driver), and the "
                   "naive scan only at its limit. Each cell: time (CUB's time / the variant's).")
    return (f"### The scan ladder, {type_name}, inclusive\n\n{explanation}\n\n" +
            markdown(["step", "one block, at its limit"] + [f"n = {size_label(n)}" for n in SCAN_LADDER_LENGTHS],
                     body))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("json", help="kernels_bench --benchmark_out file (JSON)")
    parser.add_argument("--type", default="int", help="element type as rows name it (int, longlong, float)")
    args = parser.parse_args(argv)
    rows = bench_json.load_rows(args.json)
    print("\n\n".join(part for part in [family_tables(rows, args.type), harris_tables(rows, args.type),
                                         scan_ladder_table(rows, args.type)] if part))
    return 0


if __name__ == "__main__":
    sys.exit(main())
