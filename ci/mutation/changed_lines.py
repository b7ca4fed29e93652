"""The kernel lines an edit changed: what `run_mutants.py --changed-since REF` mutates.

The lines of kernels/ that differ between REF and the working tree (committed since or not), as
`git diff -U0` numbers them in today's files, and every line of a kernel file git does not track
yet (a new variant). A deletion counts as a change of the line after it, where the code around
the removed lines now meets.
"""

import re
import subprocess

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


class UnknownRef(Exception):
    pass


def changed_lines(root, ref, folder="kernels"):
    """{path from root: set of changed line numbers (1-based)} of the files under `folder`."""
    verify = subprocess.run(
        ["git", "-C", root, "rev-parse", "--verify", "--quiet", ref + "^{commit}"], capture_output=True, text=True
    )
    if verify.returncode != 0:
        raise UnknownRef(f"--changed-since: {ref!r} names no commit of {root}")
    diff = subprocess.run(
        ["git", "-C", root, "diff", "-U0", "--no-color", "--no-ext-diff", ref, "--", folder],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    changed, path = {}, None
    for line in diff.splitlines():
        if line.startswith("+++ "):
            path = None if line == "+++ /dev/null" else line[len("+++ b/") :]
        elif path and (hunk := _HUNK.match(line)):
            start, count = int(hunk.group(1)), int(hunk.group(2) or 1)
            lines = range(start, start + count) if count else range(start + 1, start + 2)
            changed.setdefault(path, set()).update(lines)
    untracked = subprocess.run(
        ["git", "-C", root, "ls-files", "--others", "--exclude-standard", "--", folder],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    for path in untracked:
        with open(f"{root}/{path}", encoding="utf-8", errors="replace") as file:
            changed[path] = set(range(1, sum(1 for _ in file) + 1))
    return changed


def mutants_of(mutants, changed):
    """The mutants whose line an edit changed, in their order."""
    return [m for m in mutants if m.line in changed.get(m.file, ())]
