#!/usr/bin/env python3
"""CPU test of the benchmark scripts (ctest cpu.bench_scripts): plot.py, tables.py and
check_perf.py on testdata/sample.json, suite_timing.py on a small ctest JUnit file, gpu_time.py on
two processes' device times (testdata/gpu_time), a kernels_bench JSON of invented figures written by
Google Benchmark itself (real field names, aggregates, and a failed row); perf_compare.py on
synthetic runs of two revisions; perf_power.py on a synthetic study; perf_regression.py on fake
kernels_bench builds."""

import json
import os
import random
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "testdata", "sample.json")
sys.path.insert(0, HERE)

import bench_json  # noqa: E402

try:
    import matplotlib  # noqa: F401
    HAVE_MATPLOTLIB = True
except ImportError:
    # ci/install-deps.sh installs it wherever the suite is built; a machine that only runs a
    # carried build (a GPU runner) may lack it, and then only the plots go untested.
    HAVE_MATPLOTLIB = False

try:
    import scipy  # noqa: F401
    HAVE_SCIPY = True
except ImportError:
    # As matplotlib: ci/install-deps.sh installs it; without it only perf_compare.py goes untested.
    HAVE_SCIPY = False


def run_script(name, *args):
    return subprocess.run([sys.executable, os.path.join(HERE, name), *args], capture_output=True, text=True,
                          check=False)


def sample_median_ms(run_name):
    with open(SAMPLE, encoding="utf-8") as file:
        for entry in json.load(file)["benchmarks"]:
            if entry["run_name"] == run_name and entry.get("aggregate_name") == "median":
                return entry["real_time"]
    raise KeyError(run_name)


def table_line(text, first_cell):
    lines = [line for line in text.splitlines() if line.startswith(f"| {first_cell} |")]
    if not lines:
        raise AssertionError(f"no table line starts with {first_cell!r}")
    return [cell.strip() for cell in lines[0].strip("|").split("|")]


class BenchJson(unittest.TestCase):
    def test_row_names_split_into_family_variant_type_length(self):
        self.assertEqual(bench_json.parse_run_name("scan/scan_then_fan/blelloch_plain/int/1024/manual_time"),
                         ("scan", "scan_then_fan/blelloch_plain", "int", 1024))
        self.assertEqual(bench_json.parse_run_name("reduce/cub/longlong/268435456"),
                         ("reduce", "cub", "longlong", 268435456))

    def test_medians_and_one_error_per_failed_row(self):
        rows = bench_json.load_rows(SAMPLE)
        names = [(row.family, row.variant, row.type, row.n) for row in rows]
        self.assertEqual(len(names), len(set(names)), "one row per benchmark")
        failed = [row for row in rows if row.error]
        self.assertEqual([(row.variant, row.type) for row in failed], [("radix_lsd", "longlong")])
        harris7 = next(row for row in rows if row.variant == "harris7_multi_element" and row.n == 1 << 28
                       and row.type == "int")
        self.assertAlmostEqual(harris7.time_ms,
                               sample_median_ms("reduce/harris7_multi_element/int/268435456/manual_time"))
        self.assertAlmostEqual(harris7.gb_per_second, harris7.bytes_per_second / 1e9)


