#!/usr/bin/env python3
"""Generates the mutants of the kernel library, one diff each, with the variants whose tests should kill it."""

import argparse
import difflib
import hashlib
import json
import os
import re
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from operators import CLASSES, find_mutations
from python_deps import ROOT
from variants import load_tree


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str  # path from the repository root
    line: int
    operator: str
    op_class: str
    variants: tuple  # ctest labels, <family>/<variant>
    diff: str  # unified diff, applies with `patch -p1` in the repository root (or a copy of it)


def patch_name(mutant_id):
    """A file name for a mutant's id."""
    return mutant_id.replace("/", "+").replace(":", "@")


def apply_edits(data, edits):
    for start, end, replacement in sorted(edits, reverse=True):
        data = data[:start] + replacement.encode("utf-8") + data[end:]
    return data


def changed_code(diff):
    """The lines a diff removes and adds, without comments and spacing: what a mutant id names."""
    lines = [line for line in diff.splitlines() if line[:1] in "+-" and not line.startswith(("---", "+++"))]
    return "\n".join(line[0] + re.sub(r"\s+", "", re.sub(r"//.*", "", line[1:])) for line in lines)


def generate(root=ROOT, project=False):
    """Every mutant of the tree at root (or of an outside project there), sorted by id; plus counts of what was left out."""
    tree = load_tree(root, project)
    mutants, skipped = [], Counter()
    for path in sorted(tree.files):
        if path not in tree.labels_of_file and path not in tree.declarations:
            continue  # a public header: declarations, no code under test
        src = tree.files[path]
        seen, occurrences = {src.data}, Counter()
        for mutation in sorted(find_mutations(src), key=lambda m: (m.anchor.start_byte, m.operator, m.edits)):
            mutated = apply_edits(src.data, mutation.edits)
            if mutated in seen:
                skipped["duplicate"] += 1
                continue
            seen.add(mutated)
            variants = tree.variants_for(path, mutation.anchor.start_byte)
            if not variants:
                skipped["used by no variant"] += 1
                continue
            lines = src.data.decode("utf-8").splitlines(True), mutated.decode("utf-8").splitlines(True)
            diff = "".join(difflib.unified_diff(*lines, fromfile=f"a/{path}", tofile=f"b/{path}"))
            name = (path.removeprefix("kernels/"), src.function_of(mutation.anchor) or "-", mutation.operator)
            code = changed_code(diff)
            occurrences[(name, code)] += 1
            digest = hashlib.sha256(f"{code}#{occurrences[(name, code)]}".encode())
            mutant_id = ":".join(name) + ":" + digest.hexdigest()[:8]
            line = src.line(mutation.anchor)
            mutants.append(Mutant(mutant_id, path, line, mutation.operator, mutation.op_class, tuple(variants), diff))
    return sorted(mutants, key=lambda m: m.id), skipped


def summary(mutants, skipped):
    """Counts per operator class and per variant, as printable lines."""
    classes, variants = Counter(m.op_class for m in mutants), Counter(v for m in mutants for v in m.variants)
    left_out = ", ".join(f"{n} {why}" for why, n in sorted(skipped.items())) or "none"
    lines = [f"{len(mutants)} mutants over {len(variants)} variants ({left_out} left out)", "", "per operator class:"]
    lines += [f"  {cls:<17} {classes[cls]:>5}" for cls in CLASSES]
    lines += ["", "per variant (a mutant of a shared header counts for every variant that uses it):"]
    lines += [f"  {label:<46} {count:>5}" for label, count in sorted(variants.items())]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="write the mutants as JSON here")
    parser.add_argument("--patches", help="write one <id>.patch per mutant into this folder")
    parser.add_argument("--variant", help="only the mutants of this variant (a label such as scan/naive)")
    args = parser.parse_args()
    mutants, skipped = generate()
    if args.variant:
        mutants = [m for m in mutants if args.variant in m.variants]
    print(summary(mutants, skipped))
    if args.out:
        Path(args.out).write_text(json.dumps([asdict(m) for m in mutants], indent=1), encoding="utf-8")
    for mutant in mutants if args.patches else []:
        os.makedirs(args.patches, exist_ok=True)
        Path(args.patches, patch_name(mutant.id) + ".patch").write_text(mutant.diff, encoding="utf-8")


if __name__ == "__main__":
    main()
