#!/usr/bin/env python3
"""Plots kernels_bench's JSON: throughput against length, one PNG per family and element type.

    plot.py BENCH_JSON OUT_DIR

One line per variant (GB/s of the bytes the primitive must move: bench/README.md says which),
CUB as a thick dashed black line and the device-to-device copy's bandwidth (bytes read and
written) as a grey dotted line, both axes logarithmic. Writes OUT_DIR/<family>_<type>.png and
prints each path.
"""

import argparse
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (the backend is chosen first)

import bench_json  # noqa: E402

_BYTES_MODEL = {
    "reduce": "input read once",
    "scan": "input read, output written",
    "sort": "keys read and written per pass; radix: key bits / 8 passes (nominal), others: one",
}


def plot_family_type(family, type_name, rows, path):
    by_variant = defaultdict(list)
    for row in rows:
        by_variant[row.variant].append(row)
    figure, axes = plt.subplots(figsize=(10, 6))
    colours = plt.get_cmap("tab20")
    others = [variant for variant in by_variant if variant != "cub"]
    for index, variant in enumerate(others):
        points = sorted(by_variant[variant], key=lambda row: row.n)
        axes.plot([row.n for row in points], [row.gb_per_second for row in points], marker="o", markersize=3,
                  linewidth=1.2, color=colours(index % 20), label=variant)
    if "cub" in by_variant:
        points = sorted(by_variant["cub"], key=lambda row: row.n)
        axes.plot([row.n for row in points], [row.gb_per_second for row in points], "k--", linewidth=2.5,
                  label="cub")
    copy = {row.n: row.copy_gb_per_second for row in rows if row.copy_gb_per_second}
    if copy:
        lengths = sorted(copy)
        axes.plot(lengths, [copy[n] for n in lengths], ":", color="grey", linewidth=2.5,
                  label="device-to-device copy")
    axes.set_xscale("log", base=2)
    axes.set_yscale("log")
    axes.set_xlabel("n (elements)")
    axes.set_ylabel(f"GB/s ({_BYTES_MODEL.get(family, 'bytes moved')})", fontsize=8)
    axes.set_title(f"{family}, {type_name}: throughput against length")
    axes.grid(True, which="major", alpha=0.3)
    axes.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("json", help="kernels_bench --benchmark_out file (JSON)")
    parser.add_argument("out_dir", help="folder for the PNGs (created if missing)")
    args = parser.parse_args(argv)
    groups = defaultdict(list)
    for row in bench_json.measured(bench_json.load_rows(args.json)):
        if row.gb_per_second:
            groups[(row.family, row.type)].append(row)
    if not groups:
        print(f"plot.py: no measured rows in {args.json}", file=sys.stderr)
        return 1
    os.makedirs(args.out_dir, exist_ok=True)
    for (family, type_name), rows in sorted(groups.items()):
        path = os.path.join(args.out_dir, f"{family}_{type_name}.png")
        plot_family_type(family, type_name, rows, path)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