class Tables(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        result = run_script("tables.py", SAMPLE)
        if result.returncode != 0:
            raise AssertionError(f"tables.py failed:\n{result.stderr}")
        cls.text = result.stdout

    def section(self, title_start):
        parts = [part for part in self.text.split("### ") if part.startswith(title_start)]
        self.assertEqual(len(parts), 1, f"one section titled {title_start!r}")
        return parts[0]

    def test_family_tables_show_each_variant_at_its_longest_length(self):
        reduce = self.section("reduce, int")
        for variant in ["harris1_interleaved_divergent", "harris7_multi_element", "warp_shuffle", "cub"]:
            self.assertEqual(table_line(reduce, variant)[1], "2^28")
        self.assertEqual(table_line(reduce, "cub")[-1], "1.000")
        scan = self.section("scan, int")
        self.assertEqual(table_line(scan, "naive")[1], "2^16")
        self.assertEqual(table_line(scan, "blelloch_padded")[1], "2^9")
        sort = self.section("sort, int")
        self.assertEqual(table_line(sort, "odd_even_multi_block")[1], "2^18")
        self.assertEqual(table_line(sort, "radix_lsd")[1], "2^28")

    def test_harris_ladders_with_speedups_beside_g80(self):
        for n, label in [(1 << 22, "2^22"), (1 << 28, "2^28")]:
            table = self.section(f"Harris's reduction ladder, int, n = {label}")
            g80 = [table_line(table, variant)[1] for variant in
                   ["harris1_interleaved_divergent", "harris2_interleaved_strided", "harris3_sequential",
                    "harris4_first_add_during_load", "harris5_unroll_last_warp", "harris6_complete_unroll",
                    "harris7_multi_element"]]
            self.assertEqual(g80, ["8.054", "3.456", "1.722", "0.965", "0.536", "0.381", "0.268"])
            first = sample_median_ms(f"reduce/harris1_interleaved_divergent/int/{n}/manual_time")
            sixth = sample_median_ms(f"reduce/harris6_complete_unroll/int/{n}/manual_time")
            last = sample_median_ms(f"reduce/harris7_multi_element/int/{n}/manual_time")
            cells = table_line(table, "harris7_multi_element")
            self.assertEqual(cells[3], "30.05x")
            self.assertEqual(cells[6], f"{sixth / last:.2f}x")
            self.assertEqual(cells[7], f"{first / last:.2f}x")

    def test_scan_ladder_steps_at_shared_lengths(self):
        ladder = self.section("The scan ladder, int")
        self.assertIn("scan_then_fan/<algorithm>", ladder)
        steps = ["naive", "hillis_steele_two_barriers", "hillis_steele_double_buffer", "blelloch_plain",
                 "blelloch_padded", "warp_shuffle", "decoupled_lookback", "cub"]
        rows = [table_line(ladder, step) for step in steps]
        self.assertTrue(all(len(cells) == 5 for cells in rows))
        naive = table_line(ladder, "naive")
        self.assertEqual((naive[1], naive[3], naive[4]), ("—", "—", "—"))
        self.assertRegex(naive[2], r"^[0-9.]+ ms \([0-9.]+x cub\)$")
        self.assertTrue(table_line(ladder, "warp_shuffle")[1].startswith("n=1024: "))
        stf = sample_median_ms("scan/scan_then_fan/blelloch_padded/int/268435456/manual_time")
        self.assertTrue(table_line(ladder, "blelloch_padded")[4].startswith(f"{stf:.4g} ms"))
        self.assertTrue(re.match(r"^[0-9.]+ ms \(1\.00x cub\)$", table_line(ladder, "cub")[4]))


@unittest.skipUnless(HAVE_MATPLOTLIB, "matplotlib is not installed (ci/install-deps.sh installs it)")
class Plots(unittest.TestCase):
    def test_one_png_per_family_and_type(self):
        with tempfile.TemporaryDirectory() as out:
            result = run_script("plot.py", SAMPLE, out)
            self.assertEqual(result.returncode, 0, result.stderr)
            expected = {"reduce_int.png", "reduce_float.png", "scan_int.png", "sort_int.png"}
            self.assertEqual(set(os.listdir(out)), expected, "the failed longlong sort row gives no plot")
            for name in expected:
                with open(os.path.join(out, name), "rb") as file:
                    content = file.read()
                self.assertGreater(len(content), 10_000, name)
                self.assertTrue(content.startswith(b"\x89PNG\r\n\x1a\n"), name)


class CheckPerf(unittest.TestCase):
    def check(self, *args):
        return run_script("check_perf.py", SAMPLE, *args)

    def test_passes_at_or_above_the_threshold(self):
        result = self.check("--family", "reduce", "--min-vs-cub", "0.95")
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertIn("best vectorized_single_pass", result.stdout)
        self.assertEqual(self.check("--family", "scan", "--min-vs-cub", "0.90").returncode, 0)

    def test_fails_below_the_threshold(self):
        result = self.check("--family", "sort", "--min-vs-cub", "0.45")
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("FAIL sort/int at n=268435456: best radix_lsd", result.stdout)

    def test_fails_on_a_failed_row_or_no_rows(self):
        self.assertEqual(self.check("--family", "sort", "--type", "longlong", "--min-vs-cub", "0").returncode, 1)
        self.assertEqual(self.check("--family", "reduce", "--n", "12345", "--min-vs-cub", "0").returncode, 1)



JUNIT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="(empty)" tests="3" failures="1" time="70">
  <testcase name="reduce.a" status="run" time="4.5"><properties>
    <property name="cmake_labels" value="gpu;reduce;reduce/a;int"/></properties></testcase>
  <testcase name="reduce.property.a" status="fail" time="3.0"><properties>
    <property name="cmake_labels" value="gpu;property;reduce;reduce/a"/></properties></testcase>
  <testcase name="cpu.registry.reduce/a" status="run" time="9.0"><properties>
    <property name="cmake_labels" value="cpu;reduce/a;registry"/></properties></testcase>
</testsuite>
"""


class GpuTime(unittest.TestCase):
    def test_sums_each_kernel_file_over_the_processes(self):
        with tempfile.TemporaryDirectory() as folder:
            out = os.path.join(folder, "gpu-time.md")
            done = run_script("gpu_time.py", "--from", os.path.join(HERE, "testdata", "gpu_time"), "--out", out)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(out, encoding="utf-8") as file:
                text = file.read()
        # The busy lines are each process's union of records: summed apart, in no row.
        self.assertIn("2 test processes, 6.2 s of device time in all; the union of each process's records 5.5 s.",
                      text)
        # Both element types' window_sort_kernel, 4 s of the 6.25 s, on the first line of the table.
        rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
        self.assertEqual(rows[1], "| kernel odd_even_multi_block.cu | 15 | 4.00 | 64.0 % |")
        self.assertIn("| copy host to device, over 1 MiB | 4 | 1.00 | 16.0 % |", text)
        self.assertIn("| kernel harness sort_device_judge.cu | 2 | 0.50 |", text)
        self.assertIn("| kernel cub | 1 | 0.50 |", text)
        # A record of KERNELS_GPU_TIME_BY_GRID=1 keeps its grid's size class.
        self.assertIn("| kernel cub [1 block] | 1 | 0.25 |", text)
        self.assertNotIn("| busy", text)

    def test_a_folder_without_records_is_an_error(self):
        with tempfile.TemporaryDirectory() as folder:
            done = run_script("gpu_time.py", "--from", folder, "--out", os.path.join(folder, "out.md"))
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("nothing ran under the injection library", done.stderr)


class SuiteTiming(unittest.TestCase):
    def test_a_preset_against_its_targets(self):
        with tempfile.TemporaryDirectory() as folder:
            junit, out = os.path.join(folder, "junit.xml"), os.path.join(folder, "timing.md")
            with open(junit, "w", encoding="utf-8") as file:
                file.write(JUNIT)
            result = run_script("suite_timing.py", "--junit", f"gpu={junit}", "--about", "a machine", "--out", out)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(out, encoding="utf-8") as file:
                text = file.read()
        self.assertIn("3 entries: 2 passed, 1 failed, 0 not run or skipped; wall 70 s, entries' summed time 16 s.", text)
        self.assertIn("Target: 60 s, not met (1.2x).", text)
        self.assertIn("| cpu.registry.reduce/a | 9.0 |", text)
        # The variant's GPU entries only: 4.5 + 3.0, not its CPU entry.
        self.assertIn("target 5 s: 0 of 1 variants within it", text)
        self.assertIn("| reduce/a | 7.5 | 4.5 |", text)

    def test_each_gpu_entrys_seconds_longest_first(self):
        with tempfile.TemporaryDirectory() as folder:
            junit, out = os.path.join(folder, "junit.xml"), os.path.join(folder, "timing.md")
            costs = os.path.join(folder, "entry_seconds.txt")
            with open(junit, "w", encoding="utf-8") as file:
                file.write(JUNIT)
            result = run_script("suite_timing.py", "--junit", f"gpu={junit}", "--about", "a machine", "--out", out,
                                "--costs-out", costs)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(costs, encoding="utf-8") as file:
                lines = [line for line in file.read().splitlines() if not line.startswith("#")]
        # GPU entries only (not the CPU one), failed ones too, longest first.
        self.assertEqual(lines, ["reduce.a 4.5", "reduce.property.a 3.0"])

    def test_a_failure_path_runs_its_entry_between_its_fixtures_entries(self):
        sys.path.insert(0, HERE)
        import suite_timing

        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "CTestTestfile.cmake"), "w", encoding="utf-8") as file:
                file.write('add_test(daemon.start "/bin/true" "start")\n'
                           'set_tests_properties(daemon.start PROPERTIES FIXTURES_SETUP daemon)\n'
                           'add_test(daemon.stop "/bin/true" "stop")\n'
                           'set_tests_properties(daemon.stop PROPERTIES FIXTURES_CLEANUP daemon)\n'
                           'add_test(sort.a "/bin/echo" "x")\n'
                           'set_tests_properties(sort.a PROPERTIES FIXTURES_REQUIRED daemon ENVIRONMENT "V=1")\n'
                           'add_test(sort.a.b "/bin/echo" "y")\n')
            run = suite_timing.entry_run(folder, "sort.a")
        self.assertEqual(run.command, ["/bin/echo", "x"])
        self.assertEqual(run.variables, {"V": "1"})
        self.assertEqual(run.setups, [["/bin/true", "start"]])
        self.assertEqual(run.cleanups, [["/bin/true", "stop"]])

    def test_the_failure_path_against_its_targets(self):
        sys.path.insert(0, HERE)
        import suite_timing

        fast = suite_timing.FailurePath("m", "sort.a", 1, 1.1, 12.2, ("52 of 52 cases failed: 52 wrong value",))
        text = "\n".join(suite_timing.failure_section(fast))
        self.assertIn("first failure printed after 1.1 s (target 10 s, met), entry ended after 12.2 s "
                      "(target 30 s, met), exit 1", text)
        self.assertIn("    52 of 52 cases failed: 52 wrong value", text)
        slow = suite_timing.FailurePath("m", "sort.a", 1, 11.0, 31.0, ())
        self.assertIn("(target 10 s, not met)", "\n".join(suite_timing.failure_section(slow)))
        # A sanitizer entry's targets: its usual time when it passes, where longer than 10 and 30 s.
        sanitized = suite_timing.FailurePath("m", "sanitize.racecheck.sort.a", 1, 12.0, 140.0, (), 12.0, 149.4)
        self.assertIn("first failure printed after 12.0 s (target 12 s, met), entry ended after 140.0 s "
                      "(target 149.4 s, met)", "\n".join(suite_timing.failure_section(sanitized)))
        # Those usual times come from test/entry_seconds.txt.
        self.assertGreater(suite_timing.passing_seconds("sanitize.racecheck.sort.radix_onesweep.wide"), 30)
        self.assertEqual(suite_timing.passing_seconds("sanitize.no_such.entry"), 0.0)
        survived = suite_timing.FailurePath("m", "sort.a", 0, None, 5.0, ())
        self.assertIn("nothing failed (exit 0) in 5.0 s: the mutant is not killed",
                      "\n".join(suite_timing.failure_section(survived)))
        silent = suite_timing.FailurePath("m", "sort.a", 134, None, 2.0, ())
        self.assertIn("exit 134 after 2.0 s without a failure line (target 10 s, not met)",
                      "\n".join(suite_timing.failure_section(silent)))
        # A case's FAIL line and the hang watchdog's report count as failures, as gtest's do.
        for line in ("a.cpp:3: Failure", "FAIL sort/a type=int block=32 n=5: wrong", "HANG: a batch ran past"):
            self.assertTrue(suite_timing.is_failure_line(line), line)
        self.assertFalse(suite_timing.is_failure_line("device: NVIDIA H100"))
        # The summaries kept: bulk summaries, and the watchdog's report with the two lines after it.
        printed = suite_timing.PrintedSummaries()
        for line in ("[ RUN ] x\n", "Actual: false (3 of 4 cases failed: 3 wrong value\n", "failed at n=5\n",
                     "HANG: a batch ran past its deadline: a step of 2 values\n", "FAIL reduce/a n=2: timeout\n",
                     "     rerun: kcheck reduce/a --n 2\n", "unrelated\n"):
            printed.add(line)
        self.assertEqual(printed.lines, ["3 of 4 cases failed: 3 wrong value", "failed at n=5",
                                         "HANG: a batch ran past its deadline: a step of 2 values",
                                         "FAIL reduce/a n=2: timeout", "     rerun: kcheck reduce/a --n 2"])

    def test_where_the_time_went_by_kind_of_entry(self):
        steps = "start 0.50 generate {0} upload 1.00 allocate 0.50 launch 0.25 wait {1} download 0.50 judge 2.00 guards 0.25"
        log = "\n".join([
            "1/3 Testing: reduce.a", "1/3 Test: reduce.a", "Output:", "device: an H100",
            f"phase seconds: {steps.format('1.00', '3.00')} other 1.50; wall 10.00 cpu 6.00", "<end of output>",
            "2/3 Test: reduce.long.a", "Output:",
            f"phase seconds: {steps.format('2.00', '1.00')} other 0.50; wall 8.00 cpu 7.00", "<end of output>",
            # A property's entry, and an entry that printed no phase line (a CPU test).
            "3/3 Test: reduce.property.a", "Output:",
            f"phase seconds: {steps.format('0.00', '0.00')} other 20.00; wall 24.50 cpu 20.00",
            "4/4 Test: cpu.registry.reduce/a", "Output:", "[  PASSED  ] 1 test.", "",
        ])
        with tempfile.TemporaryDirectory() as folder:
            path, out = os.path.join(folder, "LastTest.log"), os.path.join(folder, "timing.md")
            with open(path, "w", encoding="utf-8") as file:
                file.write(log)
            result = run_script("suite_timing.py", "--phases", f"gpu={path}", "--out", out)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(out, encoding="utf-8") as file:
                text = file.read()
        self.assertIn("| entries | count | start | generate | upload | allocate | launch | wait | download | judge | guards "
                      "| other | wall | cpu |", text)
        # Both entries of every type summed into one row; the property apart; then every entry.
        self.assertEqual(table_line(text, "reduce types"), ["reduce types", "2", "1", "3", "2", "1", "0", "4", "1",
                                                            "4", "0", "2", "18", "13"])
        self.assertEqual(table_line(text, "reduce property")[1:4], ["1", "0", "0"])
        self.assertEqual(table_line(text, "all")[-2:], ["42", "33"])
        # Fails if the start cost is not put as a number beside the device calls.
        self.assertIn("Contexts: 3 processes spent 2 s starting (0.50 s each, 4 % of their summed 42 s), against "
                      "5 s in device calls (launch and wait, 11 %).", text)

    def test_the_slots_the_entries_held_bound_the_wall(self):
        # Fails if an entry's seconds are not weighted by its slots, or the bound is not put beside the wall:
        # a preset whose slots are busy throughout is bound by its work, whatever its contexts cost.
        import suite_timing
        run = suite_timing.PresetRun("gpu", 10.0, (suite_timing.Entry("sort.large.a", "run", 4.0, ()),
                                                   suite_timing.Entry("sort.a.int", "run", 6.0, ()),
                                                   suite_timing.Entry("cpu.registry", "run", 9.0, ())))
        slots = suite_timing.Slots({"sort.large.a": 11, "sort.a.int": 1}, 16)
        self.assertEqual(suite_timing.slot_line(run, slots),
                         "Slots: the GPU entries held 50 slot-seconds (each entry's seconds times its slots) of the "
                         "build's 16: at least 3.1 s with every slot busy, against a wall of 10.0 s (31 %).")
        self.assertIsNone(suite_timing.read_slots(os.path.join(HERE, "no-such-build")))

    def test_the_failure_path_needs_the_mutants_library(self):
        with tempfile.TemporaryDirectory() as folder:
            result = run_script("suite_timing.py", "--failure-path", "no_such_mutant=sort.a", "--out",
                                os.path.join(folder, "timing.md"))
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("--catalogue no_such_mutant --build-only", result.stderr)


def repetitions_json(rows, seed):
    """A kernels_bench JSON of {row: [ms per repetition]}: each repetition, then its median."""
    entries = []
    for row, times in rows.items():
        run_name = f"{row}/manual_time"
        entries += [{"name": run_name, "run_name": run_name, "run_type": "iteration", "repetitions": len(times),
                     "repetition_index": index, "iterations": 50, "real_time": time, "time_unit": "ms"}
                    for index, time in enumerate(times)]
        entries.append({"name": f"{run_name}_median", "run_name": run_name, "run_type": "aggregate",
                        "aggregate_name": "median", "real_time": sorted(times)[len(times) // 2], "time_unit": "ms"})
    return {"context": {"seed": seed}, "benchmarks": entries}


def noisy(median_ms, count, rng, spread=0.01):
    """count repetitions around median_ms, each within +-spread of it (uniform noise)."""
    return [median_ms * (1 + rng.uniform(-spread, spread)) for _ in range(count)]


@unittest.skipUnless(HAVE_SCIPY, "scipy is not installed (ci/install-deps.sh installs it)")
class PerfCompare(unittest.TestCase):
    ROW = "reduce/vectorized_single_pass/int/268435456"
    OTHER = "scan/decoupled_lookback/int/1024"

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        self.rng = random.Random(55)

    def write(self, name, rows):
        path = os.path.join(self.folder.name, name)
        with open(path, "w", encoding="utf-8") as file:
            json.dump(repetitions_json(rows, name), file)
        return path

    def runs(self, levels, rows=None, spread=0.01):
        """One run's {row: 5 repetitions} per level: each process's own median (ms)."""
        return [{row: noisy(level * scale, 5, self.rng, spread) for row, scale in (rows or {self.ROW: 1.0}).items()}
                for level in levels]

    def compare(self, base_runs, head_runs, *args):
        """perf_compare.py on a file per run."""
        paths = {side: [self.write(f"{side}{index}.json", run) for index, run in enumerate(runs, 1)]
                 for side, runs in (("base", base_runs), ("head", head_runs))}
        return run_script("perf_compare.py", "--base", *paths["base"], "--head", *paths["head"], *args)

    def verdict(self, result, row=None):
        return table_line(result.stdout, row or self.ROW)[-1]

    def test_identical_runs_are_the_same(self):
        result = self.compare(self.runs([2.0] * 5), self.runs([2.0] * 5))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.verdict(result), "SAME")

    def test_ten_percent_slower_in_every_run_is_slow_and_fails(self):
        # Fails if a clean 10 % shift of every head run passes, or the table's cells or order are wrong.
        rows = {self.ROW: 1.0, self.OTHER: 0.005}
        result = self.compare(self.runs([2.0] * 5, rows), self.runs([2.2] * 5, {self.ROW: 1.0, self.OTHER: 0.0045}))
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        cells = table_line(result.stdout, self.ROW)
        self.assertEqual(cells[-1], "SLOW")
        self.assertAlmostEqual(float(cells[3]), 10.0, delta=1.5)
        self.assertAlmostEqual(float(cells[4]), 2 / 252, places=4, msg="5 runs above 5 runs: the smallest p")
        self.assertEqual(cells[5], "5/5", "a unit per file")
        self.assertLess(float(cells[6]), 3.0, "the runs' spread")
        # Sorted by slowdown: the slow row comes before the unchanged one.
        self.assertLess(result.stdout.index(self.ROW), result.stdout.index(self.OTHER))
        self.assertIn("1 SLOW, 1 SAME", result.stdout)

    def test_ten_percent_faster_is_fast(self):
        result = self.compare(self.runs([2.0] * 5), self.runs([1.8] * 5))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.verdict(result), "FAST")

    def test_a_steady_loss_below_the_threshold_is_slower_and_passes(self):
        # Fails if a significant 3 % loss on runs that agree to a fraction of it passes unreported,
        # fails the check, or is not SLOW once over the threshold.
        base, head = self.runs([2.0] * 5, spread=0.002), self.runs([2.06] * 5, spread=0.002)
        result = self.compare(base, head)
        self.assertEqual(result.returncode, 0, result.stderr)
        cells = table_line(result.stdout, self.ROW)
        self.assertLess(float(cells[4]), 0.01, "significant")
        self.assertEqual(cells[-1], "slower")
        self.assertIn("1 rows: 1 slower.", result.stdout)
        # The same runs with a 2 % threshold: over it, so SLOW.
        self.assertEqual(self.verdict(self.compare(base, head, "--threshold", "0.02")), "SLOW")

    def test_a_loss_within_the_spread_or_under_the_floor_is_the_same(self):
        # Fails if a loss under half the runs' own spread, or under 2 %, reads slower: unchanged
        # launch-bound rows differ by 20 % between runs.
        wide = self.compare(self.runs([1.98, 1.99, 2.00, 2.01, 2.02], spread=0.001),
                            self.runs([2.03, 2.04, 2.06, 2.20, 2.30], spread=0.001))
        cells = table_line(wide.stdout, self.ROW)
        self.assertLess(float(cells[4]), 0.01, "significant")
        self.assertGreater(float(cells[6]), 2 * float(cells[3]), "a spread over twice the change")
        self.assertEqual(cells[-1], "SAME")
        small = self.compare(self.runs([2.0] * 5, spread=0.001), self.runs([2.03] * 5, spread=0.001))
        self.assertEqual(self.verdict(small), "SAME", "1.5 %: under the floor")
        self.assertEqual(self.verdict(self.compare(self.runs([2.0] * 5, spread=0.001), self.runs([2.03] * 5, spread=0.001),
                                                   "--slower-floor", "0.01")), "slower")

    def test_processes_not_repetitions_are_the_units(self):
        # Fails if a side's repetitions are pooled again: each process has its own level (as on the
        # H100, where processes differ more than one process's repetitions), one base run as slow as
        # the head's, one head run as fast as the base's. Pooled, 25 repetitions a side read SLOW;
        # 5 run medians a side do not.
        import perf_compare
        base, head = self.runs([1.0, 0.98, 1.01, 0.99, 1.09], spread=0.002), \
            self.runs([1.08, 1.10, 1.07, 1.11, 1.0], spread=0.002)
        pooled = [[time for run in runs for time in run[self.ROW]] for runs in (base, head)]
        self.assertEqual(perf_compare.compare_row(self.ROW, *pooled, 0.05, 0.01, 9).verdict, "SLOW", "the old unit")
        result = self.compare(base, head)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        cells = table_line(result.stdout, self.ROW)
        self.assertEqual((cells[5], cells[-1]), ("5/5", "SAME"))
        self.assertGreater(float(cells[4]), 0.01)

    def test_too_few_runs_give_no_verdict(self):
        # Fails if repetitions count as runs (one file of 25), or 4 runs a side get a verdict.
        one_long_run = [{self.ROW: noisy(2.0, 25, self.rng)}]
        result = self.compare(one_long_run, [{self.ROW: noisy(3.0, 25, self.rng)}])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.verdict(result), "too few")
        result = self.compare(self.runs([2.0] * 4), self.runs([3.0] * 5))
        self.assertEqual((table_line(result.stdout, self.ROW)[5], self.verdict(result)), ("4/5", "too few"))
        self.assertIn("at least 5 runs a side", result.stdout)
        self.assertEqual(self.verdict(self.compare(self.runs([2.0] * 4), self.runs([3.0] * 5), "--min-runs", "4")),
                         "SAME", "4 against 5: p >= 2/126, never below 0.01")

    def test_a_row_missing_on_one_side_is_bad_input(self):
        result = self.compare(self.runs([2.0] * 5, {self.ROW: 1.0, self.OTHER: 0.005}), self.runs([2.0] * 5))
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        self.assertIn(f"row {self.OTHER} is missing from the head", result.stderr)
        self.assertEqual(self.verdict(result, self.OTHER), "base only")

    def test_an_unreadable_file_or_aggregates_only_is_bad_input(self):
        head = self.write("head.json", {self.ROW: noisy(2.0, 9, self.rng)})
        for name in ("absent.json", "truncated.json"):
            bad = os.path.join(self.folder.name, name)
            if name == "truncated.json":
                with open(bad, "w", encoding="utf-8") as file:
                    file.write('{"benchmarks": [')
            result = run_script("perf_compare.py", "--base", bad, "--head", head)
            self.assertEqual(result.returncode, 2, name)
            self.assertIn(f"{bad}: not a readable Google Benchmark JSON file", result.stderr)
        aggregates = self.write("aggregates.json", {})
        with open(aggregates, "w", encoding="utf-8") as file:
            json.dump({"benchmarks": [entry for entry in repetitions_json({self.ROW: [2.0] * 9}, 0)["benchmarks"]
                                      if entry["run_type"] == "aggregate"]}, file)
        result = run_script("perf_compare.py", "--base", aggregates, "--head", head)
        self.assertEqual(result.returncode, 2)
        self.assertIn(f"{aggregates}: row {self.ROW} has aggregates but no repetitions", result.stderr)

    @unittest.skipUnless(HAVE_MATPLOTLIB, "matplotlib is not installed (ci/install-deps.sh installs it)")
    def test_writes_the_table_and_the_plot(self):
        table, plot = os.path.join(self.folder.name, "table.md"), os.path.join(self.folder.name, "ratios.png")
        result = self.compare(self.runs([2.0] * 5), self.runs([2.0] * 5), "--out", table, "--plot", plot)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(table, encoding="utf-8") as file:
            self.assertEqual(file.read(), result.stdout)
        with open(plot, "rb") as file:
            self.assertEqual(file.read(8), b"\x89PNG\r\n\x1a\n")


@unittest.skipUnless(HAVE_SCIPY, "scipy is not installed (ci/install-deps.sh installs it)")
class PerfPower(unittest.TestCase):
    LONG, SHORT = "reduce/vectorized_single_pass/int/268435456", "scan/decoupled_lookback/int/1024"

    def test_a_study_as_the_detection_table(self):
        # Fails if the table counts other checks than v1's per study and v2's 4 pairings of rounds,
        # takes pooled repetitions for v2, or a packed study reads back otherwise than its folder.
        # Each A2 process of the short row has its own level: pooled, v1 reads study 1 (both runs 7 %
        # slow) SLOW, and so would pooling round 2 (4 of 5 runs 6 to 9 % slow); v2's run medians of a
        # round (never all slow) do not. Plants are seen everywhere.
        rng, folder = random.Random(7), tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        a2_levels = {1: (1.08, 1.07), 2: (0.93, 1.06), 3: (0.96, 1.08), 4: (0.98, 1.09), 5: (0.92, 0.94)}
        for study in range(1, 6):
            for rnd in (1, 2):
                for side, planted in (("A", 0), ("P5", 0.05), ("A2", 0), ("P10", 0.10), ("P20", 0.20)):
                    level = a2_levels[study][rnd - 1] if side == "A2" else 1.0
                    rows = {self.LONG: noisy(2.0 * (1 + planted), 5, rng, 0.002),
                            self.SHORT: noisy(0.01 * (1 + planted) * level, 5, rng, 0.002)}
                    with open(os.path.join(folder.name, f"{study}-{rnd}-{side}.json"), "w", encoding="utf-8") as file:
                        json.dump(repetitions_json(rows, side), file)
        packed, table = os.path.join(folder.name, "runs.json"), os.path.join(folder.name, "table.md")
        result = run_script("perf_power.py", "--runs", folder.name, "--pack", packed, "--out", table)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(table_line(result.stdout, "A2 | none (unchanged code) | v2")[3:], ["0/4", "", "0/4", "0/8"])
        self.assertEqual(table_line(result.stdout, "P10 | 10 % | v2")[5], "4/4")
        self.assertEqual(table_line(result.stdout, "P10 | 10 % | v1")[5], "5/5")
        self.assertEqual(table_line(result.stdout, "A2 | none (unchanged code) | v1")[3:], ["1/5", "", "0/5", "1/10"])
        # Confirmed: round 1's A against each head round, the other rounds as the fresh runs.
        self.assertEqual(table_line(result.stdout, "A2 | none (unchanged code) | v2 confirmed")[3:], ["0/2", "", "0/2", "0/4"])
        self.assertEqual(table_line(result.stdout, "P10 | 10 % | v2 confirmed")[3:], ["2/2", "", "2/2", "4/4"])
        self.assertIn("regroup the same runs", result.stdout)
        again = run_script("perf_power.py", "--runs", packed)
        self.assertEqual((again.returncode, again.stdout), (0, result.stdout))

    def test_confirmation_clears_a_round_that_was_slow_once(self):
        # Fails if "v2 confirmed" counts a SLOW that the other round of both sides does not repeat:
        # here every A2 run of round 1 is 8 % slow and none of round 2.
        rng, folder = random.Random(11), tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        for study in range(1, 6):
            for rnd in (1, 2):
                for side, planted in (("A", 0), ("P5", 0.05), ("A2", 0.08 if rnd == 1 else 0), ("P10", 0.10),
                                      ("P20", 0.20)):
                    rows = {self.LONG: noisy(2.0 * (1 + planted), 5, rng, 0.002)}
                    with open(os.path.join(folder.name, f"{study}-{rnd}-{side}.json"), "w", encoding="utf-8") as file:
                        json.dump(repetitions_json(rows, side), file)
        result = run_script("perf_power.py", "--runs", folder.name)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(table_line(result.stdout, "A2 | none (unchanged code) | v2")[-1], "2/4")
        self.assertEqual(table_line(result.stdout, "A2 | none (unchanged code) | v2 confirmed")[-1], "0/2")
        self.assertEqual(table_line(result.stdout, "P10 | 10 % | v2 confirmed")[-1], "2/2")


# A stand-in for kernels_bench, configured by fake.json beside it: lists its rows (Python's re for
# --benchmark_filter), writes each run's repetitions around the row's median (KERNELS_BENCH_SLOWDOWN
# slows matching rows, as the real harness does; "slow_plant" does in the side's first "slow_runs"
# runs), exits with "exit" when a run is asked for, and appends every call (side, arguments,
# planted slowdown) to the log.
FAKE_BENCH = """\
import json, os, random, re, sys
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake.json")) as file:
    config = json.load(file)
flags = dict((arg[2:].split("=", 1) + ["true"])[:2] for arg in sys.argv[1:])
plant = os.environ.get("KERNELS_BENCH_SLOWDOWN")
with open(config["log"], "a") as log:
    log.write(json.dumps({"side": config["side"], "args": sys.argv[1:], "plant": plant}) + "\\n")
names = [f"{row}/manual_time" for row in config["rows"]]
names = [name for name in names if re.search(flags.get("benchmark_filter", ""), name)]
if "benchmark_list_tests" in flags:
    print("\\n".join(names))
    sys.exit(0)
if config.get("exit"):
    sys.exit(config["exit"])
with open(config["log"]) as log:
    earlier = [json.loads(line) for line in log]
run_index = sum(call["side"] == config["side"] and "--benchmark_list_tests" not in call["args"] for call in earlier)
if run_index <= config.get("slow_runs", 0):
    plant = config["slow_plant"]
rng, entries = random.Random(flags["benchmark_out"]), []
for name in names:
    row = name[: -len("/manual_time")]
    median = config["rows"][row]
    if plant and re.search(plant.rsplit("=", 1)[0], row):
        median *= 1 + float(plant.rsplit("=", 1)[1])
    for index in range(int(flags["benchmark_repetitions"])):
        entries.append({"name": name, "run_name": name, "run_type": "iteration", "repetition_index": index,
                        "real_time": median * (1 + rng.uniform(-0.01, 0.01)), "time_unit": "ms"})
with open(flags["benchmark_out"], "w") as file:
    json.dump({"context": {}, "benchmarks": entries}, file)
"""

def perf_compare_label(name):
    return name[: -len("/manual_time")]


# The fake's rows: a variant to 2^28, a scan-then-fan variant (a slash in its name), the naive scan
# (stops at 2^16), a one-block scan (a single row below 2^10), and an operator's row (left out).
FAKE_ROWS = {**{f"reduce/vectorized/int/{1 << k}": 0.01 * (1 << max(0, k - 18)) for k in range(10, 29, 2)},
             **{f"scan/scan_then_fan/blelloch_padded/float/{1 << k}": 0.02 * (1 << max(0, k - 18))
                for k in range(10, 29, 2)},
             **{f"scan/naive/int/{1 << k}": 0.05 * (1 << max(0, k - 10)) for k in range(10, 17, 2)},
             "scan/one_block/int/512": 0.008, "reduce/vectorized/int:max/268435456": 2.5}
SELECTED = ["reduce/vectorized/int/1024", "reduce/vectorized/int/1048576", "reduce/vectorized/int/268435456",
            "scan/scan_then_fan/blelloch_padded/float/1024", "scan/scan_then_fan/blelloch_padded/float/1048576",
            "scan/scan_then_fan/blelloch_padded/float/268435456", "scan/naive/int/1024", "scan/naive/int/65536",
            "scan/one_block/int/512"]


@unittest.skipUnless(HAVE_SCIPY, "scipy is not installed (ci/install-deps.sh installs it)")
class PerfRegression(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        self.log = os.path.join(self.folder.name, "calls.jsonl")
        self.out = os.path.join(self.folder.name, "report")

    def fake_build(self, side, rows=None, exit_status=0, slow_runs=0, slow_plant=None):
        """A build folder holding a fake kernels_bench for `side` (A or B); its first `slow_runs`
        runs slowed as KERNELS_BENCH_SLOWDOWN=`slow_plant` would."""
        build = os.path.join(self.folder.name, f"build-{side}")
        os.makedirs(os.path.join(build, "bench"), exist_ok=True)
        binary = os.path.join(build, "bench", "kernels_bench")
        with open(binary, "w", encoding="utf-8") as file:
            file.write(f"#!{sys.executable}\n{FAKE_BENCH}")
        os.chmod(binary, 0o755)
        with open(os.path.join(build, "bench", "fake.json"), "w", encoding="utf-8") as file:
            json.dump({"side": side, "rows": rows or FAKE_ROWS, "log": self.log, "exit": exit_status,
                       "slow_runs": slow_runs, "slow_plant": slow_plant}, file)
        with open(os.path.join(build, "CMakeCache.txt"), "w", encoding="utf-8") as file:
            file.write("CMAKE_BUILD_TYPE:STRING=Release\nCMAKE_CUDA_ARCHITECTURES:UNINITIALIZED=90\n"
                       "CMAKE_GENERATOR:INTERNAL=Ninja\nCMAKE_CXX_FLAGS_DEBUG:STRING=-g\n")
        return build

    def check(self, *args, base=None, head=None, env=None):
        base_args = ["--base-build", base or self.fake_build("A")] if "--base" not in args else []
        return subprocess.run([sys.executable, os.path.join(HERE, "perf_regression.py"), *base_args,
                               "--head-build", head or self.fake_build("B"), "--work", self.folder.name,
                               "--out", self.out, *args], capture_output=True, text=True, check=False,
                              env=dict(os.environ, **(env or {})))

    def runs(self):
        """The fake's calls that ran rows (not listings): (side, flags, planted slowdown)."""
        with open(self.log, encoding="utf-8") as file:
            calls = [json.loads(line) for line in file]
        return [(call["side"], dict(arg[2:].split("=", 1) for arg in call["args"]), call["plant"]) for call in calls
                if "--benchmark_list_tests" not in call["args"]]

    def test_rows_at_two_to_the_10_20_and_28_or_the_longest(self):
        # Fails if the check times other lengths than the launch-bound, middle and bandwidth-bound
        # rows (or a shorter variant's longest), or times an operator's row.
        import perf_regression
        names = [f"{row}/manual_time" for row in FAKE_ROWS]
        self.assertEqual(perf_regression.select_rows(names), [f"{row}/manual_time" for row in SELECTED])
        # The filter names exactly those rows: no prefix of a longer name, no other length.
        pattern = perf_regression.exact_filter(perf_regression.select_rows(names))
        self.assertEqual([name for name in names if re.search(pattern, name)],
                         [f"{row}/manual_time" for row in SELECTED])
        self.assertIsNone(re.search(pattern, "reduce/vectorized/int/10240/manual_time"))
        self.assertEqual(perf_regression.exact_filter(["a.b/c+d/1"]), r"^(a\.b/c\+d/1)$")

    def test_runs_interleave_base_and_head_on_the_same_rows(self):
        # Fails if the sides run in blocks (drift would read as a change), with other rows, fewer
        # than 5 runs a side or other repetitions, or if a row only the head lists is run at all.
        head = self.fake_build("B", rows={**FAKE_ROWS, "sort/new_variant/int/1024": 0.02})
        result = self.check(head=head)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        runs = self.runs()
        self.assertEqual([side for side, _, _ in runs], ["A", "B"] * 5)
        self.assertEqual({flags["benchmark_filter"] for _, flags, _ in runs},
                         {runs[0][1]["benchmark_filter"]}, "one row list for every run")
        self.assertEqual({flags["benchmark_repetitions"] for _, flags, _ in runs}, {"5"})
        self.assertEqual({flags["benchmark_report_aggregates_only"] for _, flags, _ in runs}, {"false"})
        self.assertNotIn("new_variant", runs[0][1]["benchmark_filter"])
        self.assertIn("left out 1 head row(s) the base lacks", result.stdout)
        self.assertIn("rows of every variant", result.stdout, "a base build: no revision to diff")
        self.assertIn(f"{len(SELECTED)} rows compared in", result.stdout)
        self.assertIn("| 5/5 |", result.stdout)

    def test_rounds_and_repetitions(self):
        # Fails if --repetitions is ignored, or fewer than 5 rounds (where the U test of 4 run
        # medians against 4 can never reach p < 0.01) are let through.
        result = self.check("--rounds", "6", "--repetitions", "3", "--filter", "^scan/naive/")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual([(side, flags["benchmark_repetitions"]) for side, flags, _ in self.runs()],
                         [("A", "3"), ("B", "3")] * 6)
        refused = self.check("--rounds", "4")
        self.assertEqual(refused.returncode, 2, refused.stdout + refused.stderr)
        self.assertIn("--rounds must be at least 5", refused.stderr)

    def test_the_rows_of_the_changed_variant_files(self):
        # Fails if a change to variant files alone runs other variants' rows, if shared code (or a
        # file registering none) does not run every row, or if a new variant's file fails the check.
        import perf_regression
        texts = {"kernels/scan/blelloch_padded.cu": 'register_variant(make_scan_variant<A>({.name = "blelloch_padded",'
                                                    '\nregister_variant(x({ .name = "scan_then_fan/blelloch_padded",',
                 "kernels/reduce/vectorized.cu": 'register_variant(make_reduce_variant<V>({\n    .name = "vectorized",',
                 "kernels/reduce/empty_result.cu": "__global__ void write_value_kernel(T* out, T value)"}

        def touched(*changed):
            return perf_regression.touched_variants(changed, lambda path: texts.get(path, ""))[0]

        self.assertEqual(touched("kernels/scan/blelloch_padded.cu", "docs/benchmarks.md", "bench/perf_compare.py"),
                         {("scan", "blelloch_padded"), ("scan", "scan_then_fan/blelloch_padded")})
        for shared in ("kernels/scan/detail/tile_scan.cuh", "kernels/reduce/empty_result.cu", "kernels/src/registry.cpp",
                       "kernels/reduce/sources.cmake", "bench/benchmark_rows.cpp", "test/harness/input/run_seed.cpp",
                       "cmake/Warnings.cmake", "CMakeLists.txt", "kernels/scan/gone.cu"):
            self.assertIsNone(touched("kernels/reduce/vectorized.cu", shared), shared)
        self.assertIsNone(touched("docs/benchmarks.md"), "no variant file changed: every row")
        head = self.fake_build("B")
        rows = perf_regression.compared_rows(os.path.join(head, "bench", "kernels_bench"), None, None,
                                             touched("kernels/scan/blelloch_padded.cu"))
        self.assertEqual([perf_compare_label(row) for row in rows], SELECTED[3:6])
        with self.assertRaises(perf_regression.Stop) as stopped:
            perf_regression.compared_rows(os.path.join(head, "bench", "kernels_bench"), None, None,
                                          {("sort", "new_variant")})
        self.assertEqual(stopped.exception.status, 0, "nothing to compare is no failure")

    def test_a_planted_twenty_percent_slowdown_is_slow(self):
        # Fails if a 20 % slower head row passes, if its SLOW is not confirmed by fresh runs of that
        # row alone, if the plant reaches the base's runs, or if the variable set in the environment
        # leaks into either side.
        result = self.check("--plant", "^scan/naive/int/1024$=0.2", env={"KERNELS_BENCH_SLOWDOWN": "^reduce/=0.5"})
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertEqual(table_line(result.stdout, "scan/naive/int/1024")[-1], "SLOW")
        self.assertIn(f"1 SLOW, {len(SELECTED) - 1} SAME", result.stdout)
        runs = self.runs()
        self.assertEqual([side for side, _, _ in runs], ["A", "B"] * 10)
        self.assertEqual({flags["benchmark_filter"] for _, flags, _ in runs[10:]}, {r"^(scan/naive/int/1024/manual_time)$"})
        self.assertEqual([flags["benchmark_out"].rsplit("/", 1)[1] for _, flags, _ in runs[10:12]], ["A6.json", "B6.json"])
        self.assertEqual({(side, plant) for side, _, plant in runs},
                         {("A", None), ("B", "^scan/naive/int/1024$=0.2")})
        with open(os.path.join(self.out, "table.md"), encoding="utf-8") as file:
            table = file.read()
        self.assertIn("| scan/naive/int/1024 |", table)
        self.assertIn("Confirmation: the rows read SLOW or slower, timed again in 5 fresh rounds", table)
        self.assertIn("1 rows: 1 SLOW.", table)
        if HAVE_MATPLOTLIB:
            with open(os.path.join(self.out, "ratios.png"), "rb") as file:
                self.assertEqual(file.read(8), b"\x89PNG\r\n\x1a\n")

    def test_a_slowdown_the_fresh_runs_do_not_repeat_passes(self):
        # Fails if a row read SLOW once (here the head's first 5 runs were slow, its next 5 not) fails
        # the check, or is reported as anything but not confirmed.
        head = self.fake_build("B", slow_runs=5, slow_plant="^scan/naive/int/1024$=0.2")
        result = self.check(head=head)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(table_line(result.stdout, "scan/naive/int/1024")[-1], "SLOW, not confirmed")
        self.assertIn(f"1 SLOW, not confirmed, {len(SELECTED) - 1} SAME", result.stdout)
        self.assertEqual(len(self.runs()), 20)

    def test_a_planted_three_percent_slowdown_is_slower_and_passes(self):
        # Fails if a 3 % slower head row goes unreported, fails the check, is not confirmed by fresh
        # runs of that row alone, or stays slower when the fresh runs do not repeat it.
        result = self.check("--plant", "^reduce/vectorized/int/268435456$=0.03")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(table_line(result.stdout, "reduce/vectorized/int/268435456")[-1], "slower")
        self.assertIn(f"1 slower, {len(SELECTED) - 1} SAME", result.stdout)
        self.assertIn("1 row(s) slower by 2 % to 5 %, confirmed (reported, not failing): "
                      "reduce/vectorized/int/268435456", result.stdout)
        self.assertEqual(len(self.runs()), 20, "5 fresh rounds of the slower row")
        once = self.fake_build("B", slow_runs=5, slow_plant="^reduce/vectorized/int/268435456$=0.03")
        cleared = self.check(head=once)
        self.assertEqual(cleared.returncode, 0, cleared.stdout + cleared.stderr)
        self.assertEqual(table_line(cleared.stdout, "reduce/vectorized/int/268435456")[-1], "SAME")
        self.assertNotIn("slower by", cleared.stdout)

    def test_confirmation_rounds(self):
        # Fails if --confirm-rounds 0 still times SLOW rows again, or if too few fresh rounds for a
        # verdict are let through.
        result = self.check("--plant", "^scan/naive/int/1024$=0.2", "--confirm-rounds", "0")
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertEqual(len(self.runs()), 10)
        self.assertNotIn("Confirmation", result.stdout)
        refused = self.check("--confirm-rounds", "3")
        self.assertEqual(refused.returncode, 2, refused.stdout + refused.stderr)
        self.assertIn("--confirm-rounds must be 0 or at least 5", refused.stderr)

    def test_identical_sides_pass(self):
        # Fails if unchanged code vs itself reads as a slowdown (a false alarm) or --filter is ignored.
        result = self.check("--filter", "^scan/")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("6 rows: 6 SAME", result.stdout)
        self.assertNotIn("reduce/", self.runs()[0][1]["benchmark_filter"])

    def test_a_missing_binary_an_unknown_revision_or_a_failed_run_is_bad_input(self):
        # Fails if the check goes on (or passes) without a base to compare with, or after a failed run.
        missing = self.check(base=os.path.join(self.folder.name, "no-build"))
        self.assertEqual(missing.returncode, 2, missing.stdout + missing.stderr)
        self.assertIn("no-build/bench/kernels_bench: no kernels_bench there", missing.stderr)
        unknown = self.check("--base", "no-such-revision-55")
        self.assertEqual(unknown.returncode, 2, unknown.stdout + unknown.stderr)
        self.assertIn("unknown revision 'no-such-revision-55'", unknown.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.folder.name, "base-src")), "nothing checked out")
        failed = self.check(base=self.fake_build("A", exit_status=1))
        self.assertEqual(failed.returncode, 2, failed.stdout + failed.stderr)
        self.assertIn("run A1 failed (exit 1)", failed.stderr)

    def test_no_gpu_is_skipped(self):
        # Fails if a machine without a GPU (kernels_bench exits 77) reads as a pass or a failure.
        result = self.check(base=self.fake_build("A", exit_status=77))
        self.assertEqual(result.returncode, 77, result.stdout + result.stderr)

    def test_a_dry_run_runs_nothing(self):
        # Fails if --dry-run builds, checks out or times anything, or does not print the plan.
        result = self.check("--dry-run", "--plant", "^scan/=0.1")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(self.runs(), [])
        self.assertFalse(os.path.exists(self.out))
        lines = result.stdout.splitlines()
        self.assertEqual([line.split(":")[0] for line in lines if re.match(r"^[AB][0-9]:", line)],
                         [f"{side}{index}" for index in range(1, 6) for side in "AB"])
        self.assertIn("B1: KERNELS_BENCH_SLOWDOWN='^scan/=0.1' ", result.stdout)
        self.assertIn("rows read SLOW or slower are timed again, 5 fresh rounds of those rows", result.stdout)
        self.assertTrue(all(f"  {row}/manual_time" in lines for row in SELECTED))
        # A base revision to build: the commands, with the head build's options, and nothing done.
        if subprocess.run(["git", "-C", HERE, "rev-parse", "HEAD"], capture_output=True, check=False).returncode:
            return  # not a git checkout: no revision to plan a build of
        built = self.check("--dry-run", "--base", "HEAD", "--rows", "all")
        self.assertEqual(built.returncode, 0, built.stdout + built.stderr)
        self.assertRegex(built.stdout, r"worktree add --quiet --detach \S+/base-src [0-9a-f]{40}")
        self.assertIn("-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90\n", built.stdout)
        self.assertIn(f"--build {os.path.join(self.folder.name, 'base-build')} --target kernels_bench", built.stdout)
        self.assertFalse(os.path.exists(os.path.join(self.folder.name, "base-src")))
        self.assertEqual(self.runs(), [])


