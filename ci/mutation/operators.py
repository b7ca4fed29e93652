"""The mutation operators: each finds its sites in a SourceFile and proposes Mutations.

Conventional classes (Offutt's selective set, in spirit): relational, loop_boundary, arithmetic,
constant, bounds_check, logical; operand_order, about the semantics of the kernels' binary-op
functor: `op(a, b)` made `op(b, a)`, a bug no commutative op can show (every variant that keeps
the order of its input must kill it; one whose contract allows only commutative ops need not);
and accumulator_width, about the reductions' types: the accumulator's values narrowed to In.
GPU classes (after Zhu and Zaidman, ICST 2020): barrier, thread_index, shared_memory, volatile,
atomic, memory_order, launch_shape, index_width.

Choices that keep the catalogue useful rather than large:
- a relational operator at the top of a `for`/`while` condition is a loop_boundary mutant, and
  only there; `> 0` is never widened to `>= 0` in a loop condition (a halving or unsigned loop
  would then never end: the mutant would only measure the suite's timeout);
- compound assignments in a `for` header are left alone for the same reason;
- `kernel<<<...>>>` inside launch_kernel() takes dim3 values: the launch_shape operators mutate
  the grid and block arguments of every launch_kernel() call instead;
- index_width narrows 64-bit integer types in device code only, where a 32-bit index is the
  classic overflow; host code sizes the grid and the workspace in 64 bits on purpose;
- operand_order swaps the two arguments of calls of the functor object, which the kernels name
  `op` by convention (`const OpT op;`, `const ScanOp<T> op;`, a device helper's `const OpT& op`),
  in device code only (a `__host__ __device__` function counts as device code). Not the functors'
  own definitions (`T operator()(T a, T b)` in detail/ops.cuh: no call there), nor a declaration
  named op (`Op op`, `const OpT op;`, `OpT op(x)`), a member (`x.op(a, b)`), or a call whose two
  arguments are the same text (the swap would change nothing). A functor called under another
  name, or as a temporary (`OpT()(a, b)`), is not found: none is today (test_mutation.py checks
  every `op(` call line has its swap), and new code keeps the name;
- accumulator_width (narrow_accumulator) narrows the reductions' accumulator, whose type the
  kernels name `Out` beside the element type `In` (`template <class OpT, class In, class Out>`),
  value by value: each value it takes is made `Out(In(value))`, rounded or wrapped to In as if
  accumulated there and converted back. No type changes, so every mutant compiles wherever the
  original does (narrowing the declared type did not: `unrolled_block_reduce(values, v, op)` and
  the other helpers deduce one T from the buffer and the value). The site is a declaration
  statement of one `Out` in device code, where the templates around it (the function's, an
  enclosing class template's) declare both `class In` and `class Out`: the approximation of "In
  is a name in scope" (an alias `using In = ...` or a shadowing name is not seen). Its one mutant
  wraps, in the rest of the declaring block, for a scalar (`Out v = x;`, `const Out t = x;`) its
  initialiser and the right-hand side of each assignment statement `v = ...;` (also after
  `if (c)`, `else`, or a store it feeds: `values[i] = v = op(v, w);`), and for a pointer or array
  (`Out* values = dynamic_shared<Out>();`, `__shared__ Out s[32];`) the right-hand side of each
  store statement `values[i] = ...;`; a declaration that takes no such value has none. Not found:
  compound assignments and increments (`v += x`), assignments in a `for` header, after a label or
  inside parentheses, stores through `*p`, and what the helpers it is passed to do with it (their
  parameters are their own: `last_warp_step`'s stores into `values` stay wide); nor references
  (`Out& r`), direct initialisation (`Out v(x)`), several declarators, a declaration in a `for`
  header, and `Out` in a conversion (`Out(in[i])`), a parameter list, a return type, template
  arguments or a cast. test_mutation.py checks that every device line of kernels/reduce/
  declaring an `Out` that takes a value has its mutant, and that none of them is compound-assigned.
  The bug shows only for the widening type keys, where Out is wider than In (int_to_longlong,
  half_to_float, bfloat16_to_float: ctest labels of the reduce entries); for every other key In
  is Out, `Out(In(x))` is `x` and the mutant is the original code, so those keys' entries pass by
  construction and the kill must come from a widening key's entries, which a variant's run
  includes. A survivor is a variant whose widening-key tests miss the overflow or rounding.
"""

