#!/usr/bin/env python3
"""CPU test of test/runtime/sanitize.sh (ctest cpu.sanitize_wrapper), with no GPU: a fake compute-sanitizer,
first on PATH, takes its options as the real one does, runs the command under test as its child
on the same output and prints what the real tool prints. A run whose tool reports an error and then
keeps printing and running (a racy kernel under racecheck) must end within seconds, naming the
last `sanitize case:` line before the report and the report's first line; a clean run passes its
output through and exits 0; a failing command without a report keeps its exit status."""

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SANITIZE = os.path.join(REPO, "test", "runtime", "sanitize.sh")
RUN_TIMEOUT_S = 30  # what a run of the wrapper may take before the test gives up on it
FAST_S = 10  # what a run that reports an error may take

# Stands in for compute-sanitizer: `--option value` pairs up to the command (or `--`), a record
# of them, the command run as a child that shares stdout and stderr, then FAKE_SCENARIO's output.
FAKE = """\
import json, os, subprocess, sys, time
args = sys.argv[1:]
options = []
while args and args[0].startswith("--"):
    if args[0] == "--":
        args = args[1:]
        break
    options.append(args[:2])
    args = args[2:]
with open(os.environ["FAKE_RECORD"], "w") as record:
    json.dump({{"options": options, "command": args, "pid": os.getpid()}}, record)
print("========= COMPUTE-SANITIZER", flush=True)
child = subprocess.Popen(args)
scenario = os.environ["FAKE_SCENARIO"]
if scenario == "report":  # a report once the child has named its cases, then thousands more
    while not os.path.exists(os.environ["FAKE_CHILD_PID"]):
        time.sleep(0.01)
    for line in json.loads(os.environ["FAKE_REPORT"]):
        print(line)
    print("=========", flush=True)
    for i in range(5000):
        print("========= Error: Potential RAW hazard detected at __shared__ 0x%x in block (0,0,0) :" % i)
        print("=========     Write Thread (%d,0,0) at kernel()+0x2f0 in reduce.cu:20" % (i % 32))
        print("=========     Read Thread (%d,0,0) at kernel()+0x310 in reduce.cu:21" % (i % 32 + 1))
    sys.stdout.flush()
    time.sleep(1000)
code = child.wait()
errors = 1 if scenario == "summary" else 0
if scenario == "fail":
    print("========= Target application returned an error")
elif scenario == "summary":  # a report the wrapper does not know, counted in the summary
    print("========= Something new went wrong")
if ["--tool", "racecheck"] in options:  # racecheck sums up in its own words
    print("========= Warning: Maximum number of hazards reached. Environment variable "
          "NV_COMPUTE_SANITIZER_MAX_RACECHECK_HAZARDS can be used to increase this count.")
    print("=========")
    print("========= RACECHECK SUMMARY: %d hazard%s displayed (0 errors, %d warning%s)"
          % (errors, "" if errors == 1 else "s", errors, "" if errors == 1 else "s"), flush=True)
else:
    print("========= ERROR SUMMARY: %d error%s" % (errors, "" if errors == 1 else "s"), flush=True)
sys.exit(1 if errors and code == 0 else code)
"""

# The test process: prints its cases (flushed, as sanitize_cases.cpp does), then with an argument
# for it writes its pid and runs on until killed.
CHILD = textwrap.dedent("""\
    import os, sys, time
    pid_file, cases = sys.argv[1], sys.argv[2:]
    print("[ RUN      ] reduce/harris5_unroll_last_warp")
    for case in cases:
        print("sanitize case: " + case, flush=True)
    for name in ("KERNELS_EXACT_BUFFERS", "KERNELS_SANITIZER_TOOL", "KERNELS_HANG_TIMEOUT_S"):
        print(name + "=" + os.environ.get(name, "(unset)"), flush=True)
    print("a line on stderr", file=sys.stderr, flush=True)
    if pid_file.startswith("exit"):  # exit or exit=<status>
        sys.exit(int(pid_file.partition("=")[2] or 0))
    with open(pid_file + ".tmp", "w") as file:
        file.write(str(os.getpid()))
    os.rename(pid_file + ".tmp", pid_file)
    time.sleep(1000)
""")

