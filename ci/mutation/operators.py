"""The mutation operators: the sites each takes in a parsed file, and why, are in docs/mutation.md."""

import re
from collections import namedtuple

from source_tree import CONTROL, arguments, enclosing, top_level, walk

# The conventional classes, then the GPU's (from barrier on).
CLASSES = ["relational", "loop_boundary", "arithmetic", "constant", "bounds_check", "logical", "operand_order",
           "accumulator_width", "barrier", "thread_index", "shared_memory", "volatile", "atomic", "memory_order",
           "launch_shape", "index_width"]  # fmt: skip

# operator: (mutation, replacement, class)
_SWAPS = {
    "<": ("lt_to_le", "<=", "relational"), "<=": ("le_to_lt", "<", "relational"),
    ">": ("gt_to_ge", ">=", "relational"), ">=": ("ge_to_gt", ">", "relational"),
    "==": ("eq_to_ne", "!=", "relational"), "!=": ("ne_to_eq", "==", "relational"),
    "&&": ("and_to_or", "||", "logical"), "||": ("or_to_and", "&&", "logical"),
    "+": ("add_to_sub", "-", "arithmetic"), "-": ("sub_to_add", "+", "arithmetic"),
    "+=": ("add_assign_to_sub", "-=", "arithmetic"), "-=": ("sub_assign_to_add", "+=", "arithmetic"),
}  # fmt: skip
_ORDERING = {"<", "<=", ">", ">="}
_BARRIERS = {"__syncthreads", "__syncwarp", "__threadfence", "__threadfence_block", "__threadfence_system"}
_BARRIER_PREFIXES = tuple(b.encode() for b in _BARRIERS)
_BUILTIN_INDICES = {"threadIdx": "blockIdx", "blockIdx": "threadIdx", "blockDim": "gridDim", "gridDim": "blockDim"}
_ATOMIC_FUNCTIONS = {"atomicAdd": "+", "atomicSub": "-", "atomicAnd": "&", "atomicOr": "|", "atomicXor": "^"}
_ATOMIC_METHODS = {"fetch_add": "+", "fetch_sub": "-", "fetch_and": "&", "fetch_or": "|", "fetch_xor": "^"}
_STRONG_ORDERS = {"memory_order_acquire", "memory_order_release", "memory_order_acq_rel", "memory_order_seq_cst"}
_WIDE_SCOPES = {"thread_scope_device", "thread_scope_system"}
_INTEGER = re.compile(r"^(0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)([uUlL]*)$")
_EXITS = {"return_statement", "break_statement", "continue_statement"}
_NAME_AND_VALUE = {"init_declarator": ("declarator", "value"), "assignment_expression": ("left", "right")}
_FUNCTOR = "op"  # the name the kernels give their binary-op functor object
_ACCUMULATOR, _ELEMENT = "Out", "In"  # the reductions' accumulator and element type parameters


# operator: part of the id (lt_to_le); anchor: the node naming line and function; edits: disjoint (start, end, text).
Mutation = namedtuple("Mutation", "operator op_class anchor edits")


def find_mutations(src):
    """Every mutation of every operator in one file."""
    finders = [_swapped_operators, _arithmetic, _constants, _bounds_checks, _swapped_operands,
               _narrowed_accumulators, _barriers, _thread_indices, _shared_arrays, _dynamic_shared, _volatile,
               _atomics, _memory_orders, _launch_shapes, _index_widths]  # fmt: skip
    return [mutation for finder in finders for mutation in finder(src)]


def _replace(node, text):
    return ((node.start_byte, node.end_byte, text),)


def _operator(node):
    operator = node.child_by_field_name("operator")
    return operator.type if operator is not None else None


def _binaries(src, operators):
    return [n for n in src.of_type("binary_expression") if _operator(n) in operators]


def _in_loop_header(node, top_only):
    """Whether `node` is in a loop's header; with `top_only`, in its condition's top-level chain."""
    child, parent = node, node.parent
    while parent is not None and parent.type not in {"compound_statement", "function_definition"}:
        if parent.type == "for_statement":
            condition = parent.child_by_field_name("condition")
            return child == condition if top_only else child != parent.child_by_field_name("body")
        if parent.type in ("while_statement", "do_statement") and parent.child_by_field_name("condition") == child:
            return True
        if top_only and parent.type not in ("binary_expression", "condition_clause"):
            return False
        child, parent = parent, parent.parent
    return False


