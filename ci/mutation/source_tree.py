"""A kernel source parsed by tree-sitter's CUDA grammar: touchable nodes, device code, functions."""

import python_deps  # noqa: F401  (before the parser's packages)
import tree_sitter
import tree_sitter_cuda

_PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_cuda.language()))
# Compile-time declarations and the variants' records, whose mutants test nothing of the kernels.
_UNTOUCHABLE = {"comment", "string_literal", "char_literal", "raw_string_literal", "system_lib_string", "ERROR",
                "preproc_include", "preproc_def", "preproc_function_def", "preproc_call", "template_parameter_list",
                "static_assert_declaration", "launch_bounds", "alignas_qualifier"}  # fmt: skip
# Functions that tell the tests what to ask (the contract), not how the kernels answer.
CONTRACT_FUNCTIONS = {"accumulation_depth", "tile_depth", "tile_size", "max_length"}
CONTROL = {"if_statement", "for_statement", "for_range_loop", "while_statement", "do_statement", "else_clause",
           "switch_statement", "catch_clause", "try_statement"}  # fmt: skip
NAMES = {"identifier", "type_identifier", "field_identifier", "namespace_identifier"}


class Source:
    def __init__(self, path, text):
        self.path, self.data = path, text.encode("utf-8")
        self.root = _PARSER.parse(self.data).root_node
        self.nodes = list(self._touchable(self.root))

    def _touchable(self, node):
        """Every node in source order that no untouchable region covers."""
        stack = [node]
        while stack:
            node = stack.pop()
            contract = node.type == "function_definition" and function_name(node) in CONTRACT_FUNCTIONS
            if node.type in _UNTOUCHABLE or _is_untouchable_call(node) or contract:
                continue
            preproc = node.type in ("preproc_if", "preproc_ifdef", "preproc_elif")  # its condition is no code
            skipped = (node.child_by_field_name("condition"), node.child_by_field_name("name")) if preproc else ()
            yield node
            stack.extend(reversed([c for c in node.children if c not in skipped]))

    def of_type(self, *types):
        return [node for node in self.nodes if node.type in types]

    def text(self, node):
        return node.text.decode("utf-8")

    def line(self, node):
        return node.start_point[0] + 1

    def function_of(self, node):
        """The name of the function whose body holds `node`, or ""."""
        holder = enclosing(node, {"function_definition"})
        return function_name(holder) if holder else ""

    def is_device(self, node):
        """Whether `node` is in a __device__ or __global__ function (a lambda: its function's)."""
        holder = enclosing(node, {"function_definition"})
        if holder is None or not holder.child_by_field_name("body").start_byte <= node.start_byte:
            return False  # host code, or a device function's signature
        return any(c.type in ("__device__", "__global__") for c in holder.children)


def _is_untouchable_call(node):
    """register_variant(...) holds a variant's record; __align__(...) a compile-time choice."""
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    return function is not None and function.text in (b"register_variant", b"__align__", b"alignas")


def enclosing(node, types):
    node = node.parent
    while node is not None and node.type not in types:
        node = node.parent
    return node


def function_name(definition):
    """The name a function_definition declares (the last part of a qualified one)."""
    declarator = definition.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in NAMES | {"qualified_identifier", "operator_name"}:
        declarator = declarator.child_by_field_name("declarator")
    if declarator is None:
        return ""
    while declarator.type == "qualified_identifier":
        declarator = declarator.child_by_field_name("name")
    return declarator.text.decode("utf-8")


def walk(node):
    """Every node under `node`, in source order."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def arguments(call):
    """The argument nodes of a call_expression."""
    listed = call.child_by_field_name("arguments")
    return [c for c in listed.named_children if c.type != "comment"] if listed else []


def top_level(node, operators=None):
    """The operands and operators of `node`'s chain of binary operators (of `operators` only), unbracketed."""
    if node.type != "binary_expression":
        return [node]
    operator = node.child_by_field_name("operator")
    if operators is not None and operator.type not in operators:
        return [node]
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    return top_level(left, operators) + [operator] + top_level(right, operators)