import re
from dataclasses import dataclass

from cpp_structure import CONTROL_KEYWORDS, split_arguments

CONVENTIONAL_CLASSES = [
    "relational",
    "loop_boundary",
    "arithmetic",
    "constant",
    "bounds_check",
    "logical",
    "operand_order",
    "accumulator_width",
]
GPU_CLASSES = [
    "barrier",
    "thread_index",
    "shared_memory",
    "volatile",
    "atomic",
    "memory_order",
    "launch_shape",
    "index_width",
]
CLASSES = CONVENTIONAL_CLASSES + GPU_CLASSES

_RELATIONAL = {
    "<": ("lt_to_le", "<="),
    "<=": ("le_to_lt", "<"),
    ">": ("gt_to_ge", ">="),
    ">=": ("ge_to_gt", ">"),
    "==": ("eq_to_ne", "!="),
    "!=": ("ne_to_eq", "=="),
}
_ORDERING = {"<", "<=", ">", ">="}
_BARRIERS = {"__syncthreads", "__syncwarp", "__threadfence", "__threadfence_block", "__threadfence_system"}
_BUILTIN_INDICES = {"threadIdx": "blockIdx", "blockIdx": "threadIdx", "blockDim": "gridDim", "gridDim": "blockDim"}
_ATOMIC_FUNCTIONS = {"atomicAdd": "+", "atomicSub": "-", "atomicAnd": "&", "atomicOr": "|", "atomicXor": "^"}
_ATOMIC_METHODS = {"fetch_add": "+", "fetch_sub": "-", "fetch_and": "&", "fetch_or": "|", "fetch_xor": "^"}
_STRONG_ORDERS = {"memory_order_acquire", "memory_order_release", "memory_order_acq_rel", "memory_order_seq_cst"}
_WIDE_SCOPES = {"thread_scope_device", "thread_scope_system"}
_INTEGER = re.compile(r"^(0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)([uUlL]*)$")
_EXITS = {"return", "break", "continue"}
_FUNCTOR = "op"  # the name the kernels give their binary-op functor object
_ACCUMULATOR, _ELEMENT = "Out", "In"  # the reductions' accumulator and element type parameters
_STATEMENT_STARTS = {";", "{", "}"}
_DECLARATION_SPECIFIERS = {"const", "volatile", "__shared__"}
_DECLARATOR_QUALIFIERS = {"const", "volatile", "__restrict__"}
# Names that start a statement other than an expression statement.
_STATEMENT_KEYWORDS = CONTROL_KEYWORDS | {"do", "else", "return", "case", "default", "break", "continue", "goto"}
# Tokens before a `?` that end its condition when scanning backwards.
_CONDITION_STARTS = {
    "(",
    "[",
    "{",
    ",",
    ";",
    "?",
    ":",
    "return",
    "=",
    "+=",
    "-=",
    "*=",
    "/=",
    "%=",
    "&=",
    "|=",
    "^=",
    "<<=",
    ">>=",
}


@dataclass(frozen=True)
class Mutation:
    operator: str  # e.g. "lt_to_le"; part of the mutant's id
    op_class: str  # one of CLASSES
    anchor: int  # token index whose line names the mutant
    edits: tuple  # ((start offset, end offset, replacement), ...), disjoint, in order


def find_mutations(sf):
    """Every mutation of every operator in one file, in a fixed order."""
    finders = [
        _relational,
        _arithmetic,
        _constants,
        _bounds_checks,
        _logical,
        _swapped_operands,
        _narrowed_accumulators,
        _barriers,
        _thread_indices,
        _shared_arrays,
        _dynamic_shared,
        _volatile,
        _atomics,
        _memory_orders,
        _launch_shapes,
        _index_widths,
    ]
    mutations = []
    for finder in finders:
        mutations.extend(finder(sf))
    return mutations


def _replace(token, text):
    return ((token.start, token.end, text),)


def _sites(sf, texts=None, binary=False):
    """Indices of the tokens no exclusion covers, optionally only those with given texts, and
    with `binary` only operators written as binary ones (spaced on both sides)."""
    for index, token in enumerate(sf.tokens):
        if sf.excluded[index] or (texts is not None and token.text not in texts):
            continue
        if binary and not (token.kind == "punct" and token.spaced):
            continue
        yield index