def _swapped_operators(src):
    """Relational, logical and additive operators swapped; `+=`, `-=` but in loop headers."""
    assignments = [n for n in src.of_type("assignment_expression") if _operator(n) in {"+=", "-="}]
    for node in _binaries(src, _SWAPS) + [n for n in assignments if not _in_loop_header(n, top_only=False)]:
        operator = node.child_by_field_name("operator")
        name, replacement, op_class = _SWAPS[operator.type]
        if operator.type in _ORDERING and _in_loop_header(node, top_only=True):
            if operator.type == ">" and node.child_by_field_name("right").text == b"0":
                continue  # `> 0` widened in a loop never ends: it would measure only the timeout
            name, op_class = "loop_" + name, "loop_boundary"
        yield Mutation(name, op_class, node, _replace(operator, replacement))


def _arithmetic(src):
    """Integer factors and divisors made 1 (2 where they are 1)."""
    for node in _binaries(src, {"*", "/"}):
        for side in ["right"] if _operator(node) == "/" else ["left", "right"]:
            literal = node.child_by_field_name(side)
            parsed = _INTEGER.match(src.text(literal)) if literal.type == "number_literal" else None
            if parsed:
                value = "2" if int(parsed.group(1), 0) == 1 else "1"
                name = "mul_constant" if _operator(node) == "*" else "div_constant"
                yield Mutation(name, "arithmetic", literal, _replace(literal, value + parsed.group(2)))


def _constants(src):
    for node in src.of_type("number_literal"):
        parsed = _INTEGER.match(src.text(node))
        if not parsed:
            continue
        digits, suffix = parsed.groups()
        value, hexadecimal = int(digits, 0), digits[:2].lower() == "0x"
        for name, new_value in (("const_plus_1", value + 1), ("const_minus_1", value - 1)):
            if new_value < 0 or (hexadecimal and new_value.bit_length() > 4 * (len(digits) - 2)):
                continue
            text = f"0x{new_value:x}" if hexadecimal else str(new_value)
            yield Mutation(name, "constant", node, _replace(node, text + suffix))


def _compact(node):
    return b"".join(node.text.split())


def _guards(comparison, body):
    """Whether `body` indexes or calls with an operand of `comparison`: a bounds check, not a value test."""
    operands = [_compact(comparison.prev_named_sibling), _compact(comparison.next_named_sibling)]
    indexed = [_compact(n)[1:-1] for n in walk(body) if n.type in ("subscript_argument_list", "argument_list")]
    return any(operand and operand in group for operand in operands for group in indexed)


def _exits(statement):
    """Whether `statement` (or its block's first statement) is a short return, break or continue."""
    if statement.type == "compound_statement":
        statement = next((c for c in statement.named_children if c.type != "comment"), statement)
    return statement.type in _EXITS and statement.child_count <= 3 and all(c.child_count == 0 for c in statement.children)


def _bounds_checks(src):
    for node in src.of_type("if_statement"):
        if any(c.type == "constexpr" for c in node.children):
            continue  # a compile-time choice, not a bounds check
        condition = node.child_by_field_name("condition").child_by_field_name("value")
        if condition is None or any(c.type == "||" for c in top_level(condition, {"&&", "||"})):
            continue
        conjuncts = [c for c in top_level(condition, {"&&"}) if c.type != "&&"]
        body = node.child_by_field_name("consequence")
        exits = _exits(body)
        for conjunct in conjuncts:
            comparison = next((n for n in top_level(conjunct) if n.type in _ORDERING), None)
            if comparison is not None and (exits or _guards(comparison, body)):
                removed = "false" if exits and len(conjuncts) == 1 else "true"
                yield Mutation("drop_bounds_check", "bounds_check", conjunct, _replace(conjunct, removed))
    for node in src.of_type("conditional_expression"):
        condition = node.child_by_field_name("condition")
        if any(c.type in ("&&", "||") for c in top_level(condition)):
            continue
        comparison = next((n for n in top_level(condition) if n.type in _ORDERING), None)
        if comparison is not None and _guards(comparison, node.child_by_field_name("consequence")):
            yield Mutation("drop_bounds_check", "bounds_check", condition, _replace(condition, "true"))


