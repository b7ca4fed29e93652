#!/usr/bin/env python3
"""Checks the relative links of every tracked Markdown file (git ls-files '*.md').

Each [text](path), [text](path#anchor), ![alt](path) and reference definition [ref]: path must
name a file or folder that exists, relative to the Markdown file (or to the repository root when
the path starts with /); an anchor must be the GitHub-style slug of a heading of the target .md
(or of the file itself for [text](#anchor)). Links with a scheme (http:, https:, mailto:, ...)
are skipped, as is everything inside code spans and fenced code blocks.

The comments of the tracked sources (C++, CUDA, Python, shell, CMake) are held to the same: a path
from the repository root (or a public header's include path) in a comment (`docs/...`, `bench/results/...`, `kernels/...`, `test/...`,
`ci/...`, `cmake/...`, `fuzz/...`, `examples/...`, ending in a file name with an extension) must
name a tracked file or one the build writes there; paths with placeholders (<...>, *, {) are
skipped.

Prints each broken link as `file:line: link` and exits 1 if there is any, else 0.

Usage: ci/check-links.py [--self-test]   (from anywhere inside the repository)
"""

import os
import re
import subprocess
import sys
import tempfile
from urllib.parse import unquote

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# [text](target) or ![alt](target), the target optionally in <...> and followed by a title.
INLINE_LINK = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def blank_code_spans(line):
    """The line with every code span's content replaced by spaces (columns kept)."""
    return CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)


def prose_lines(text):
    """(line number, line) for every line outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE.match(line)
        if fence is None:
            if match:
                fence = match.group(1)
                continue
            yield number, line
        elif match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
            fence = None


def slug(heading):
    """GitHub's anchor for a heading: its text, links reduced to their text, lower case, without
    punctuation other than - and _, spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in "-_ ")
    return text.replace(" ", "-")


def anchors(text):
    """Every anchor GitHub makes for the headings of a Markdown text (repeats get -1, -2, ...)."""
    seen = {}
    result = set()
    previous = None
    for _, line in prose_lines(text):
        heading = None
        match = ATX_HEADING.match(line)
        if match:
            heading = match.group(1) or ""
        elif previous and previous.strip() and SETEXT_UNDERLINE.match(line) \
                and not ATX_HEADING.match(previous):
            heading = previous.strip()
        previous = line
        if heading is None:
            continue
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return result


def links(text):
    """(line number, target) for every link and reference definition outside code."""
    for number, line in prose_lines(text):
        line = blank_code_spans(line)
        for match in INLINE_LINK.finditer(line):
            yield number, match.group(1)
        match = REFERENCE_DEFINITION.match(line)
        if match:
            yield number, match.group(1)


def broken_links(root, markdown_files):
    """['file:line: link', ...] for every link of the files (paths relative to root) that does not
    resolve."""
    anchor_cache = {}

    def anchors_of(path):
        if path not in anchor_cache:
            with open(path, encoding="utf-8") as file:
                anchor_cache[path] = anchors(file.read())
        return anchor_cache[path]

    broken = []
    for name in markdown_files:
        source = os.path.join(root, name)
        if not os.path.isfile(source):  # tracked but deleted in the work tree
            continue
        with open(source, encoding="utf-8") as file:
            text = file.read()
        for number, raw in links(text):
            target = raw[1:-1] if raw.startswith("<") and raw.endswith(">") else raw
            if SCHEME.match(target):
                continue
            path, _, anchor = target.partition("#")
            path = unquote(path)
            if not path:
                resolved = source
            elif path.startswith("/"):
                resolved = os.path.join(root, path.lstrip("/"))
            else:
                resolved = os.path.join(os.path.dirname(source), path)
            resolved = os.path.normpath(resolved)
            inside = os.path.commonpath([os.path.abspath(root), os.path.abspath(resolved)]) \
                == os.path.abspath(root)
            ok = inside and os.path.exists(resolved)
            if ok and anchor:
                ok = resolved.endswith(".md") and os.path.isfile(resolved) \
                    and unquote(anchor).lower() in anchors_of(resolved)
            if not ok:
                broken.append(f"{name}:{number}: {raw}")
    return broken