def _loop_conditions(sf):
    """Token index -> "top" for tokens at the top level of a for/while condition, "header" for
    every other token of a for header."""
    marks, tokens = {}, sf.tokens
    for index, token in enumerate(tokens):
        if token.text not in {"for", "while"} or index + 1 >= len(tokens) or tokens[index + 1].text != "(":
            continue
        open_paren, close_paren = index + 1, sf.partner[index + 1]
        for inner in range(open_paren + 1, close_paren):
            marks[inner] = "header"
        top = list(_top_level(sf, open_paren + 1, close_paren - 1))
        if token.text == "for":
            semicolons = [i for i in top if tokens[i].text == ";"]
            if len(semicolons) != 2:
                continue  # a range-based for: no condition
            top = [i for i in top if semicolons[0] < i < semicolons[1]]
        for inner in top:
            marks[inner] = "top"
    return marks


def _relational(sf):
    loops = _loop_conditions(sf)
    for index in _sites(sf, _RELATIONAL, binary=True):
        token = sf.tokens[index]
        name, replacement = _RELATIONAL[token.text]
        if loops.get(index) == "top" and token.text in _ORDERING:
            if token.text == ">" and sf.tokens[index + 1].text == "0":
                continue
            yield Mutation("loop_" + name, "loop_boundary", index, _replace(token, replacement))
        else:
            yield Mutation(name, "relational", index, _replace(token, replacement))


def _arithmetic(sf):
    loops = _loop_conditions(sf)
    swaps = {
        "+": ("add_to_sub", "-"),
        "-": ("sub_to_add", "+"),
        "+=": ("add_assign_to_sub", "-="),
        "-=": ("sub_assign_to_add", "+="),
    }
    for index in _sites(sf, swaps, binary=True):
        token = sf.tokens[index]
        if token.text.endswith("=") and loops.get(index):
            continue
        name, replacement = swaps[token.text]
        yield Mutation(name, "arithmetic", index, _replace(token, replacement))
    for index in _sites(sf, {"*", "/"}, binary=True):
        for operand in (index - 1, index + 1):
            literal = sf.tokens[operand]
            parsed = _INTEGER.match(literal.text) if literal.kind == "number" else None
            if parsed and not (sf.tokens[index].text == "/" and operand == index - 1):
                new_value = "2" if int(parsed.group(1), 0) == 1 else "1"
                yield Mutation(
                    "mul_constant" if sf.tokens[index].text == "*" else "div_constant",
                    "arithmetic",
                    operand,
                    _replace(literal, new_value + parsed.group(2)),
                )


def _constants(sf):
    for index in _sites(sf):
        token = sf.tokens[index]
        parsed = _INTEGER.match(token.text) if token.kind == "number" else None
        if not parsed:
            continue
        digits, suffix = parsed.groups()
        value = int(digits, 0)
        hexadecimal = digits[:2].lower() == "0x"
        for name, new_value in (("const_plus_1", value + 1), ("const_minus_1", value - 1)):
            if new_value < 0 or (hexadecimal and new_value.bit_length() > 4 * (len(digits) - 2)):
                continue
            text = f"0x{new_value:x}" if hexadecimal else str(new_value)
            yield Mutation(name, "constant", index, _replace(token, text + suffix))


def _top_level(sf, first, last):
    """Indices in first..last not nested in brackets."""
    index = first
    while index <= last:
        yield index
        index = sf.partner[index] + 1 if index in sf.partner and sf.partner[index] > index else index + 1


def _has_ordering(sf, first, last):
    return any(sf.tokens[i].text in _ORDERING and sf.tokens[i].spaced for i in _top_level(sf, first, last))


def _guards(sf, first, last, body_first, body_last):
    """Whether the comparison in tokens[first..last] bounds an index that the guarded code
    tokens[body_first..body_last] uses: one of its operands appears inside a subscript or a
    call's arguments there (`j < count` guarding `compare_exchange(window, i, j)`, `i < n` guarding
    `out[i] = x`), which tells bounds checks from comparisons of values (`a < b ? b : a`)."""
    tokens = sf.tokens
    ordering = next(i for i in _top_level(sf, first, last) if tokens[i].text in _ORDERING and tokens[i].spaced)
    indexed = []
    for opener in range(body_first, body_last + 1):
        is_call = tokens[opener].text == "(" and opener > 0 and tokens[opener - 1].kind == "identifier"
        if tokens[opener].text == "[" or is_call:
            indexed.append(" ".join(t.text for t in tokens[opener + 1 : sf.partner[opener]]))
    operands = [" ".join(t.text for t in tokens[a : b + 1]) for a, b in ((first, ordering - 1), (ordering + 1, last))]
    return any(operand and operand in group for operand in operands for group in indexed)