def _calls(src, names):
    """The calls of plain functions named in `names`."""
    for node in src.of_type("call_expression"):
        function = node.child_by_field_name("function")
        if function.type == "identifier" and src.text(function) in names:
            yield node, src.text(function)


def _swapped_operands(src):
    """op(a, b) made op(b, a), in device code, where a and b differ."""
    for node, _ in _calls(src, {_FUNCTOR}):
        args = arguments(node)
        if src.is_device(node) and len(args) == 2 and _compact(args[0]) != _compact(args[1]):
            a, b = args
            edits = ((a.start_byte, a.end_byte, src.text(b)), (b.start_byte, b.end_byte, src.text(a)))
            yield Mutation("swap_operands", "operand_order", node, edits)


def _type_parameters(node):
    """The type parameters the templates around `node` declare."""
    names = set()
    while (node := enclosing(node, {"template_declaration"})) is not None:
        for parameter in node.child_by_field_name("parameters").named_children:
            if parameter.type in ("type_parameter_declaration", "optional_type_parameter_declaration"):
                names |= {c.text.decode() for c in parameter.named_children if c.type in ("identifier", "type_identifier")}
    return names


def _accumulator(declaration):
    """(name, stored) of one `Out` declared: a scalar takes values by `v = x`, an array by `p[i] = x`."""
    declarators = declaration.children_by_field_name("declarator")
    if len(declarators) != 1:
        return None
    declarator = declarators[0]
    if declarator.type == "init_declarator":
        if declarator.child_by_field_name("value").type in ("argument_list", "initializer_list"):
            return None
        declarator = declarator.child_by_field_name("declarator")
    stored = declarator.type in ("pointer_declarator", "array_declarator")
    if stored:
        declarator = declarator.child_by_field_name("declarator")
    return (declarator.text, stored) if declarator is not None and declarator.type == "identifier" else None


def _names(target, name, stored):
    if not stored:
        return target.type == "identifier" and target.text == name
    return target.type == "subscript_expression" and target.child_by_field_name("argument").text == name


def _narrowed_accumulators(src):
    """Each value an `Out` accumulator takes made `Out(In(value))`: In's rounding, and no type change."""
    for declaration in src.of_type("declaration"):
        type_node = declaration.child_by_field_name("type")
        if type_node is None or type_node.text != _ACCUMULATOR.encode() or not src.is_device(declaration):
            continue
        accumulator = _accumulator(declaration)
        if accumulator is None or not {_ELEMENT, _ACCUMULATOR} <= _type_parameters(declaration):
            continue
        init = next((c for c in declaration.named_children if c.type == "init_declarator"), None)
        values = [init.child_by_field_name("value")] if init is not None and not accumulator[1] else []
        stack = [s for s in declaration.parent.children if s.start_byte > declaration.end_byte]
        while stack:
            node = stack.pop()
            if node.type == "expression_statement":
                expression = node.named_children[0] if node.named_children else None
                while expression is not None and expression.type == "assignment_expression" and _operator(
                    expression) == "=":  # fmt: skip
                    right = expression.child_by_field_name("right")
                    if _names(expression.child_by_field_name("left"), *accumulator):
                        values.append(right)
                    expression = right
            elif node.type == "for_statement":  # its header assigns no value of the block's
                stack.append(node.child_by_field_name("body"))
            elif node.type != "lambda_expression":
                stack.extend(node.children)
        if values:
            edits = tuple(e for v in values for e in ((v.start_byte, v.start_byte, "Out(In("), (v.end_byte, v.end_byte, "))")))
            yield Mutation("narrow_accumulator", "accumulator_width", declaration, tuple(sorted(edits)))


def _line_bounds(data, offset):
    start = data.rfind(b"\n", 0, offset) + 1
    end = data.find(b"\n", offset)
    return start, (len(data) if end == -1 else end)


def _control_brace(src, offset, opening):
    """Whether the brace at `offset` opens (closes) the block of a control statement."""
    brace = src.root.descendant_for_byte_range(offset, offset + 1)
    block = brace.parent if brace is not None and brace.type == ("{" if opening else "}") else None
    return block is not None and block.type == "compound_statement" and block.parent.type in CONTROL