def self_test():
    """Checks the checker on a small tree of its own; exits 1 on any difference."""
    files = {
        "README.md": "\n".join([
            "# Top title",
            "See [docs](docs/) and [a page](docs/page.md#some-heading-with-code).",
            "A [missing file](docs/missing.md) and a [bad anchor](docs/page.md#nope).",
            "[Web](https://example.com/x.md) [mail](mailto:a@b.c) [here](#top-title)",
            "`[in code](nowhere.md)` and ![image](img/none.png)",
            "```",
            "[in a fence](nowhere.md)",
            "```",
            "[ref]: docs/page.md#second",
            "[Repeated](docs/page.md#repeated-1) [root-relative](/docs/page.md)",
            "[outside](../elsewhere.md) [title](docs/page.md \"a title\")",
        ]),
        "docs/page.md": "\n".join([
            "## Some heading, with `code`!",
            "Second",
            "------",
            "# Repeated",
            "# Repeated",
            "[up](../README.md#top-title) [self](#second) [gone](#third)",
        ]),
    }
    expected = [
        "README.md:3: docs/missing.md",
        "README.md:3: docs/page.md#nope",
        "README.md:5: img/none.png",
        "README.md:11: ../elsewhere.md",
        "docs/page.md:6: #third",
    ]
    with tempfile.TemporaryDirectory() as root:
        for name, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(root, name), "w", encoding="utf-8") as file:
                file.write(text + "\n")
        got = broken_links(root, sorted(files))
        sources = {"src/a.cpp": "// see docs/missing.md and docs/page.md\n#include <kernels/x.hpp>\n",
                   "tool.py": "x = 1  # docs/page.md, then kernels/<family>/*.cu\n# bench/gone.md.\n"}
        for name, text in sources.items():
            os.makedirs(os.path.join(root, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(root, name), "w", encoding="utf-8") as file:
                file.write(text)
        got += broken_comment_paths(root, sorted([*files, *sources]))
        expected += ["src/a.cpp:1: docs/missing.md", "tool.py:2: bench/gone.md"]
    if got != expected:
        print("check-links self-test FAILED\nexpected:\n  " + "\n  ".join(expected)
              + "\ngot:\n  " + "\n  ".join(got), file=sys.stderr)
        return 1
    print("check-links self-test passed")
    return 0


SLASH_COMMENT = re.compile(r"//(.*)$")  # C++ and CUDA ('#' starts their preprocessor lines)
HASH_COMMENT = re.compile(r"#(.*)$")  # Python, shell, CMake
REPO_PATH = re.compile(r"(?<![\w./-])((?:docs|bench|kernels|test|ci|cmake|fuzz|examples)/[\w./-]*\.[A-Za-z]+)")
SOURCES = ("*.cpp", "*.hpp", "*.cu", "*.cuh", "*.py", "*.sh", "*.cmake", "*.in", "CMakeLists.txt", "*.template")


def broken_comment_paths(root, names):
    """`file:line: path` for each repository path named in a source comment that names nothing."""
    tracked = set(names)
    broken = []
    for name in names:
        marker = SLASH_COMMENT if name.endswith((".cpp", ".hpp", ".cu", ".cuh", ".template")) else HASH_COMMENT
        with open(os.path.join(root, name), encoding="utf-8", errors="replace") as file:
            for number, line in enumerate(file, 1):
                comment = marker.search(line)
                for path in REPO_PATH.findall(comment.group(1)) if comment else []:
                    path = path.rstrip(".")
                    # a public header by its include path (<kernels/...>) is in kernels/include/
                    if not {path, "kernels/include/" + path} & tracked and not os.path.exists(os.path.join(root, path)):
                        broken.append(f"{name}:{number}: {path}")
    return broken


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if argv[1:]:
        print(__doc__, file=sys.stderr)
        return 2
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], check=True,
                          capture_output=True, text=True,
                          cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    files = subprocess.run(["git", "ls-files", "-z", "*.md"], check=True, capture_output=True,
                           text=True, cwd=root).stdout.split("\0")
    broken = broken_links(root, sorted(name for name in files if name))
    sources = subprocess.run(["git", "ls-files", "-z", *SOURCES], check=True, capture_output=True,
                             text=True, cwd=root).stdout.split("\0")
    own = os.path.relpath(os.path.abspath(__file__), root)  # its self-test's examples name missing files
    broken += broken_comment_paths(root, sorted(name for name in sources if name and name != own))
    for line in broken:
        print(line)
    if broken:
        print(f"check-links: {len(broken)} broken link(s)", file=sys.stderr)
        return 1
    print(f"check-links: every relative link of {len([f for f in files if f])} Markdown files "
          f"and every repository path in the comments of {len([f for f in sources if f])} sources resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