def _statement_end(sf, first):
    """The last token of the statement that starts at `first` (a block's closing brace)."""
    if sf.tokens[first].text == "{":
        return sf.partner[first]
    index = first
    while sf.tokens[index].text != ";":
        index = sf.partner[index] + 1 if index in sf.partner else index + 1
    return index


def _bounds_checks(sf):
    tokens = sf.tokens
    for index in _sites(sf, {"if"}):
        open_paren = index + 1
        if tokens[open_paren].text != "(":
            continue  # `if constexpr`: a compile-time choice, not a bounds check
        close_paren = sf.partner[open_paren]
        top = list(_top_level(sf, open_paren + 1, close_paren - 1))
        if any(tokens[i].text == "||" for i in top):
            continue
        cuts = [open_paren] + [i for i in top if tokens[i].text == "&&"] + [close_paren]
        body_end = _statement_end(sf, close_paren + 1)
        statement = close_paren + 1 + (tokens[close_paren + 1].text == "{")
        # An early exit (`if (i >= n) return;`) guards everything after it.
        exits = (
            tokens[statement].text in _EXITS
            and tokens[_statement_end(sf, statement)].text == ";"
            and _statement_end(sf, statement) - statement <= 2
        )
        for first, last in zip([c + 1 for c in cuts[:-1]], [c - 1 for c in cuts[1:]]):
            if _has_ordering(sf, first, last) and (exits or _guards(sf, first, last, close_paren + 1, body_end)):
                removed = "false" if exits and len(cuts) == 2 else "true"
                yield Mutation(
                    "drop_bounds_check", "bounds_check", first, ((tokens[first].start, tokens[last].end, removed),)
                )
    for index in _sites(sf, {"?"}):
        first = index - 1
        while first >= 0 and tokens[first].text not in _CONDITION_STARTS:
            first = sf.partner[first] - 1 if tokens[first].text in {")", "]"} else first - 1
        first += 1
        top = list(_top_level(sf, first, index - 1))
        if any(tokens[i].text in {"&&", "||"} for i in top) or not _has_ordering(sf, first, index - 1):
            continue
        colon = next(i for i in _top_level(sf, index + 1, len(tokens) - 1) if tokens[i].text == ":")
        if _guards(sf, first, index - 1, index + 1, colon - 1):
            yield Mutation(
                "drop_bounds_check", "bounds_check", first, ((tokens[first].start, tokens[index - 1].end, "true"),)
            )


def _logical(sf):
    for index in _sites(sf, {"&&", "||"}, binary=True):
        token = sf.tokens[index]
        name, replacement = ("and_to_or", "||") if token.text == "&&" else ("or_to_and", "&&")
        yield Mutation(name, "logical", index, _replace(token, replacement))


def _swapped_operands(sf):
    """op(a, b) made op(b, a): see the module's docstring for which calls."""
    tokens = sf.tokens
    for index in _sites(sf, {_FUNCTOR}):
        if index + 1 >= len(tokens) or tokens[index + 1].text != "(" or not sf.is_device(index):
            continue
        if index > 0 and _declares_or_selects(tokens[index - 1]):
            continue
        close_paren = sf.partner[index + 1]
        if tokens[close_paren + 1].text in {"{", "const", "noexcept"}:
            continue  # a function named op being defined
        args = split_arguments(tokens, index + 2, close_paren - 1)
        if len(args) != 2:
            continue
        (first_a, last_a), (first_b, last_b) = args
        if [t.text for t in tokens[first_a : last_a + 1]] == [t.text for t in tokens[first_b : last_b + 1]]:
            continue  # op(x, x): nothing to swap
        a, b = sf.text_of(first_a, last_a), sf.text_of(first_b, last_b)
        yield Mutation(
            "swap_operands",
            "operand_order",
            index,
            ((tokens[first_a].start, tokens[last_a].end, b), (tokens[first_b].start, tokens[last_b].end, a)),
        )