def _barriers(src):
    data = src.data
    for node, name in _calls(src, _BARRIERS):
        statement = node.parent
        if statement.type != "expression_statement":
            continue
        start, end = _line_bounds(data, statement.start_byte)
        after = data[statement.end_byte : end].strip()
        alone = not data[start : statement.start_byte].strip() and (not after or after.startswith(b"//"))
        drop = (start, end + 1, "") if alone else (statement.start_byte, statement.end_byte, "")
        yield Mutation("drop_barrier", "barrier", node, (drop,))
        if name == "__syncthreads":
            yield Mutation("syncthreads_to_syncwarp", "barrier", node, _replace(node.child_by_field_name("function"), "__syncwarp"))
        if alone:
            yield from _barrier_moves(src, node, (start, end))


def _barrier_moves(src, node, line):
    """The barrier's line swapped with a whole statement's or a control block's brace above or below."""
    data, barrier = src.data, src.data[line[0] : line[1]].decode()
    if line[0] > 0:
        above = _line_bounds(data, line[0] - 1)
        text = data[above[0] : above[1]].strip()
        prior = data[_line_bounds(data, above[0] - 1)[0] : above[0]].strip() if above[0] > 0 else b";"
        whole = text.endswith(b";") and prior[-1:] in (b";", b"{", b"}")
        if whole or (text.endswith(b"{") and _control_brace(src, data.rindex(b"{", above[0], above[1]), True)):
            edit = (above[0], line[1], barrier + "\n" + data[above[0] : above[1]].decode())
            yield Mutation("barrier_up", "barrier", node, (edit,))
    if line[1] < len(data):
        below = _line_bounds(data, line[1] + 1)
        text = data[below[0] : below[1]].strip()
        statement = text.endswith(b";") and not text.startswith((b"//", b"#", b"}", *_BARRIER_PREFIXES))
        if statement or (text == b"}" and _control_brace(src, data.index(b"}", below[0]), False)):
            edit = (line[0], below[1], data[below[0] : below[1]].decode() + "\n" + barrier)
            yield Mutation("barrier_down", "barrier", node, (edit,))


def _thread_indices(src):
    """threadIdx.x and the like plus one, swapped with their counterpart, and sizes minus one."""
    for node in src.of_type("field_expression"):
        base, field = node.child_by_field_name("argument"), node.child_by_field_name("field")
        if base.type != "identifier" or src.text(base) not in _BUILTIN_INDICES or field.text != b"x":
            continue
        original = src.text(node)
        yield Mutation("index_plus_1", "thread_index", node, _replace(node, f"({original} + 1)"))
        if src.text(base) in {"blockDim", "gridDim"}:
            yield Mutation("index_minus_1", "thread_index", node, _replace(node, f"({original} - 1)"))
        yield Mutation("index_swap", "thread_index", node, _replace(base, _BUILTIN_INDICES[src.text(base)]))


def _appended(node, suffix):
    """Edits that append `suffix` (" - 1") to the expression `node`, in parentheses unless a leaf."""
    if node.child_count == 0:
        return ((node.end_byte, node.end_byte, suffix),)
    return ((node.start_byte, node.start_byte, "("), (node.end_byte, node.end_byte, ")" + suffix))


def _shared_arrays(src):
    for declaration in src.of_type("declaration"):
        if not any(c.type == "type_qualifier" and c.text == b"__shared__" for c in declaration.children):
            continue
        nested = [declaration.child_by_field_name("declarator")]  # outermost first; the first dimension last
        while nested[-1] is not None and nested[-1].type == "array_declarator":
            nested.append(nested[-1].child_by_field_name("declarator"))
        size = nested[-2].child_by_field_name("size") if len(nested) > 1 else None
        if size is not None:
            yield Mutation("shared_array_minus_1", "shared_memory", declaration, _appended(size, " - 1"))


def _dynamic_shared(src):
    """One element less of the byte counts, ending in a sizeof, of what is named for shared memory."""
    for node in src.of_type("return_statement", "init_declarator", "assignment_expression"):
        if node.type == "return_statement":  # of a function named for shared memory
            value, named = (node.named_children or [None])[0], src.function_of(node)
        else:
            name, value = (node.child_by_field_name(f) for f in _NAME_AND_VALUE[node.type])
            named = src.text(name)
        if value is None or "shared" not in named or _operator(node) not in ("=", None):
            continue
        top = top_level(value)
        sizeofs = [n for n in top if n.type == "sizeof_expression"]
        if sizeofs and not any(n.type == "conditional_expression" for n in top):
            edit = (value.end_byte, value.end_byte, f" - {src.text(sizeofs[-1])}")
            yield Mutation("dynamic_shared_minus_1", "shared_memory", node, (edit,))


