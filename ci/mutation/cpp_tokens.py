"""Splits C++/CUDA source into tokens that know where they are and what surrounds them.

Comments, string and character literals never become mutation sites: comments are dropped, and a
literal is one opaque token. A preprocessor directive (with its backslash continuations) is one
opaque token too, so `#include <a/b.h>` and `#pragma unroll` are never mistaken for operators.

Each token keeps whether whitespace touches it on either side. The mutation operators use that to
tell a binary operator from its look-alikes: the tree is formatted so that binary operators are
spaced (`a < b`, `a * b`, `a && b`) while template brackets, declarators and unary operators are
not (`static_cast<unsigned>(x)`, `const T* p`, `F&& f`, `*out`, `-x`).
"""

import re
from dataclasses import dataclass

# Longest first: the lexer takes the first that matches. `<<<` and `>>>` are CUDA's launch
# brackets; `>>>` is only taken on a line that opened one (else it closes three templates).
# fmt: off
_PUNCTUATORS = ["<<<", ">>>", "<<=", ">>=", "<=>", "...", "->*",
                "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
                "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*"]
# fmt: on
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
# A pp-number: digits, letters, dots, digit separators, and signs after an exponent letter.
_NUMBER = re.compile(r"\.?\d(?:[eEpP][+-]|[\w.']|)*")
_STRING_PREFIX = re.compile(r"(?:u8|[uUL])?R?\"|(?:u8|[uUL])?'")


@dataclass(frozen=True)
class Token:
    kind: str  # "identifier", "number", "punct", "literal" (string or char), "directive"
    text: str
    start: int  # offset of the first character in the source
    end: int  # offset one past the last character
    line: int  # 1-based line of the first character
    space_before: bool  # whitespace, a comment or the start of the file right before it
    space_after: bool  # whitespace, a comment or the end of the file right after it

    @property
    def spaced(self):
        """True for a token with whitespace on both sides: how a binary operator is written."""
        return self.space_before and self.space_after


def _skip_literal(source, i):
    """Offset just past the string or character literal that starts at i (a raw string too)."""
    prefix = _STRING_PREFIX.match(source, i)
    quote_at = prefix.end() - 1
    quote = source[quote_at]
    if quote == '"' and "R" in prefix.group(0):
        open_paren = source.index("(", quote_at)
        delimiter = source[quote_at + 1 : open_paren]
        return source.index(")" + delimiter + '"', open_paren) + len(delimiter) + 2
    j = quote_at + 1
    while source[j] != quote:
        j += 2 if source[j] == "\\" else 1
    return j + 1


def _skip_directive(source, i):
    """Offset of the newline that ends the preprocessor directive starting at i."""
    while True:
        newline = source.find("\n", i)
        if newline == -1:
            return len(source)
        if source[newline - 1] != "\\":
            return newline
        i = newline + 1


def tokenize(source):
    """Returns the tokens of `source` (a whole file) in order."""
    raw = []  # (kind, start, end)
    i, n = 0, len(source)
    at_line_start = True
    launch_open_line = -1  # offset of the line start where `<<<` was last seen
    while i < n:
        c = source[i]
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end == -1 else end
            continue
        if source.startswith("/*", i):
            i = source.index("*/", i + 2) + 2
            continue
        if c == "#" and at_line_start:
            end = _skip_directive(source, i)
            raw.append(("directive", i, end))
            i = end
            continue
        at_line_start = False
        literal = _STRING_PREFIX.match(source, i)
        if literal:
            end = _skip_literal(source, i)
            raw.append(("literal", i, end))
            i = end
            continue
        number = _NUMBER.match(source, i)
        if number:
            raw.append(("number", i, number.end()))
            i = number.end()
            continue
        identifier = _IDENTIFIER.match(source, i)
        if identifier:
            raw.append(("identifier", i, identifier.end()))
            i = identifier.end()
            continue
        line_start = source.rfind("\n", 0, i) + 1
        for punct in _PUNCTUATORS:
            if source.startswith(punct, i):
                if punct == ">>>" and launch_open_line != line_start:
                    continue
                if punct == "<<<":
                    launch_open_line = line_start
                raw.append(("punct", i, i + len(punct)))
                i += len(punct)
                break
        else:
            raw.append(("punct", i, i + 1))
            i += 1
    return _with_context(source, raw)


def _with_context(source, raw):
    tokens = []
    line, counted_to = 1, 0
    for index, (kind, start, end) in enumerate(raw):
        line += source.count("\n", counted_to, start)
        counted_to = start
        previous_end = raw[index - 1][2] if index else 0
        next_start = raw[index + 1][1] if index + 1 < len(raw) else len(source)
        tokens.append(
            Token(
                kind,
                source[start:end],
                start,
                end,
                line,
                space_before=start == 0 or previous_end < start,
                space_after=end == len(source) or end < next_start,
            )
        )
    return tokens
