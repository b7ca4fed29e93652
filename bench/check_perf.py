#!/usr/bin/env python3
"""Fails when a family's best variant other than CUB falls below a fraction of CUB's speed.

    check_perf.py BENCH_JSON --family reduce --min-vs-cub 0.95 [--type int] [--n 268435456]

Takes the family's rows of one type at one length (by default the longest the file has for
them) from kernels_bench's JSON and compares the largest vs_cub (CUB's time over the
variant's, both measured in the same process) among the variants other than CUB with the
threshold: ratios only, never absolute times. Exit status 0 when it reaches the threshold; 1
when it does not, when a row at that length failed, or when no variant other than CUB has a
vs_cub there.
"""

import argparse
import sys

import bench_json


def check(rows, family, type_name, n, min_vs_cub):
    """(passed, report lines) for the family's rows of type_name at length n (None: the longest)."""
    candidates = [row for row in rows if row.family == family and row.type == type_name]
    if n is None and candidates:
        n = max(row.n for row in candidates)
    at_n = [row for row in candidates if row.n == n]
    where = f"{family}/{type_name} at n={n}"
    if not at_n:
        return False, [f"FAIL {where}: no rows"]
    lines = []
    for row in at_n:
        figure = f"error: {row.error}" if row.error else f"vs_cub {row.vs_cub:.3f}  ({row.time_ms:.4f} ms)"
        lines.append(f"  {row.variant:45} {figure}")
    failed = [row.variant for row in at_n if row.error]
    if failed:
        return False, lines + [f"FAIL {where}: rows failed: {', '.join(failed)}"]
    ranked = [row for row in at_n if row.variant != "cub" and row.vs_cub is not None]
    if not ranked:
        return False, lines + [f"FAIL {where}: no variant other than cub has a vs_cub"]
    best = max(ranked, key=lambda row: row.vs_cub)
    passed = best.vs_cub >= min_vs_cub
    verdict = "ok" if passed else "FAIL"
    relation = ">=" if passed else "<"
    return passed, lines + [f"{verdict} {where}: best {best.variant} runs at {best.vs_cub:.3f} of cub's speed "
                            f"{relation} {min_vs_cub}"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("json", help="kernels_bench --benchmark_out file (JSON)")
    parser.add_argument("--family", required=True, choices=["reduce", "scan", "sort"])
    parser.add_argument("--min-vs-cub", type=float, required=True, help="least acceptable cub time / variant time")
    parser.add_argument("--type", default="int", help="element type as rows name it (int, longlong, float)")
    parser.add_argument("--n", type=int, help="length (default: the longest in the file for family and type)")
    args = parser.parse_args(argv)
    passed, lines = check(bench_json.load_rows(args.json), args.family, args.type, args.n, args.min_vs_cub)
    print("\n".join(lines))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