CASES = [
    "kcheck reduce/harris5_unroll_last_warp --op sum --type int --block 32 --n 1 --dist random --seed 20261122"
    " --offset 1",
    "kcheck reduce/harris5_unroll_last_warp --op sum --type int --block 32 --n 33 --dist random --seed 20261122"
    " --offset 1",
]

# A report of each tool, as the Compute Sanitizer documentation and compute-sanitizer 2025.3.1 print
# them.
REPORTS = {
    "racecheck": [
        "========= Error: Race reported between Write access at reduce_kernel(const int *, int *)+0x2f0 in "
        "harris5.cu:41",
        "=========     and Read access at reduce_kernel(const int *, int *)+0x310 in harris5.cu:41 [992 hazards]",
    ],
    "memcheck": [
        "========= Invalid __global__ read of size 4 bytes",
        "=========     at reduce_kernel(const int *, int *)+0x160 in harris5.cu:30",
        "=========     by thread (1,0,0) in block (0,0,0)",
        "=========     Address 0x7f6510c00084 is out of bounds",
    ],
    "synccheck": [
        "========= Barrier error detected. Divergent thread(s) in block",
        "=========     at reduce_kernel(const int *, int *)+0x1f0 in harris5.cu:35",
        "=========     by thread (32,0,0) in block (0,0,0)",
    ],
    "initcheck": [
        "========= Uninitialized __global__ memory read of size 4 bytes",
        "=========     at reduce_kernel(const int *, int *)+0x70 in harris5.cu:30",
        "=========     by thread (31,0,0) in block (1,0,0)",
        "=========     Address 0x7f3c7ec000fc",
    ],
}


