"""Reads kernels_bench's Google Benchmark JSON into rows: the module plot.py, tables.py and
check_perf.py share.

A row is one family/variant/type/n benchmark: its median over the repetitions (the aggregate
kernels_bench reports), or its error when a call failed (Google Benchmark then reports the
failed run itself, with no aggregates).
"""

import json
from dataclasses import dataclass
from typing import Optional

_MS_PER_UNIT = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


@dataclass(frozen=True)
class Row:
    family: str
    variant: str
    type: str
    n: int
    time_ms: Optional[float] = None
    elements_per_second: Optional[float] = None
    bytes_per_second: Optional[float] = None
    copy_fraction: Optional[float] = None
    vs_cub: Optional[float] = None
    error: Optional[str] = None

    @property
    def gb_per_second(self):
        return None if self.bytes_per_second is None else self.bytes_per_second / 1e9

    @property
    def copy_gb_per_second(self):
        """The copy baseline's bandwidth (bytes read and written), recovered from copy_fraction."""
        if self.bytes_per_second is None or not self.copy_fraction:
            return None
        return self.bytes_per_second / self.copy_fraction / 1e9


def parse_run_name(run_name):
    """'scan/scan_then_fan/blelloch_plain/int/1024/manual_time' -> ('scan', 'scan_then_fan/blelloch_plain', 'int', 1024)."""
    parts = run_name.split("/")
    if parts[-1] == "manual_time":
        parts = parts[:-1]
    if len(parts) < 4:
        raise ValueError(f"not a family/variant/type/n row name: {run_name!r}")
    return parts[0], "/".join(parts[1:-2]), parts[-2], int(parts[-1])


def load_rows(path):
    """One row per benchmark of the JSON file at path, in file order."""
    with open(path, encoding="utf-8") as file:
        document = json.load(file)
    rows = {}
    for entry in document.get("benchmarks", []):
        run_name = entry.get("run_name", entry["name"])
        family, variant, type_name, n = parse_run_name(run_name)
        if entry.get("error_occurred"):
            # Every repetition of a failing row reports its error: keep the first.
            rows.setdefault(run_name, Row(family, variant, type_name, n, error=entry.get("error_message", "error")))
        elif entry.get("run_type") == "aggregate" and entry.get("aggregate_name") == "median":
            rows[run_name] = Row(family, variant, type_name, n,
                                 time_ms=entry["real_time"] * _MS_PER_UNIT[entry.get("time_unit", "ns")],
                                 elements_per_second=entry.get("elements_per_second"),
                                 bytes_per_second=entry.get("bytes_per_second"),
                                 copy_fraction=entry.get("copy_fraction"),
                                 vs_cub=entry.get("vs_cub"))
    return list(rows.values())


def measured(rows):
    """The rows that have figures (not errors)."""
    return [row for row in rows if row.error is None]


def size_label(n):
    """2^k for powers of two, the number otherwise."""
    return f"2^{n.bit_length() - 1}" if n > 0 and n & (n - 1) == 0 else str(n)
