"""Which variants' tests should kill a mutant (docs/mutation.md, "Which variants judge a mutant")."""

import os
import re
from collections import defaultdict, namedtuple
from dataclasses import dataclass, field

from source_tree import NAMES, Source, function_name, walk


# A namespace-scope declaration of a detail header: its name, its byte range, the names it uses.
Declaration = namedtuple("Declaration", "name start end names_used")


@dataclass
class KernelTree:
    root: str
    project: bool = False  # an outside project: its own headers are mutated and judged, not the library's
    files: dict = field(default_factory=dict)  # path from the root -> Source
    labels_of_file: dict = field(default_factory=dict)  # variant file -> [label]
    roots_of_label: dict = field(default_factory=dict)  # label -> names its own file uses
    includes_of_file: dict = field(default_factory=dict)  # variant file -> detail headers it includes
    declarations: dict = field(default_factory=dict)  # header -> [Declaration]

    def variants_for(self, path, offset):
        """The labels of the variants whose tests should kill a mutant at that byte of `path`."""
        if path in self.labels_of_file:
            return sorted(self.labels_of_file[path])
        holder = next((d for d in self.declarations[path] if d.start <= offset < d.end), None)
        files = [file for file, headers in self.includes_of_file.items() if path in headers]
        labels = [label for file in files for label in self.labels_of_file[file]]
        return sorted(label for label in labels if holder is None or holder.name in self._used_by(label))

    def _used_by(self, label):
        """The declarations a variant uses: those its file names, then those they name, and on."""
        uses = defaultdict(set)  # declared name -> the names its declarations use
        for declaration in (d for declarations in self.declarations.values() for d in declarations):
            uses[declaration.name] |= declaration.names_used
        used, frontier = set(), set(self.roots_of_label[label])
        while frontier:
            name = frontier.pop()
            if name not in used:
                used.add(name)
                frontier |= uses[name] - used
        return used


def variant_files(root, project=False):
    """{path from root: family} of the .cu files that register variants: under root/kernels, or anywhere in a project."""
    files = {}
    for folder, subfolders, names in os.walk(root if project else os.path.join(root, "kernels")):
        subfolders[:] = sorted(n for n in subfolders if not n.startswith(".") and not os.path.isfile(
            os.path.join(folder, n, "CMakeCache.txt")))  # a build folder in the sources  # fmt: skip
        for path in (os.path.relpath(os.path.join(folder, n), root) for n in sorted(names) if n.endswith(".cu")):
            family = re.search(r"\bmake_(\w+)_variant\b", text := _read(root, path))
            if "register_variant(" in text and family:
                files[path.replace(os.sep, "/")] = family.group(1)
    return files


def load_tree(root, project=False):
    """Parses every variant file (variant_files) and the headers of the library or the project it includes."""
    tree = KernelTree(root, project=project)
    for path, family in variant_files(root, project).items():
        registrations = _registrations(_parse(tree, path), family)
        tree.labels_of_file[path] = [label for label, _ in registrations]
        tree.roots_of_label.update(registrations)
        tree.includes_of_file[path] = {h for h in _include_closure(tree, path) if project or "/detail/" in h}
    for header in sorted(set().union(*tree.includes_of_file.values())):
        tree.declarations[header] = list(_declarations(tree.files[header].root))
    return tree


def _read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as file:
        return file.read()


def _parse(tree, path):
    if path not in tree.files:
        tree.files[path] = Source(path, _read(tree.root, path))
    return tree.files[path]


def _names(node, skip=()):
    return {n.text.decode() for n in walk(node) if n.type in NAMES and not any(a <= n.start_byte < b for a, b in skip)}


def _include_closure(tree, path):
    """The library's files `path` includes, directly or not (from kernels/include/ or the root)."""
    seen, pending = set(), [path]
    while pending:
        current = pending.pop()
        for node in walk(_parse(tree, current).root):
            if node.type != "preproc_include":
                continue
            target = node.child_by_field_name("path").text.decode()[1:-1]
            for candidate in (f"kernels/include/{target}", target, os.path.join(os.path.dirname(current), target)):
                candidate = os.path.normpath(candidate).replace(os.sep, "/")
                inside = not candidate.startswith("../") if tree.project else candidate.startswith("kernels/")
                if inside and os.path.isfile(os.path.join(tree.root, candidate)):
                    if candidate not in seen:
                        seen.add(candidate)
                        pending.append(candidate)
                    break
    return seen


def _registrations(src, family):
    """(label, names its code uses) of each register_variant(...): the file's but other records'."""
    records = []
    for node in walk(src.root):
        function = node.child_by_field_name("function") if node.type == "call_expression" else None
        if function is not None and function.text == b"register_variant":
            pair = next(n for n in walk(node) if n.type == "initializer_pair" and n.child_by_field_name(
                "designator").text == b".name")  # fmt: skip
            label = f"{family}/{pair.child_by_field_name('value').text.decode().strip(chr(34))}"
            records.append((label, node.start_byte, node.end_byte))
    return [(label, _names(src.root, [(a, b) for other, a, b in records if other != label])) for label, _, _ in records]


def _declarations(node):
    """The namespace-scope declarations under `node`, each with the names it uses."""
    for child in node.named_children:
        if child.type in ("namespace_definition", "linkage_specification"):
            body = child.child_by_field_name("body")
            yield from _declarations(body) if body is not None else ()
        elif child.type in ("preproc_if", "preproc_ifdef", "preproc_else", "declaration_list"):
            yield from _declarations(child)
        elif child.type not in ("comment", "preproc_include", "preproc_def", "preproc_call", "preproc_function_def"):
            name = _declared_name(child)
            yield Declaration(name, child.start_byte, child.end_byte, _names(child) - {name})


def _declared_name(node):
    while node.type == "template_declaration":
        node = next(c for c in node.named_children if c.type != "template_parameter_list")
    if node.type == "function_definition":
        return function_name(node)
    named = node.child_by_field_name("name")
    if named is None and node.type in ("declaration", "field_declaration", "type_definition"):
        named = node.child_by_field_name("declarator")
        while named is not None and named.type not in NAMES:
            named = named.child_by_field_name("declarator") or named.child_by_field_name("name")
        if named is None:
            type_node = node.child_by_field_name("type")
            named = type_node.child_by_field_name("name") if type_node is not None else None
    if named is not None and named.type == "template_type":  # a specialisation names its template
        named = named.child_by_field_name("name")
    return named.text.decode() if named is not None else ""