def _declares_or_selects(before):
    """Whether the token before `op(` makes it no call of the functor object: a member (`x.op(`,
    `p->op(`, `N::op(`), or a declaration (`OpT op(x)`, `T op(T a, T b)`, `Wrap<T> op(`, `T* op(`)."""
    if before.text in {".", "->", "::"}:
        return True
    if before.kind == "identifier":
        return before.text not in {"return", "co_return", "co_yield", "case"}
    if before.text == ">":
        return not before.space_before  # a template's closing bracket, not a comparison
    return before.text in {"*", "&", "&&"} and not before.space_before and before.space_after


def _narrowed_accumulators(sf):
    """Each value the accumulator declared `Out` takes, made `Out(In(value))`: see the module's
    docstring for which declarations and which values."""
    for index in _sites(sf, {_ACCUMULATOR}):
        if not sf.is_device(index) or not _declares(sf, index):
            continue
        if not {_ELEMENT, _ACCUMULATOR} <= _type_parameters(sf, index):
            continue
        declarator = _accumulator_declarator(sf, index)
        if declarator is None:
            continue
        spans = list(_values_taken(sf, index, *declarator))
        if spans:
            edits = tuple(edit for first, last in spans for edit in _narrowed(sf, first, last))
            yield Mutation("narrow_accumulator", "accumulator_width", index, edits)


def _declares(sf, index):
    """Whether tokens[index] is the type of a declaration statement: first in its statement but
    for specifiers (`const`, `__shared__`), and followed by a declarator (`v`, `* p`, `& r`,
    `const x`). Followed by `(` it is a conversion (`Out(x);`), by `::` a member of the type."""
    tokens, before = sf.tokens, index - 1
    while before >= 0 and tokens[before].text in _DECLARATION_SPECIFIERS:
        before -= 1
    if before >= 0 and tokens[before].text not in _STATEMENT_STARTS:
        return False
    after = tokens[index + 1]
    return after.kind == "identifier" or after.text in {"*", "&", "&&"}


def _accumulator_declarator(sf, index):
    """(index of the declared name, whether values reach it through stores `name[i] = x`) for
    the declaration whose type `Out` is tokens[index]: a scalar (`Out v = x;`, `Out const v;`),
    a pointer (`Out* values = ...;`, `volatile Out* const p;`) or an array (`Out s[32];`), alone
    in its statement. None for a reference, a pointer to pointer, a direct initialisation
    (`Out v(x)`, `Out v{x}`) or several declarators (`Out a = 0, b;`)."""
    tokens, at = sf.tokens, index + 1
    while tokens[at].text in _DECLARATOR_QUALIFIERS:
        at += 1
    pointer = tokens[at].text == "*"
    at += pointer
    while tokens[at].text in _DECLARATOR_QUALIFIERS:
        at += 1
    name = at
    if tokens[name].kind != "identifier":
        return None
    array = not pointer and tokens[name + 1].text == "["
    follows = tokens[sf.partner[name + 1] + 1 if array else name + 1].text
    if follows not in ({";"} if array else {";", "="}):
        return None
    if len(split_arguments(sf.tokens, name, _statement_end(sf, name) - 1)) > 1:
        return None
    return name, pointer or array


def _values_taken(sf, index, name, stored):
    """(first, last) token spans of the values the accumulator takes, in order: a scalar's
    initialiser and the right-hand side of each later assignment `name = x;`, or the right-hand
    side of each later store `name[i] = x;`, in the rest of the block that declares it."""
    tokens, end = sf.tokens, _statement_end(sf, index)
    if not stored and tokens[name + 1].text == "=":
        yield name + 2, end - 1
    first = end + 1
    while first < sf.scope_of[index].close:
        if tokens[first].text in {"(", "["}:  # a condition, a for header, a call: no statement in it
            first = sf.partner[first] + 1
            continue
        if _starts_expression_statement(sf, first):
            yield from _assigned(sf, first, tokens[name].text, stored)
        first += 1


def _starts_expression_statement(sf, index):
    """Whether tokens[index], a name or a `*` (`*out = v = x;`), starts an expression statement:
    after `;`, a brace, `else`, `do`, or the condition of `if`, `for`, `while` (`if (c) v = x;`).
    Not after a label (`case 0:`), which the kernels do not use."""
    tokens, token = sf.tokens, sf.tokens[index]
    if token.text != "*" and (token.kind != "identifier" or token.text in _STATEMENT_KEYWORDS):
        return False
    before = tokens[index - 1].text
    if before in _STATEMENT_STARTS or before in {"else", "do"}:
        return True
    if before != ")":
        return False
    keyword = sf.partner[index - 1] - 1
    return tokens[keyword].text in CONTROL_KEYWORDS or tokens[keyword].text == "constexpr"


