#!/usr/bin/env python3
"""Generates the mutants of the kernel library: one unified diff per mutant, each mapped to the
variants whose tests should kill it.

    generate.py [--root REPO] [--out mutants.json] [--variant LABEL] [--patches DIR]

Prints the counts per operator class and per variant; --out writes the mutants as JSON (a list of
{id, file, line, operator, op_class, variants, diff, key}), --patches one <id>.patch per mutant.

Why a token-level rewriter and not libclang: Debian's python3-clang is clang 14, which knows CUDA
up to 11.5 and no sm_90 (it stops at "unsupported CUDA gpu architecture" on our nvcc 13 tree), and
most kernel code is templates, whose uninstantiated bodies an AST leaves largely unresolved. The
mutants are textual edits anyway; what they need is to skip comments, literals and preprocessor
lines, to match brackets, to know device code from host code, and to tell binary operators from
template brackets and declarators, which the tree's formatting settles (cpp_tokens.py). A mutant
that does not compile is counted apart by the runner, never as a kill.

A mutant's id is <file under kernels/>:<line>:<operator>:<ordinal>, the ordinal counting the same
operator's mutants on that line from the left: it depends on that file alone, so ids of one file
do not move when another changes. Its key, <file under kernels/>:<operator>:<digest>, names what
was mutated rather than where: the digest is over its diff's lines without their numbers and
whitespace, the changed line with three lines of context each side. An edit elsewhere in the file
moves ids but leaves keys; an edit within the context gives a new key. The triage files name
mutants by key (report.load_triage), so a judgement never passes to another mutant.
"""

import argparse
import difflib
import hashlib
import json
import os
from collections import Counter
from dataclasses import asdict, dataclass

from operators import CLASSES, find_mutations
from variants import load_tree

HERE = os.path.dirname(os.path.abspath(__file__))


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str  # path from the repository root
    line: int
    operator: str
    op_class: str
    variants: tuple  # ctest labels, <family>/<variant>
    diff: str  # unified diff, applies with `patch -p1` in the repository root (or a copy of it)

    @property
    def key(self):
        return mutant_key(self.file, self.operator, self.diff)


def mutant_key(file, operator, diff):
    """What a mutant changes, independent of where the lines are: see the module's docstring."""
    body = [
        line[0] + "".join(line[1:].split())
        for line in diff.splitlines()
        if line and not line.startswith(("---", "+++", "@@"))
    ]
    digest = hashlib.sha256("\n".join(body).encode("utf-8")).hexdigest()[:12]
    return f"{file.removeprefix('kernels/')}:{operator}:{digest}"


def patch_name(mutant_id):
    """A file name for a mutant's id."""
    return mutant_id.replace("/", "+").replace(":", "@")


def apply_edits(text, edits):
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def generate(root):
    """Every mutant of the tree at root, sorted by id; plus counts of what was left out."""
    tree = load_tree(root)
    mutants, skipped = [], Counter()
    for path in sorted(tree.files):
        if path not in tree.labels_of_file and path not in tree.declarations:
            continue  # a public header: declarations, no code under test
        sf = tree.files[path]
        seen = {sf.text}
        per_line = Counter()
        for mutation in sorted(find_mutations(sf), key=lambda m: (sf.tokens[m.anchor].line, m.operator, m.edits)):
            mutated = apply_edits(sf.text, mutation.edits)
            if mutated in seen:
                skipped["duplicate"] += 1
                continue
            seen.add(mutated)
            variants = tree.variants_for(path, mutation.anchor)
            if not variants:
                skipped["used by no variant"] += 1
                continue
            line = sf.tokens[mutation.anchor].line
            ordinal = per_line[(line, mutation.operator)]
            per_line[(line, mutation.operator)] += 1
            mutant_id = f"{path.removeprefix('kernels/')}:{line}:{mutation.operator}:{ordinal}"
            mutants.append(
                Mutant(
                    mutant_id,
                    path,
                    line,
                    mutation.operator,
                    mutation.op_class,
                    tuple(variants),
                    _diff(path, sf.text, mutated),
                )
            )
    return sorted(mutants, key=lambda m: m.id), skipped


def _diff(path, before, after):
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True), after.splitlines(keepends=True), fromfile=f"a/{path}", tofile=f"b/{path}"
        )
    )


def summary(mutants, skipped):
    """Counts per operator class and per variant, as printable lines."""
    classes = Counter(m.op_class for m in mutants)
    variants = Counter(v for m in mutants for v in m.variants)
    left_out = ", ".join(f"{n} {why}" for why, n in sorted(skipped.items())) or "none"
    lines = [f"{len(mutants)} mutants over {len(variants)} variants ({left_out} left out)", "", "per operator class:"]
    lines += [f"  {cls:<14} {classes[cls]:>5}" for cls in CLASSES]
    lines += ["", "per variant (a mutant of a shared header counts for every variant that uses it):"]
    lines += [f"  {label:<46} {count:>5}" for label, count in sorted(variants.items())]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.normpath(os.path.join(HERE, "..", "..")))
    parser.add_argument("--out", help="write the mutants as JSON here")
    parser.add_argument("--patches", help="write one <id>.patch per mutant into this folder")
    parser.add_argument("--variant", help="only the mutants of this variant (a label such as scan/naive)")
    args = parser.parse_args()
    mutants, skipped = generate(args.root)
    if args.variant:
        mutants = [m for m in mutants if args.variant in m.variants]
    print(summary(mutants, skipped))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as file:
            json.dump([{**asdict(m), "key": m.key} for m in mutants], file, indent=1)
    if args.patches:
        os.makedirs(args.patches, exist_ok=True)
        for mutant in mutants:
            with open(os.path.join(args.patches, patch_name(mutant.id) + ".patch"), "w", encoding="utf-8") as file:
                file.write(mutant.diff)


if __name__ == "__main__":
    main()