def _volatile(src):
    for node in src.of_type("volatile"):  # a qualifier, or `asm volatile`
        if node.text == b"volatile":
            end = node.end_byte + (src.data[node.end_byte : node.end_byte + 1] == b" ")
            yield Mutation("drop_volatile", "volatile", node, ((node.start_byte, end, ""),))


def _atomics(src):
    """atomicAdd(p, v) and a.fetch_add(v) made a load then a store: other threads' updates get lost."""
    for node in src.of_type("call_expression"):
        function, args = node.child_by_field_name("function"), [src.text(a) for a in arguments(node)]
        field = function.child_by_field_name("field") if function.type == "field_expression" else None
        target = function.child_by_field_name("argument") if field is not None else None
        if function.type == "identifier" and src.text(function) in _ATOMIC_FUNCTIONS and len(args) == 2:
            load, operator = f"*({args[0]})", _ATOMIC_FUNCTIONS[src.text(function)]
            store = f"{load} = old_value {operator} ({args[1]})"
        elif field is not None and src.text(field) in _ATOMIC_METHODS and target.type == "identifier":
            load = f"{src.text(target)}.load(cuda::memory_order_relaxed)"
            operator = _ATOMIC_METHODS[src.text(field)]
            order = f", {args[1]}" if len(args) > 1 else ""
            store = f"{src.text(target)}.exchange(old_value {operator} ({args[0]}){order})"
        else:
            continue
        rmw = f"[&] {{ const auto old_value = {load}; {store}; return old_value; }}()"
        yield Mutation("atomic_to_plain", "atomic", node, _replace(node, rmw))


def _memory_orders(src):
    for node in src.of_type("identifier", "type_identifier", "namespace_identifier"):
        text = src.text(node)
        if text in _STRONG_ORDERS:
            yield Mutation("order_to_relaxed", "memory_order", node, _replace(node, "memory_order_relaxed"))
        elif text in _WIDE_SCOPES:
            yield Mutation("scope_to_block", "memory_order", node, _replace(node, "thread_scope_block"))
        elif text in {"acquire", "release", "acq_rel", "seq_cst"} and node.parent.type == "qualified_identifier":
            scope = node.parent.child_by_field_name("scope")
            if scope is not None and scope.text == b"memory_order":
                yield Mutation("order_to_relaxed", "memory_order", node, _replace(node, "relaxed"))


def _launch_shapes(src):
    """The grid and block arguments of every launch_kernel() call, one block or one warp off."""
    for node, _ in _calls(src, {"launch_kernel"}):
        args = arguments(node)
        if len(args) < 4:
            continue
        for argument, step, what, size in ((args[2], 1, "grid", "1"), (args[3], 32, "block", "warp")):
            yield Mutation(f"{what}_plus_{size}", "launch_shape", argument, _appended(argument, f" + {step}"))
            yield Mutation(f"{what}_minus_{size}", "launch_shape", argument, _appended(argument, f" - {step}"))


def _index_widths(src):
    """64-bit integers made 32-bit in device code (host code sizes grids in 64 bits on purpose)."""
    narrower = {"uint64_t": "uint32_t", "int64_t": "int32_t"}
    for node in src.of_type("identifier", "type_identifier", "primitive_type"):
        if src.text(node) in narrower and src.is_device(node):
            yield Mutation("index_to_32_bits", "index_width", node, _replace(node, narrower[src.text(node)]))
    for node in src.of_type("sized_type_specifier"):
        words = [c for c in node.children if c.type in ("unsigned", "long", "signed")]
        longs = [c for c in words if c.type == "long"]
        if len(longs) == 2 and src.is_device(node):
            edit = (words[0].start_byte, longs[1].end_byte, "unsigned" if words[0].type == "unsigned" else "int")
            yield Mutation("index_to_32_bits", "index_width", node, (edit,))
