"""The kernel lines changed since a git ref, in today's numbering (a deletion: the line after it)."""

import subprocess

import python_deps  # noqa: F401  (before unidiff)
import unidiff


class UnknownRef(Exception):
    pass


def changed_lines(root, ref, folder="kernels"):
    """{path from root: set of changed line numbers (1-based)} of the files under `folder`."""
    git = lambda *args: subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)  # noqa: E731
    if git("rev-parse", "--verify", "--quiet", ref + "^{commit}").returncode != 0:
        raise UnknownRef(f"--changed-since: {ref!r} names no commit of {root}")
    changed = {}
    for patched in unidiff.PatchSet(git("diff", "-U0", "--no-color", "--no-ext-diff", ref, "--", folder).stdout):
        if patched.is_removed_file:
            continue
        lines = changed.setdefault(patched.path, set())
        for hunk in patched:
            lines.update(range(hunk.target_start, hunk.target_start + hunk.target_length) if hunk.target_length
                         else [hunk.target_start + 1])  # fmt: skip
    for path in git("ls-files", "--others", "--exclude-standard", "--", folder).stdout.split():
        with open(f"{root}/{path}", encoding="utf-8", errors="replace") as file:
            changed[path] = set(range(1, sum(1 for _ in file) + 1))
    return changed


def mutants_of(mutants, changed):
    """The mutants whose line an edit changed, in their order."""
    return [m for m in mutants if m.line in changed.get(m.file, ())]