# ctest sets it to the build's kernels_bench (bench/CMakeLists.txt); run by hand, the test is skipped.
KERNELS_BENCH = os.environ.get("KERNELS_BENCH_BINARY")


@unittest.skipUnless(KERNELS_BENCH, "KERNELS_BENCH_BINARY is not set (ctest sets it to the build's kernels_bench)")
class PlantedSlowdownVariable(unittest.TestCase):
    def listing(self, value):
        return subprocess.run([KERNELS_BENCH, "--benchmark_list_tests", "--benchmark_filter=^scan/naive/int/1024/"],
                              capture_output=True, text=True, check=False,
                              env=dict(os.environ, KERNELS_BENCH_SLOWDOWN=value))

    def test_a_malformed_value_stops_before_any_row(self):
        # Fails if a malformed KERNELS_BENCH_SLOWDOWN is ignored (a power measurement would plant
        # nothing and read as a miss) or its message does not say what is wrong and what is expected.
        for value in ("^scan/=ten", "^scan/", "=0.1", "(=0.1", "^scan/=-0.1", "^scan/=0"):
            result = self.listing(value)
            self.assertEqual(result.returncode, 2, value)
            self.assertIn(f"KERNELS_BENCH_SLOWDOWN='{value}' is malformed", result.stderr)
            self.assertIn("expected <row regex>=<fraction>", result.stderr)
            self.assertEqual(result.stdout, "", "no row listed")
        for value in ("^scan/naive/=0.10", ""):
            result = self.listing(value)
            self.assertEqual((result.returncode, result.stdout), (0, "scan/naive/int/1024/manual_time\n"), value)


if __name__ == "__main__":
    unittest.main(verbosity=2)
