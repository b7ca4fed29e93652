"""What the mutation operators need to know about a source file beyond its tokens: matching
brackets, the brace scopes (namespace, class, function, lambda, control block, initializer), which
code runs on the device, and which tokens no operator may touch.

Untouchable regions, each for a stated reason:
- `template <...>` parameter lists, `static_assert`, `alignas`, `__align__`, `__launch_bounds__`:
  compile-time declarations whose mutants do not compile or do not change behaviour;
- a variant's record, the argument of `register_variant(...)`: the contract the tests read (the
  registry tests check it), not code under test;
- the bodies of the contract functions (`accumulation_depth`, `tile_depth`, `tile_size`,
  `max_length`): they tell the tests what to ask and how close a float sum must be; mutating them
  changes the questions, not the kernel's answers.
"""

from dataclasses import dataclass, field

from cpp_tokens import tokenize

CONTROL_KEYWORDS = {"if", "for", "while", "switch", "catch"}
CONTRACT_FUNCTIONS = {"accumulation_depth", "tile_depth", "tile_size", "max_length"}
_PAREN_REGIONS = {"static_assert", "alignas", "__align__", "__launch_bounds__", "register_variant"}
_OPENERS = {"(": ")", "[": "]", "{": "}"}


@dataclass
class Scope:
    kind: str  # "file", "namespace", "class", "function", "lambda", "control", "init"
    name: str  # the function's or class's name; "" for others
    device: bool  # code in it runs on the GPU
    open: int  # token index of "{" (-1 for the file)
    close: int  # token index of "}"
    parent: "Scope | None" = None

    def enclosing(self, kinds):
        scope = self
        while scope is not None and scope.kind not in kinds:
            scope = scope.parent
        return scope


@dataclass
class SourceFile:
    path: str  # relative to the repository root, with forward slashes
    text: str
    tokens: list = field(init=False)
    partner: dict = field(init=False)  # index of a bracket -> index of its match
    scope_of: list = field(init=False)  # token index -> innermost Scope
    excluded: list = field(init=False)  # token index -> True where no operator may act

    def __post_init__(self):
        self.tokens = tokenize(self.text)
        self.partner = _match_brackets(self.tokens, self.path)
        self.scope_of = self._scopes()
        self.excluded = self._exclusions()

    def text_of(self, first, last):
        """The source text from token `first` to token `last`, both included."""
        return self.text[self.tokens[first].start : self.tokens[last].end]

    def is_device(self, index):
        return self.scope_of[index].device

    def function_of(self, index):
        scope = self.scope_of[index].enclosing({"function"})
        return scope.name if scope else ""

    def _scopes(self):
        file_scope = Scope("file", "", False, -1, len(self.tokens))
        scope_of, current = [], file_scope
        for index, token in enumerate(self.tokens):
            if token.text == "{" and token.kind == "punct":
                current = self._open_scope(index, current)
            scope_of.append(current)
            if token.text == "}" and token.kind == "punct":
                current = current.parent
        return scope_of

    def _open_scope(self, brace, parent):
        kind, name = self._classify_brace(brace)
        device = parent.device
        if kind == "function":
            device = self._head_has(brace, {"__global__", "__device__"})
        return Scope(kind, name, device, brace, self.partner[brace], parent)

    def _classify_brace(self, brace):
        tokens = self.tokens
        previous = tokens[brace - 1].text if brace else ""
        close_paren = None
        if previous == ")":
            close_paren = brace - 1
        elif previous in {"const", "noexcept", "override", "mutable"} and tokens[brace - 2].text == ")":
            close_paren = brace - 2
        if close_paren is not None:
            open_paren = self.partner[close_paren]
            before = tokens[open_paren - 1].text
            if before == "]":
                return "lambda", ""
            if before in CONTROL_KEYWORDS or (before == "constexpr" and tokens[open_paren - 2].text == "if"):
                return "control", ""
            if tokens[open_paren - 1].kind == "identifier":
                return "function", before
        if previous in {"do", "else", "try"}:
            return "control", ""
        if previous in {"=", "(", ",", "{", "return", "["}:
            return "init", ""
        index = brace - 1
        while index >= 0 and tokens[index].text not in {";", "{", "}"}:
            text = tokens[index].text
            if text == "namespace":
                return "namespace", ""
            if text in {"struct", "class", "union", "enum"}:
                return "class", self._name_after(index)
            index = self.partner.get(index, index) - 1 if text in {")", "]"} else index - 1
        return "init", ""

    def _name_after(self, keyword):
        index = keyword + 1
        while self.tokens[index].kind != "identifier" or self.tokens[index].text in _PAREN_REGIONS:
            index = self.partner.get(index, index) + 1
        return self.tokens[index].text

    def _head_has(self, brace, words):
        """Whether the declaration that `brace` opens has one of `words` before its name."""
        index = brace - 1
        while index >= 0 and self.tokens[index].text not in {";", "{", "}"}:
            if self.tokens[index].text in words:
                return True
            index = self.partner.get(index, index) - 1 if self.tokens[index].text in {")", "]"} else index - 1
        return False

    def _exclusions(self):
        tokens, excluded = self.tokens, [False] * len(self.tokens)

        def exclude(first, last):
            for index in range(first, last + 1):
                excluded[index] = True

        for index, token in enumerate(tokens):
            if token.kind in {"directive", "literal"}:
                excluded[index] = True
            elif token.text in _PAREN_REGIONS and index + 1 < len(tokens) and tokens[index + 1].text == "(":
                exclude(index, self.partner[index + 1])
            elif token.text == "template" and index + 1 < len(tokens) and tokens[index + 1].text == "<":
                exclude(index, _closing_angle(tokens, self.partner, index + 1))
        for scope in {id(s): s for s in self.scope_of}.values():
            if scope.kind == "function" and scope.name in CONTRACT_FUNCTIONS:
                exclude(scope.open, scope.close)
        return excluded