def _assigned(sf, first, name, stored):
    """The right-hand sides that the expression statement starting at tokens[first] gives to
    `name` (stored: to an element `name[i]`): each `=` at its top level whose left-hand side,
    from the statement's start or the previous `=`, is that name or element. A chained store
    `values[i] = v = op(v, w);` gives `v = op(v, w)` to `values[i]` and `op(v, w)` to `v`."""
    tokens, end = sf.tokens, _statement_end(sf, first)
    if any(tokens[i].text == "{" for i in _top_level(sf, first, end - 1)):
        return  # a lambda or an initialiser list: no plain expression statement
    target = first
    for index in _top_level(sf, first, end - 1):
        if tokens[index].text != "=":
            continue
        if _names(sf, target, index - 1, name, stored):
            yield index + 1, end - 1
        target = index + 1


def _narrowed(sf, first, last):
    """Edits that make the expression tokens[first..last] `Out(In(expression))`: the value
    rounded or wrapped to In, as if accumulated in In, and converted back so no type changes."""
    tokens = sf.tokens
    return (
        (tokens[first].start, tokens[first].start, f"{_ACCUMULATOR}({_ELEMENT}("),
        (tokens[last].end, tokens[last].end, "))"),
    )


def _names(sf, first, last, name, stored):
    """Whether tokens[first..last] are `name` (stored: an element of it, `name[i]`)."""
    tokens = sf.tokens
    if tokens[first].text != name:
        return False
    if not stored:
        return first == last
    return tokens[first + 1].text == "[" and sf.partner[first + 1] == last


def _type_parameters(sf, index):
    """The names the templates around token `index` declare as type parameters: the enclosing
    functions' own templates and those of the class templates around them."""
    names, scope = set(), sf.scope_of[index]
    while scope is not None:
        if scope.kind in {"function", "class"}:
            names |= _head_type_parameters(sf, scope.open)
        scope = scope.parent
    return names


def _head_type_parameters(sf, brace):
    """The type parameters in the head of the declaration that `brace` opens: each `class` or
    `typename` whose name is followed by `,`, `>` or a default (`=`), as only in a template's
    parameter list (a class's own name is followed by `{`, `:` or `final`)."""
    tokens, names = sf.tokens, set()
    index = brace - 1
    while index >= 0 and tokens[index].text not in _STATEMENT_STARTS:
        if (
            tokens[index].text in {"class", "typename"}
            and tokens[index + 1].kind == "identifier"
            and tokens[index + 2].text in {",", ">", "="}
        ):
            names.add(tokens[index + 1].text)
        index = sf.partner.get(index, index) - 1 if tokens[index].text in {")", "]"} else index - 1
    return names


def _line_bounds(text, offset):
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return start, (len(text) if end == -1 else end)


def _statement_alone(sf, first, semicolon):
    """(line start, line end) if the statement tokens[first..semicolon] is alone on its line."""
    text = sf.text
    start, end = _line_bounds(text, sf.tokens[first].start)
    after = text[sf.tokens[semicolon].end : end].strip()
    if text[start : sf.tokens[first].start].strip() or (after and not after.startswith("//")):
        return None
    return start, end


def _barriers(sf):
    tokens = sf.tokens
    for index in _sites(sf, _BARRIERS):
        if tokens[index + 1].text != "(" or tokens[sf.partner[index + 1] + 1].text != ";":
            continue
        semicolon = sf.partner[index + 1] + 1
        line = _statement_alone(sf, index, semicolon)
        if line:
            yield Mutation("drop_barrier", "barrier", index, ((line[0], line[1] + 1, ""),))
        else:
            yield Mutation("drop_barrier", "barrier", index, ((tokens[index].start, tokens[semicolon - 1].end, ""),))
        if tokens[index].text == "__syncthreads":
            yield Mutation("syncthreads_to_syncwarp", "barrier", index, _replace(tokens[index], "__syncwarp"))
        if line:
            yield from _barrier_moves(sf, index, line)


