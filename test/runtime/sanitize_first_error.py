#!/usr/bin/env python3
"""Runs a compute-sanitizer command line and ends it at the tool's first report (test/runtime/sanitize.sh).

Usage: sanitize_first_error.py <tool> compute-sanitizer [options] <command> [args...]

Passes every line of the run's output (stdout and stderr together) through to stdout unchanged.
At the first line that starts a report, it passes the rest of that report for up to GRACE_S,
then ends the run's whole process group (compute-sanitizer and the test process under it),
prints one line

  sanitize.sh: <tool> found an error in case: <case>; first report: <the report's first line>

and exits 1. <case> is the text of the last `sanitize case: <text>` line the test printed
before the report (a kcheck line); then `     rerun: <sanitize.sh> <tool> <case>` (KERNELS_SANITIZE_SCRIPT
names the script), which reruns that case alone under the same tool. Without a report it exits with the
run's own status.

Why: a racy kernel made racecheck print thousands of hazards until ctest's 300 s timeout, while
the first report alone says what failed. The report lines are those of the Compute Sanitizer
documentation (CUDA 13), checked against compute-sanitizer 2025.3.1 on an H100; a report this
list misses still ends the run at its `ERROR SUMMARY: N errors` (`RACECHECK SUMMARY: N hazards`).
"""

import os
import re
import select
import signal
import subprocess
import sys
import time

GRACE_S = 1.0  # time for the first report's remaining lines (its "at", "by thread", stack lines)
GRACE_LINES = 200  # at most this many lines after the report's first one
KILL_WAIT_S = 1.0  # between SIGTERM and SIGKILL to the process group

PREFIX = "========="  # compute-sanitizer's default --prefix
CASE = re.compile(r"^sanitize case: (.*)$")
# The first line of a report, after the prefix and one space (continuation lines are indented).
REPORT = re.compile(
    r"(?:error|warning): .*(?:race reported|hazard detected)"  # racecheck: analysis / hazard mode
    r"|potential invalid __shared__ |deadlock detected"  # racecheck: cluster races, deadlocks
    r"|(?:warp )?(?:invalid|misaligned|out-of-range|illegal) "  # memcheck: accesses, hardware,
    r"|malloc/free error|leaked |program hit "  # device heap, leaks, CUDA API errors
    r"|uninitialized |unused "  # initcheck
    r"|barrier error detected|warpgroup mma sequence error detected"  # synccheck
    r"|error summary: [1-9]\d* errors?\b|racecheck summary: [1-9]\d* hazards?\b",  # the totals
    re.IGNORECASE,
)


def report_text(line):
    """The text of a report's first line without the prefix, or None if the line starts none."""
    if not line.startswith(PREFIX + " "):
        return None
    body = line[len(PREFIX) + 1:]
    return body.rstrip() if REPORT.match(body) else None


def ends_report(line):
    """A bare prefix line closes a report; an unindented sanitizer line starts the next one."""
    if not line.startswith(PREFIX):
        return False
    body = line[len(PREFIX):]
    return body.strip() == "" or not body[1:2].isspace()


def kill_group(process):
    """SIGTERM to the run's process group, then SIGKILL to whatever of it is left."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=KILL_WAIT_S)
        except subprocess.TimeoutExpired:
            pass


def exit_status(code):
    return 128 - code if code < 0 else code


def main(argv):
    if len(argv) < 3:
        print("usage: sanitize_first_error.py <tool> <command> [args...]", file=sys.stderr)
        return 2
    tool, command = argv[1], argv[2:]
    out = sys.stdout.buffer
    # A session of its own: one signal ends compute-sanitizer and every process it started.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)

    def forward(signum, _frame):
        kill_group(process)
        os._exit(128 + signum)

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, forward)

    try:
        case, first = stream(process.stdout.fileno(), out)
    except BaseException:  # a closed stdout, say: leave nothing running
        kill_group(process)
        raise
    if first is None:
        return exit_status(process.wait())
    kill_group(process)
    named = case if case else "unknown (no 'sanitize case:' line before the report)"
    print(f"sanitize.sh: {tool} found an error in case: {named}; first report: {first}", flush=True)
    if case and os.environ.get("KERNELS_SANITIZE_SCRIPT"):  # the line that reruns the case under the same tool
        print(f"     rerun: {os.environ['KERNELS_SANITIZE_SCRIPT']} {tool} {case}", flush=True)
    return 1


def stream(fd, out):
    """Passes the run's output through until its end, or until GRACE_S after the first report.
    Returns the last case named before the report (or None) and the report's first line (or None)."""
    pending = b""
    case = None
    first = None
    deadline = None
    lines_after = 0
    while True:
        if first is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                break
        chunk = os.read(fd, 65536)
        if not chunk:
            out.write(pending)
            break
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        for raw in lines:
            line = raw.decode("utf-8", "replace").rstrip("\r")
            if first is not None:
                if ends_report(line) or lines_after >= GRACE_LINES:
                    out.flush()
                    return case, first
                lines_after += 1
            out.write(raw + b"\n")
            if first is None:
                match = CASE.match(line)
                if match:
                    case = match.group(1).strip()
                first = report_text(line)
                if first is not None:
                    deadline = time.monotonic() + GRACE_S
        out.flush()
    out.flush()
    return case, first


if __name__ == "__main__":
    sys.exit(main(sys.argv))
