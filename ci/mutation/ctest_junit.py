"""A ctest run's verdict from its JUnit file (ctest 3.25 writes a timeout as a plain failure)."""

import xml.etree.ElementTree as ElementTree
from collections import namedtuple

# The outcomes of one (mutant, variant) pair, as report.py counts them.
KILLED = "killed"
KILLED_BY_TIMEOUT = "killed_timeout"
SURVIVED = "survived"
NOT_COMPILING = "not_compiling"
NOT_RUN = "not_run"  # the budget ran out, the GPU was lost, or a catalogue mutant was not asked for
ERROR = "error"  # the run could not judge the mutant: see its log
KILLS = (KILLED, KILLED_BY_TIMEOUT)

HANG_MARKER = "HANG: a batch ran past its deadline"  # test/harness/diagnosis/hang_watchdog.cpp
STOPPED_MARKER = "STOPPED: another entry of this run failed first"  # diagnosis/stop_on_failure.hpp
RERUN_MARKER = "rerun: kcheck "
SKIPPED_BY_ITSELF = "SKIP_RETURN_CODE="
GPU_LOST_MARKER = "GPU LOST:"  # a test process that cannot reach a GPU the driver lists (gpu_test_main.cpp)
GPU_LOST = "GPU lost"  # how the error verdict of a run that lost its GPU begins
# Whole skips that still reached the GPU: by the variant's contract, or for a large test's memory.
EXCUSED_SKIP_MARKERS = ("[not in the contract] ", "[device memory] ")
# ctest may write a little less than the TIMEOUT it ended an entry at (0.9998 s for 1 s under -j4).
TIMEOUT_FRACTION = 0.99


# One JUnit testcase: status run, fail, notrun or disabled; message that of its <failure> or <skipped>.
Entry = namedtuple("Entry", "name status seconds message output")
# A pair's outcome and the failed entries that decided it, "name (reason)" each.
Verdict = namedtuple("Verdict", "outcome killed_by", defaults=((),))


def read(path):
    """The entries of a JUnit file, in its order."""
    entries = []
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        detail = case.find("failure") if case.find("failure") is not None else case.find("skipped")
        message = "" if detail is None else detail.get("message", "")
        output = case.findtext("system-out") or ""
        entries.append(Entry(case.get("name"), case.get("status"), float(case.get("time") or 0), message, output))
    return entries


def failed(entries):
    return [entry for entry in entries if entry.status == "fail"]


def reason(entry, timeouts):
    """Why a failed entry failed: Timeout or Failed."""
    timeout = timeouts.get(entry.name)
    return "Timeout" if timeout and entry.seconds >= TIMEOUT_FRACTION * timeout else "Failed"


def lost_gpu_signs(entries, gpu_entries):
    """GPU LOST lines, and GPU entries that skipped whole, unstopped and for no contract: a lost GPU."""
    signs = []
    for entry in entries:
        lines = entry.output.splitlines()
        lost = [line.strip() for line in lines if line.startswith(GPU_LOST_MARKER)]
        skipped = entry.status == "notrun" and entry.message.startswith(SKIPPED_BY_ITSELF)
        excused = any(marker in entry.output for marker in (STOPPED_MARKER, *EXCUSED_SKIP_MARKERS))
        if lost:
            signs.append(f"{GPU_LOST}: {entry.name} printed '{lost[0]}'")
        elif skipped and entry.name in gpu_entries and not excused:
            why = next((line.strip() for line in lines if line.startswith("SKIP")), entry.message)
            signs.append(f"{GPU_LOST}: {entry.name} Skipped ({why})")
    return signs


def gpu_lost(verdict):
    return verdict.outcome == ERROR and any(why.startswith(GPU_LOST) for why in verdict.killed_by)


def judge(returncode, entries, timeouts, gpu_entries=()):
    """The verdict on one ctest run from its exit code, entries, {entry: TIMEOUT s} and GPU entries."""
    lost = lost_gpu_signs(entries, gpu_entries)
    if lost:
        return Verdict(ERROR, tuple(lost))
    not_started = [e for e in entries if e.status == "notrun" and not e.message.startswith(SKIPPED_BY_ITSELF)]
    if not_started:
        return Verdict(ERROR, tuple(f"{e.name} (Not Run: {e.message})" for e in not_started))
    failures = [(entry, reason(entry, timeouts)) for entry in failed(entries)]
    if failures:
        hung = any(HANG_MARKER in e.output for e, _ in failures) or all(why == "Timeout" for _, why in failures)
        return Verdict(KILLED_BY_TIMEOUT if hung else KILLED, tuple(f"{e.name} ({why})" for e, why in failures))
    stopped = [e for e in entries if e.status == "notrun" and STOPPED_MARKER in e.output]
    if stopped:  # a stop file no failure of this run wrote: nothing judged them
        return Verdict(ERROR, tuple(f"{e.name} (stopped, but no entry failed)" for e in stopped))
    return Verdict(SURVIVED if returncode == 0 else ERROR)


def first_rerun_line(entries):
    """(entry name, kcheck arguments) of the first rerun line the failed entries printed, or None."""
    for entry in failed(entries):
        for line in entry.output.splitlines():
            at = line.find(RERUN_MARKER)
            if at >= 0:
                return entry.name, line[at + len(RERUN_MARKER) :].strip()
    return None
