"""Which variants' tests should kill a mutant of a given file and line.

A variant file (kernels/<family>/<name>.cu with `register_variant(...)`) answers for the variants
it registers: their ctest labels are `<family>/<.name>` (blelloch_plain.cu registers
scan/blelloch_plain and scan/scan_then_fan/blelloch_plain). A detail header (a file under a
`detail/` folder that some variant file includes, directly or not) answers for the variants that
include it and use the declaration holding the mutated line: a declaration is used when the
variant's own file names it, or names a header declaration that names it, and so on. The include
graph alone would over-claim: tile_scan.cuh includes multi_pass.cuh for ceil_div, and no scan
variant runs the reductions' MultiPass, so a mutant of MultiPass is not one the scan tests can
kill. Mutants of header code that no variant uses (the dispatchers' lookup, say) map to nothing
and are not generated.
"""

import os
import re
from dataclasses import dataclass, field

from cpp_structure import SourceFile

_INCLUDE = re.compile(r'#\s*include\s*[<"]([^>"]+)[>"]')


@dataclass
class Declaration:
    name: str
    first: int  # token range in its file
    last: int
    names_used: set = field(default_factory=set)


@dataclass
class KernelTree:
    """The variant files and the detail headers they include, parsed, with what uses what."""

    root: str
    files: dict = field(default_factory=dict)  # path relative to root -> SourceFile
    labels_of_file: dict = field(default_factory=dict)  # variant file -> [label]
    roots_of_label: dict = field(default_factory=dict)  # label -> identifiers its own file names
    includes_of_file: dict = field(default_factory=dict)  # variant file -> set of detail headers
    declarations: dict = field(default_factory=dict)  # header -> [Declaration]
    _used: dict = field(default_factory=dict)  # label -> declaration names it uses (memo)

    def variants_for(self, path, token_index):
        """The labels of the variants whose tests should kill a mutant at that token."""
        if path in self.labels_of_file:
            return sorted(self.labels_of_file[path])
        holder = next((d for d in self.declarations[path] if d.first <= token_index <= d.last), None)
        labels = []
        for variant_file, headers in self.includes_of_file.items():
            if path not in headers:
                continue
            for label in self.labels_of_file[variant_file]:
                if holder is None or holder.name in self._used_by(label):
                    labels.append(label)
        return sorted(labels)

    def _used_by(self, label):
        if label not in self._used:
            self._used[label] = self._closure(self.roots_of_label[label])
        return self._used[label]

    def _closure(self, roots):
        by_name = {}
        for declarations in self.declarations.values():
            for declaration in declarations:
                by_name.setdefault(declaration.name, []).append(declaration)
        used, frontier = set(), set(roots)
        while frontier:
            name = frontier.pop()
            if name in used:
                continue
            used.add(name)
            for declaration in by_name.get(name, []):
                frontier |= declaration.names_used - used
        return used


def load_tree(root):
    """Parses every variant file under root/kernels and the detail headers it includes."""
    tree = KernelTree(root)
    kernels = os.path.join(root, "kernels")
    for family in sorted(os.listdir(kernels)):
        folder = os.path.join(kernels, family)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            path = f"kernels/{family}/{name}"
            if name.endswith(".cu") and "register_variant(" in _read(root, path):
                sf = _parse(tree, path)
                tree.labels_of_file[path] = []
                for label, roots in _registrations(sf, family):
                    tree.labels_of_file[path].append(label)
                    tree.roots_of_label[label] = roots
                tree.includes_of_file[path] = {h for h in _include_closure(tree, path) if "/detail/" in h}
    for headers in tree.includes_of_file.values():
        for header in headers:
            tree.declarations.setdefault(header, _declarations(tree.files[header]))
    return tree


def _read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as file:
        return file.read()


def _parse(tree, path):
    if path not in tree.files:
        tree.files[path] = SourceFile(path, _read(tree.root, path))
    return tree.files[path]


def _resolve(tree, including, target):
    """The repository path an #include names, if it is one of the library's own files: public
    headers live under kernels/include/, the others are found from the repository root."""
    for candidate in (f"kernels/include/{target}", target, os.path.join(os.path.dirname(including), target)):
        candidate = os.path.normpath(candidate).replace(os.sep, "/")
        if candidate.startswith("kernels/") and os.path.isfile(os.path.join(tree.root, candidate)):
            return candidate
    return None


def _include_closure(tree, path):
    seen, pending = set(), [path]
    while pending:
        current = pending.pop()
        for token in _parse(tree, current).tokens:
            match = _INCLUDE.match(token.text) if token.kind == "directive" else None
            resolved = match and _resolve(tree, current, match.group(1))
            if resolved and resolved not in seen:
                seen.add(resolved)
                pending.append(resolved)
    return seen


def _registrations(sf, family):
    """(label, identifiers the variant's code names) for each register_variant(...) in sf: the
    identifiers of the whole file except the other registrations' records."""
    records = []
    for index, token in enumerate(sf.tokens):
        if token.text == "register_variant" and sf.tokens[index + 1].text == "(":
            close = sf.partner[index + 1]
            names = [i for i in range(index, close) if sf.tokens[i].text == "name" and sf.tokens[i - 1].text == "."]
            label = f"{family}/{sf.tokens[names[0] + 2].text.strip(chr(34))}"
            records.append((label, index, close))
    result = []
    for label, first, last in records:
        others = {i for other, a, b in records if other != label for i in range(a, b + 1)}
        roots = {t.text for i, t in enumerate(sf.tokens) if t.kind == "identifier" and i not in others}
        result.append((label, roots))
    return result


def _declarations(sf):
    """The namespace-scope declarations of a header, each with the identifiers it names."""
    tokens, declarations = sf.tokens, []
    start, index = 0, 0
    while index < len(tokens):
        text = tokens[index].text
        scope = sf.scope_of[index]
        if tokens[index].kind == "directive" or (text in {"{", "}"} and scope.kind == "namespace"):
            start = index + 1
        elif text == "{" and scope.kind in {"function", "class"}:
            end = sf.partner[index] + (1 if tokens[sf.partner[index] + 1].text == ";" else 0)
            declarations.append(_declaration(sf, scope.name, start, end))
            start, index = end + 1, end
        elif text in {"(", "[", "{"}:
            index = sf.partner[index]
        elif text == ";":
            declarations.append(_declaration(sf, _declared_name(sf, start, index), start, index))
            start = index + 1
        index += 1
    return declarations


def _declared_name(sf, first, semicolon):
    """The name a `;`-terminated declaration introduces: the identifier before its `=`, or its
    last identifier (`using X = ...;`, `inline constexpr unsigned kRows = ...;`, `int f(int);`)."""
    tokens = sf.tokens
    end = next((i for i in range(first, semicolon) if tokens[i].text in {"=", "("}), semicolon)
    names = [i for i in range(first, end) if tokens[i].kind == "identifier"]
    return tokens[names[-1]].text if names else ""


def _declaration(sf, name, first, last):
    used = {sf.tokens[i].text for i in range(first, last + 1) if sf.tokens[i].kind == "identifier"}
    return Declaration(name, first, last, used - {name})
