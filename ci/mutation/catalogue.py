"""The catalogue: hand-written mutants, one patch each in catalogue/<name>.patch, whose header
lines (Mutant, Variant, Bug, optionally Sanitizer and Sanitize-with) precede the diff."""

import os
import re
from dataclasses import dataclass

from generate import Mutant

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.join(HERE, "catalogue")
SANITIZERS = ("memcheck", "racecheck", "synccheck", "initcheck")
REQUIRED = ("Mutant", "Variant", "Bug")
_NEW_FILE = re.compile(r"^\+\+\+ b/(\S+)", re.MULTILINE)
_FIRST_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)", re.MULTILINE)


@dataclass(frozen=True)
class PlantedBug:
    name: str
    variant: str
    bug: str
    sanitizer: str  # empty when the patch names none
    sanitize_with: tuple  # kcheck arguments after the variant
    text: str  # the whole patch, header included

    def mutant(self):
        """As a Mutant, for the builds and the report: its id is its name, its class `catalogue`."""
        files = _NEW_FILE.findall(self.text)
        hunk = _FIRST_HUNK.search(self.text)
        line = int(hunk.group(1)) if hunk else 0
        return Mutant(self.name, files[0] if files else "", line, "planted", "catalogue", (self.variant,), self.text)


def headers(text):
    """{name: value} of the header lines before the first empty line."""
    found = {}
    for line in text.splitlines():
        if not line.strip():
            break
        name, colon, value = line.partition(": ")
        if colon:
            found[name] = value.strip()
    return found


def parse(name, text):
    """The planted bug of catalogue/<name>.patch; ValueError names what is wrong with its header."""
    fields = headers(text)
    missing = [field for field in REQUIRED if not fields.get(field)]
    if missing:
        raise ValueError(f"{name}.patch: no {', '.join(missing)} header")
    if fields["Mutant"] != name:
        raise ValueError(f"{name}.patch: its Mutant header says {fields['Mutant']!r}")
    if ("Sanitizer" in fields) != ("Sanitize-with" in fields):
        raise ValueError(f"{name}.patch: a Sanitizer needs its Sanitize-with case, and a case its tool")
    if fields.get("Sanitizer", SANITIZERS[0]) not in SANITIZERS:
        raise ValueError(f"{name}.patch: unknown sanitizer {fields['Sanitizer']!r}")
    sanitize_with = tuple(fields.get("Sanitize-with", "").split())
    return PlantedBug(name, fields["Variant"], fields["Bug"], fields.get("Sanitizer", ""), sanitize_with, text)


def names(folder=FOLDER):
    return sorted(entry[: -len(".patch")] for entry in os.listdir(folder) if entry.endswith(".patch"))


def load(wanted=None, folder=FOLDER):
    """The planted bugs named in `wanted` (all of them when empty), in name order."""
    known = names(folder)
    unknown = sorted(set(wanted or ()) - set(known))
    if unknown:
        raise ValueError(f"not in the catalogue ({folder}): {', '.join(unknown)}")
    bugs = []
    for name in sorted(set(wanted or known)):
        with open(os.path.join(folder, f"{name}.patch"), encoding="utf-8") as file:
            bugs.append(parse(name, file.read()))
    return bugs