def _barrier_moves(sf, index, line):
    """The barrier's line swapped with the line above or below, where that line is one whole
    statement, or the brace of a control block (moving the barrier out of the block)."""
    text = sf.text
    barrier_line = text[line[0] : line[1]]
    if line[0] > 0:
        above = _line_bounds(text, line[0] - 1)
        above_text = text[above[0] : above[1]].strip()
        above_prior = text[_line_bounds(text, above[0] - 1)[0] : above[0]].strip() if above[0] > 0 else ";"
        whole = above_text.endswith(";") and above_prior[-1:] in {";", "{", "}"}
        if whole or (above_text.endswith("{") and _opens_control(sf, above[1])):
            edit = (above[0], line[1], barrier_line + "\n" + text[above[0] : above[1]])
            yield Mutation("barrier_up", "barrier", index, (edit,))
    if line[1] < len(text):
        below = _line_bounds(text, line[1] + 1)
        below_text = text[below[0] : below[1]].strip()
        if (
            below_text.endswith(";")
            and not below_text.startswith(("//", "#", "}"))
            and not any(below_text.startswith(b) for b in _BARRIERS)
        ) or (below_text == "}" and _closes_control(sf, below[0])):
            edit = (line[0], below[1], text[below[0] : below[1]] + "\n" + barrier_line)
            yield Mutation("barrier_down", "barrier", index, (edit,))


def _token_at(sf, offset, last_before):
    """The index of the last token ending at or before `offset` (last_before) or the first
    starting at or after it."""
    indices = [i for i, t in enumerate(sf.tokens) if (t.end <= offset if last_before else t.start >= offset)]
    return indices[-1] if last_before else indices[0]


def _opens_control(sf, line_end):
    brace = _token_at(sf, line_end, last_before=True)
    return sf.tokens[brace].text == "{" and sf.scope_of[brace].kind == "control"


def _closes_control(sf, line_start):
    brace = _token_at(sf, line_start, last_before=False)
    return sf.tokens[brace].text == "}" and sf.scope_of[brace].kind == "control"


def _thread_indices(sf):
    """threadIdx.x, blockIdx.x, blockDim.x, gridDim.x plus one, swapped with their counterpart
    (thread with block index, block with grid size), and the sizes minus one (an index minus one
    is out of range at once for thread or block 0: a mutant any test kills)."""
    tokens = sf.tokens
    for index in _sites(sf, _BUILTIN_INDICES):
        if index + 2 >= len(tokens) or tokens[index + 1].text != "." or tokens[index + 2].text != "x":
            continue
        span = (tokens[index].start, tokens[index + 2].end)
        original = sf.text[span[0] : span[1]]
        yield Mutation("index_plus_1", "thread_index", index, ((*span, f"({original} + 1)"),))
        if tokens[index].text in {"blockDim", "gridDim"}:
            yield Mutation("index_minus_1", "thread_index", index, ((*span, f"({original} - 1)"),))
        yield Mutation(
            "index_swap", "thread_index", index, _replace(tokens[index], _BUILTIN_INDICES[tokens[index].text])
        )


def _appended(sf, first, last, suffix):
    """Edits that append `suffix` (" - 1") to the expression tokens[first..last], in parentheses
    unless it is one token."""
    if first == last:
        return ((sf.tokens[last].end, sf.tokens[last].end, suffix),)
    return (
        (sf.tokens[first].start, sf.tokens[first].start, "("),
        (sf.tokens[last].end, sf.tokens[last].end, ")" + suffix),
    )


def _shared_arrays(sf):
    tokens = sf.tokens
    for index in _sites(sf, {"__shared__"}):
        end = index
        while tokens[end].text not in {";", "["}:
            end += 1
        if tokens[end].text == "[" and sf.partner[end] > end + 1:
            yield Mutation(
                "shared_array_minus_1", "shared_memory", index, _appended(sf, end + 1, sf.partner[end] - 1, " - 1")
            )


def _dynamic_shared(sf):
    """One element less of dynamic shared memory: the byte counts computed by functions and
    variables named for shared memory, when they end in a sizeof of the element."""
    tokens = sf.tokens
    for index in _sites(sf, {"return", "="}):
        if tokens[index].text == "return":
            if "shared" not in sf.function_of(index):
                continue
        elif "shared" not in tokens[index - 1].text:
            continue
        end = index + 1
        while tokens[end].text != ";":
            end = sf.partner[end] + 1 if end in sf.partner else end + 1
        top = list(_top_level(sf, index + 1, end - 1))
        sizeofs = [i for i in top if tokens[i].text == "sizeof"]
        if not sizeofs or any(tokens[i].text == "?" for i in top):
            continue
        element = sf.text_of(sizeofs[-1], sf.partner[sizeofs[-1] + 1])
        yield Mutation(
            "dynamic_shared_minus_1",
            "shared_memory",
            index,
            ((tokens[end - 1].end, tokens[end - 1].end, f" - {element}"),),
        )