def _match_brackets(tokens, path):
    partner, stack = {}, []
    for index, token in enumerate(tokens):
        if token.kind != "punct":
            continue
        if token.text in _OPENERS:
            stack.append(index)
        elif token.text in _OPENERS.values():
            if not stack or _OPENERS[tokens[stack[-1]].text] != token.text:
                raise ValueError(f"{path}:{token.line}: unbalanced '{token.text}'")
            opener = stack.pop()
            partner[opener], partner[index] = index, opener
    if stack:
        raise ValueError(f"{path}:{tokens[stack[-1]].line}: '{tokens[stack[-1]].text}' never closed")
    return partner


def _closing_angle(tokens, partner, less):
    """Index of the `>` closing the template parameter list that opens at `less`."""
    depth = 0
    index = less
    while True:
        text = tokens[index].text
        if text in _OPENERS:
            index = partner[index] + 1
            continue
        depth += {"<": 1, ">": -1, ">>": -2}.get(text, 0)
        if depth <= 0:
            return index
        index += 1


def split_arguments(tokens, first, last):
    """The comma-separated parts of tokens[first..last] (inside a call's parentheses) as
    (first, last) index pairs. Commas inside brackets do not split, nor commas inside template
    arguments: an unspaced `<` after a name opens them (`&kernel<A, B>`), a spaced one compares."""
    parts, depth, start = [], 0, first
    for index in range(first, last + 1):
        token = tokens[index]
        if token.kind != "punct":
            continue
        if token.text in _OPENERS or (token.text == "<" and not token.space_before):
            depth += 1
        elif token.text in _OPENERS.values() or (token.text == ">" and not token.space_before):
            depth -= 1
        elif token.text == ">>" and not token.space_before:
            depth -= 2
        elif token.text == "," and depth == 0:
            parts.append((start, index - 1))
            start = index + 1
    if start <= last:
        parts.append((start, last))
    return parts