def alive(pid):
    """Whether a process runs (a zombie, killed but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as file:
            return file.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def load_helper():
    sys.dont_write_bytecode = True  # no __pycache__ in ci/
    spec = importlib.util.spec_from_file_location("sanitize_first_error",
                                                  os.path.join(REPO, "test", "runtime", "sanitize_first_error.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class ReportLines(unittest.TestCase):
    """Which of compute-sanitizer 2025.3.1's lines (and its documentation's) start a report."""

    def test_reports(self):
        helper = load_helper()
        for line in [*(report[0] for report in REPORTS.values()),
                     "========= Warning: (Warp Level Programming) Potential RAW hazard detected at __shared__ 0x440 in "
                     "block (8,0,0) :",
                     "========= ERROR: Potential WAW hazard detected at __shared__ 0x0 in block (0,0,0) :",
                     "========= Warp Illegal Address", "========= Leaked 64 bytes at 0x400200200",
                     "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\""
                     " on CUDA API call to cudaDeviceSynchronize.",
                     "========= ERROR SUMMARY: 3 errors",
                     "========= RACECHECK SUMMARY: 10 hazards displayed (0 errors, 355 warnings)"]:
            self.assertEqual(helper.report_text(line), line[len("========= "):], line)

    def test_notices_and_report_bodies(self):
        helper = load_helper()
        for line in ["========= COMPUTE-SANITIZER", "=========", "========= ",
                     "=========     at reduce(const int *, int *)+0x120 in harris5.cu:11",
                     "========= Warning: Maximum number of hazards reached. Environment variable "
                     "NV_COMPUTE_SANITIZER_MAX_RACECHECK_HAZARDS can be used to increase this count.",
                     "========= Warning: Detected overflow of tracked cuda::barrier structures. Results might be "
                     "incorrect. Try using --num-cuda-barriers to fix the issue",
                     "========= Target application returned an error",
                     "========= Error: process didn't terminate successfully",
                     "========= ERROR SUMMARY: 0 errors", "========= LEAK SUMMARY: 0 bytes leaked in 0 allocations",
                     "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)",
                     "Invalid input printed by the test itself"]:
            self.assertIsNone(helper.report_text(line), line)


class SanitizeWrapper(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        bin_dir = os.path.join(self.dir.name, "bin")
        os.mkdir(bin_dir)
        fake = os.path.join(bin_dir, "compute-sanitizer")
        with open(fake + ".py", "w", encoding="utf-8") as file:
            file.write(FAKE.format())
        with open(fake, "w", encoding="utf-8") as file:  # a shebang line could not hold a long path
            file.write(f'#!/bin/sh\nexec "{sys.executable}" "$0.py" "$@"\n')
        os.chmod(fake, 0o755)
        self.record = os.path.join(self.dir.name, "record.json")
        self.child_pid = os.path.join(self.dir.name, "child.pid")
        self.env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""),
                        FAKE_RECORD=self.record, FAKE_CHILD_PID=self.child_pid)
        for name in ("KERNELS_EXACT_BUFFERS", "KERNELS_SANITIZER_TOOL", "KERNELS_HANG_TIMEOUT_S"):
            self.env.pop(name, None)
        self.addCleanup(self.end_leftovers)

    def end_leftovers(self):
        """Ends the fake and its child where a run left them (the wrapper before its fix did)."""
        pids = []
        if os.path.exists(self.record):
            with open(self.record, encoding="utf-8") as file:
                pids.append(json.load(file)["pid"])
        if os.path.exists(self.child_pid):
            with open(self.child_pid, encoding="utf-8") as file:
                pids.append(int(file.read()))
        for pid in pids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)

    def sanitize(self, tool, scenario, child_args, report=None):
        env = dict(self.env, FAKE_SCENARIO=scenario, FAKE_REPORT=json.dumps(report or []))
        command = [SANITIZE, tool, sys.executable, "-c", CHILD, *child_args]  # as ctest runs it
        start = time.monotonic()
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                              start_new_session=True) as process:
            try:
                out, err = process.communicate(timeout=RUN_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.communicate()
                self.fail(f"test/runtime/sanitize.sh {tool} still ran after {RUN_TIMEOUT_S} s")
        return process.returncode, out, err, time.monotonic() - start

    def recorded(self):
        with open(self.record, encoding="utf-8") as file:
            return json.load(file)

    def test_a_report_ends_the_run_and_names_the_last_case(self):
        for tool, report in REPORTS.items():
            with self.subTest(tool=tool):
                for path in (self.record, self.child_pid):
                    if os.path.exists(path):
                        os.remove(path)
                code, out, err, seconds = self.sanitize(tool, "report", [self.child_pid, *CASES], report)
                self.assertEqual(code, 1, out + err)
                self.assertLess(seconds, FAST_S)
                first = report[0][len("========= "):]
                self.assertEqual(out.splitlines()[-2:],
                                 [f"sanitize.sh: {tool} found an error in case: {CASES[-1]}; first report: {first}",
                                  f"     rerun: {os.path.realpath(SANITIZE)} {tool} {CASES[-1]}"])
                # The report whole, the test's own output before it, not the thousands after.
                cases = [f"sanitize case: {case}" for case in CASES]
                for line in ["[ RUN      ] reduce/harris5_unroll_last_warp", *cases, *report]:
                    self.assertIn(line + "\n", out)
                self.assertLess(out.count("Potential RAW hazard"), 100)
                with open(self.child_pid, encoding="utf-8") as file:
                    pids = [self.recorded()["pid"], int(file.read())]
                for pid in pids:
                    deadline = time.monotonic() + 5
                    while alive(pid) and time.monotonic() < deadline:
                        time.sleep(0.05)
                    self.assertFalse(alive(pid), f"process {pid} of the run still runs")

    def test_a_report_before_any_case_is_named_unknown(self):
        code, out, _, _ = self.sanitize("racecheck", "report", [self.child_pid], REPORTS["racecheck"])
        self.assertEqual(code, 1)
        self.assertIn("found an error in case: unknown (no 'sanitize case:' line before the report); first report: "
                      "Error: Race reported between", out.splitlines()[-1])

    def test_a_summary_with_errors_is_a_report(self):
        for tool, summary in (("synccheck", "ERROR SUMMARY: 1 error"),
                              ("racecheck", "RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)")):
            with self.subTest(tool=tool):
                code, out, _, _ = self.sanitize(tool, "summary", ["exit", CASES[0]])
                self.assertEqual(code, 1)
                self.assertEqual(out.splitlines()[-2],
                                 f"sanitize.sh: {tool} found an error in case: {CASES[0]}; first report: {summary}")

    def test_racecheck_bounds_its_reports(self):
        self.sanitize("racecheck", "clean", ["exit"])
        options = dict(self.recorded()["options"])
        self.assertEqual(options["--tool"], "racecheck")
        self.assertEqual(options["--racecheck-report"], "analysis")
        self.assertGreater(int(options["--print-limit"]), 0)  # 0 would print every error
        self.assertLessEqual(int(options["--print-limit"]), 10)
        self.assertEqual(options["--error-exitcode"], "1")

    def test_memcheck_keeps_its_options(self):
        self.sanitize("memcheck", "clean", ["exit"])
        options = dict(self.recorded()["options"])
        for option, value in {"--tool": "memcheck", "--padding": "64", "--leak-check": "full",
                              "--track-stream-ordered-races": "all", "--error-exitcode": "1"}.items():
            self.assertEqual(options[option], value)
        self.assertIn("--print-limit", options)

    def test_a_clean_run_passes_its_output_through(self):
        for tool in REPORTS:
            with self.subTest(tool=tool):
                code, out, err, _ = self.sanitize(tool, "clean", ["exit", CASES[0]])
                self.assertEqual(code, 0, out + err)
                self.assertEqual(self.recorded()["command"], [sys.executable, "-c", CHILD, "exit", CASES[0]])
                lines = out.splitlines()
                expected = ["========= COMPUTE-SANITIZER", "[ RUN      ] reduce/harris5_unroll_last_warp",
                            f"sanitize case: {CASES[0]}", "KERNELS_EXACT_BUFFERS=1", f"KERNELS_SANITIZER_TOOL={tool}",
                            "KERNELS_HANG_TIMEOUT_S=0"]
                self.assertEqual(lines[:len(expected)], expected)
                self.assertEqual(lines[-1], "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
                                 if tool == "racecheck" else "========= ERROR SUMMARY: 0 errors")
                self.assertIn("a line on stderr", out + err)
                self.assertNotIn("found an error", out + err)

    def test_a_failing_command_keeps_its_exit_status(self):
        code, out, err, _ = self.sanitize("initcheck", "fail", ["exit=3", CASES[0]])
        self.assertEqual(code, 3, out + err)
        self.assertIn("========= Target application returned an error\n", out)
        self.assertNotIn("found an error", out + err)

    def test_an_unknown_tool_is_a_usage_error(self):
        code, out, err, _ = self.sanitize("leakcheck", "clean", ["exit"])
        self.assertEqual(code, 2)
        self.assertIn("sanitize.sh: unknown tool 'leakcheck'", err)
        self.assertEqual(out, "")
        self.assertFalse(os.path.exists(self.record), "compute-sanitizer ran")

    def without_the_tool(self, **more):
        """test/runtime/sanitize.sh on a PATH of bash and dirname alone: no compute-sanitizer."""
        bare = os.path.join(self.dir.name, "bare")
        os.mkdir(bare)
        for tool in ("bash", "dirname"):
            os.symlink(shutil.which(tool), os.path.join(bare, tool))
        env = {**{k: v for k, v in self.env.items() if k != "KERNELS_REQUIRE_GPU"}, "PATH": bare, **more}
        return subprocess.run([SANITIZE, "memcheck", sys.executable, "-c", CHILD, "exit"], capture_output=True,
                              text=True, env=env, timeout=RUN_TIMEOUT_S, check=False)

    def test_without_the_tool_the_entry_is_skipped_with_the_reason(self):
        run = self.without_the_tool()
        self.assertEqual(run.returncode, 77, run.stdout + run.stderr)
        self.assertIn("sanitize.sh: skipped: no compute-sanitizer on PATH", run.stdout)
        self.assertNotIn("Traceback", run.stdout + run.stderr)

    def test_without_the_tool_a_run_that_requires_the_gpu_fails(self):
        run = self.without_the_tool(KERNELS_REQUIRE_GPU="1")
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("no compute-sanitizer on PATH", run.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