def _volatile(sf):
    for index in _sites(sf, {"volatile"}):
        token = sf.tokens[index]
        yield Mutation("drop_volatile", "volatile", index, ((token.start, token.end + int(token.space_after), ""),))


def _atomics(sf):
    tokens = sf.tokens
    for index in _sites(sf, set(_ATOMIC_FUNCTIONS) | set(_ATOMIC_METHODS)):
        if tokens[index + 1].text != "(":
            continue
        close_paren = sf.partner[index + 1]
        args = [sf.text_of(a, b) for a, b in split_arguments(tokens, index + 2, close_paren - 1)]
        name = tokens[index].text
        if name in _ATOMIC_FUNCTIONS and len(args) == 2:
            pointer, value = args
            rmw = (
                f"[&] {{ const auto old_value = *({pointer}); *({pointer}) = old_value {_ATOMIC_FUNCTIONS[name]} "
                f"({value}); return old_value; }}()"
            )
            yield Mutation("atomic_to_plain", "atomic", index, ((tokens[index].start, tokens[close_paren].end, rmw),))
        elif (
            name in _ATOMIC_METHODS
            and tokens[index - 1].text == "."
            and tokens[index - 2].kind == "identifier"
            and tokens[index - 3].text not in {".", "->", "::"}
        ):
            target = tokens[index - 2].text
            order = f", {args[1]}" if len(args) > 1 else ""
            rmw = (
                f"[&] {{ const auto old_value = {target}.load(cuda::memory_order_relaxed); "
                f"{target}.exchange(old_value {_ATOMIC_METHODS[name]} ({args[0]}){order}); return old_value; }}()"
            )
            yield Mutation(
                "atomic_to_plain", "atomic", index - 2, ((tokens[index - 2].start, tokens[close_paren].end, rmw),)
            )


def _memory_orders(sf):
    tokens = sf.tokens
    for index in _sites(sf, _STRONG_ORDERS | _WIDE_SCOPES | {"memory_order"}):
        text = tokens[index].text
        if text in _STRONG_ORDERS:
            yield Mutation("order_to_relaxed", "memory_order", index, _replace(tokens[index], "memory_order_relaxed"))
        elif text in _WIDE_SCOPES:
            yield Mutation("scope_to_block", "memory_order", index, _replace(tokens[index], "thread_scope_block"))
        elif (
            index + 2 < len(tokens)
            and tokens[index + 1].text == "::"
            and tokens[index + 2].text in {"acquire", "release", "acq_rel", "seq_cst"}
        ):
            yield Mutation("order_to_relaxed", "memory_order", index, _replace(tokens[index + 2], "relaxed"))


def _launch_shapes(sf):
    tokens = sf.tokens
    for index in _sites(sf, {"launch_kernel"}):
        if tokens[index + 1].text != "(" or tokens[index - 1].text == "void":
            continue  # the definition, not a launch
        args = split_arguments(tokens, index + 2, sf.partner[index + 1] - 1)
        for position, (step, what) in ((2, (1, "grid")), (3, (32, "block"))):
            first, last = args[position]
            size = "1" if what == "grid" else "warp"
            yield Mutation(f"{what}_plus_{size}", "launch_shape", first, _appended(sf, first, last, f" + {step}"))
            yield Mutation(f"{what}_minus_{size}", "launch_shape", first, _appended(sf, first, last, f" - {step}"))


def _index_widths(sf):
    tokens = sf.tokens
    narrower = {"uint64_t": "uint32_t", "int64_t": "int32_t"}
    for index in _sites(sf, set(narrower) | {"long"}):
        if not sf.is_device(index):
            continue
        text = tokens[index].text
        if text in narrower:
            yield Mutation("index_to_32_bits", "index_width", index, _replace(tokens[index], narrower[text]))
        elif tokens[index + 1].text == "long" and tokens[index - 1].text != "long":
            unsigned = tokens[index - 1].text == "unsigned"
            first = index - 1 if unsigned else index
            yield Mutation(
                "index_to_32_bits",
                "index_width",
                first,
                ((tokens[first].start, tokens[index + 1].end, "unsigned" if unsigned else "int"),),
            )
