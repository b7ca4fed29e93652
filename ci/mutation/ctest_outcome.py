"""What one ctest run against a mutant's library says about the mutant.

ctest's closing summary lists every failed entry with its reason (`  3 - scan.int.naive (Failed)`,
`(Timeout)`, `(SEGFAULT)`, `(Not Run)`, ...), newer ctest versions followed by the entry's labels. A failure kills the mutant; a hang kills it
too but is reported as such: the suite's hang watchdog ended a test process (its output, shown
by ctest --output-on-failure, says HANG), or ctest's own TIMEOUT property of the entry did; an
entry ctest could not start (`Not Run`, a missing executable) kills nothing and makes the run an
error, as does a failing ctest that names no failed entry.
"""

import re
from dataclasses import dataclass

# Outcomes of one (mutant, variant) pair; the report counts them (report.py).
KILLED = "killed"
KILLED_BY_TIMEOUT = "killed_timeout"
SURVIVED = "survived"
NOT_COMPILING = "not_compiling"
NOT_RUN = "not_run"  # the time budget ran out first
ERROR = "error"  # the run could not judge the mutant: see its log

_FAILED_ENTRY = re.compile(r"^\s*\d+ - (\S+) \(([^()]+)\)(?:\s+\S.*)?\s*$")
_NOT_STARTED = ("Not Run", "Could not find executable", "BAD_COMMAND")
# What the hang watchdog prints (test/harness/core/hang_watchdog.cpp) before it ends a process.
HANG_MARKER = "HANG: a batch ran past its deadline"


@dataclass(frozen=True)
class Verdict:
    outcome: str
    killed_by: tuple = ()  # the failed entries, "name (reason)"


def failed_entries(output):
    """(name, reason) of every entry ctest's summary lists as failed."""
    lines = output.splitlines()
    if "The following tests FAILED:" not in [line.strip() for line in lines]:
        return []
    start = [line.strip() for line in lines].index("The following tests FAILED:") + 1
    entries = []
    for line in lines[start:]:
        match = _FAILED_ENTRY.match(line)
        if not match:
            break
        entries.append((match.group(1), match.group(2)))
    return entries


def judge(returncode, output):
    """The verdict on one ctest run (its exit code and its standard output, with --output-on-failure)."""
    entries = failed_entries(output)
    if any(reason.startswith(_NOT_STARTED) for _, reason in entries):
        return Verdict(ERROR, tuple(f"{name} ({reason})" for name, reason in entries))
    if entries:
        hung = HANG_MARKER in output or all(reason == "Timeout" for _, reason in entries)
        outcome = KILLED_BY_TIMEOUT if hung else KILLED
        return Verdict(outcome, tuple(f"{name} ({reason})" for name, reason in entries))
    return Verdict(SURVIVED if returncode == 0 else ERROR)
