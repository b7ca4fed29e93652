#!/usr/bin/env python3
"""A perf.<family> ctest entry: runs kernels_bench on one family's rows of one type and length,
writes their JSON, then holds them to check_perf.py's threshold.

    perf_test.py --bench build/bench/kernels_bench --family scan --type int --n 268435456 \
                 --min-vs-cub 0.90 --json build/bench/perf_scan.json

kernels_bench's own failure passes through: exit 77 without a GPU (ctest reports Skipped), 1
when KERNELS_REQUIRE_GPU=1 and there is none.
"""

import argparse
import subprocess
import sys

import check_perf


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", required=True, help="the kernels_bench executable")
    parser.add_argument("--family", required=True, choices=["reduce", "scan", "sort"])
    parser.add_argument("--type", default="int")
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--min-vs-cub", type=float, required=True)
    parser.add_argument("--json", required=True, help="where the rows' JSON goes")
    args = parser.parse_args()
    # Row names are family/variant/type/n (then Google Benchmark's /manual_time).
    status = subprocess.call([args.bench, f"--benchmark_filter=^{args.family}/.*/{args.type}/{args.n}/",
                              f"--benchmark_out={args.json}", "--benchmark_out_format=json"])
    if status != 0:
        return status
    return check_perf.main([args.json, "--family", args.family, "--type", args.type, "--n", str(args.n),
                            "--min-vs-cub", str(args.min_vs_cub)])


if __name__ == "__main__":
    sys.exit(main())
