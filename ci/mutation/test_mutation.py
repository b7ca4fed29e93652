#!/usr/bin/env python3
"""CPU test of the mutation tool (ctest cpu.mutation.<class>): every operator on a fixture file, the
generator over today's kernels/, the runner's selection, the JUnit reader on a file ctest wrote and
on live ctest runs, the lines an edit changed (--changed-since), the catalogue's patches and how its kills are judged and reproduced, and the
report on synthetic results. Needs `patch`; the plot needs matplotlib (skipped without it)."""

import argparse
import contextlib
import ctypes
import difflib
import glob
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import types
import unittest
from unittest import mock
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict

import catalogue
import catalogue_run
import changed_lines
import ctest_junit
import ctest_runs
import rejudge
import report
import run_mutants
from cpp_structure import SourceFile
from cpp_tokens import tokenize
from generate import Mutant, apply_edits, generate, mutant_key, patch_name
from mutant_builds import BuildSlot, ObjectCache, source_digest
from shared_lock import SharedLock
from operators import CLASSES, find_mutations
from results_file import AnotherCampaign, ResultsFile, earlier_run, suite_digest
from run_mutants import (
    LARGE_STAGE,
    SANITIZER_STAGE,
    TESTS_STAGE,
    Campaign,
    Gpu,
    Lane,
    gpu_lanes,
    of_file,
    run_stages,
    select_pairs,
)
from variants import load_tree

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
FIXTURE = os.path.join(HERE, "testdata", "fixture.cu")

try:
    import matplotlib  # noqa: F401

    HAVE_MATPLOTLIB = True
except ImportError:
    # A machine that only runs a carried build may lack it; then only the plot goes untested.
    HAVE_MATPLOTLIB = False


def fixture_mutants():
    """(operator, op_class, original line, mutated lines) of every mutation of the fixture."""
    with open(FIXTURE, encoding="utf-8") as file:
        sf = SourceFile("fixture.cu", file.read())
    lines = sf.text.splitlines()
    result = []
    for mutation in find_mutations(sf):
        line = sf.tokens[mutation.anchor].line
        mutated = apply_edits(sf.text, mutation.edits).splitlines()
        result.append(
            (
                mutation.operator,
                mutation.op_class,
                lines[line - 1].strip(),
                [m.strip() for m in mutated if m.strip() not in {x.strip() for x in lines}],
            )
        )
    return result


def assert_patches_apply(test, patches):
    """Each (name, diff) applies exactly (no fuzz) to a fresh copy of today's kernels/ and test fixtures."""
    with tempfile.TemporaryDirectory() as copy:
        for part in ("kernels", "test/fixtures"):
            shutil.copytree(os.path.join(ROOT, part), os.path.join(copy, part))
        for name, diff in patches:
            result = subprocess.run(
                ["patch", "-p1", "--dry-run", "--fuzz=0", "--quiet"],
                input=diff,
                text=True,
                cwd=copy,
                capture_output=True,
                check=False,
            )
            test.assertEqual(result.returncode, 0, f"{name}: {result.stdout}{result.stderr}")


class Tokens(unittest.TestCase):
    def test_comments_literals_and_directives_are_opaque(self):
        tokens = tokenize('#include <a/b.h>\nx = "a < b" /* c < d */ + \'<\' + R"(<)"; // e < f\n')
        self.assertEqual(
            [t.kind for t in tokens],
            ["directive", "identifier", "punct", "literal", "punct", "literal", "punct", "literal", "punct"],
        )

    def test_spacing_tells_binary_operators_from_template_brackets(self):
        tokens = tokenize("static_cast<unsigned>(a < b)")
        angles = [t for t in tokens if t.text in {"<", ">"}]
        self.assertEqual([t.spaced for t in angles], [False, False, True])

    def test_launch_brackets_only_close_on_their_line(self):
        texts = [t.text for t in tokenize("k<<<g, b>>>(x);\nA<B<C<int>>> y;\n")]
        self.assertIn(">>>", texts[:8])
        self.assertNotIn(">>>", texts[8:])


class FixtureOperators(unittest.TestCase):
    """Each operator on the fixture: the mutant it must make, and what it must leave alone."""

    @classmethod
    def setUpClass(cls):
        cls.mutants = fixture_mutants()

    def assert_mutant(self, operator, original, mutated):
        candidates = [m for m in self.mutants if m[0] == operator and m[2] == original]
        self.assertTrue(
            any(mutated in m[3] for m in candidates),
            f"{operator} should turn {original!r} into {mutated!r}; it made {[m[3] for m in candidates]}",
        )

    def test_conventional_operators(self):
        self.assert_mutant("ge_to_gt", "if (i >= n) return;", "if (i > n) return;")
        self.assert_mutant(
            "lt_to_le", "cache[threadIdx.x] = i < n ? in[i] : 0;", "cache[threadIdx.x] = i <= n ? in[i] : 0;"
        )
        self.assert_mutant(
            "ne_to_eq", "if (wide != 0 || total < 0) cache[1] = 0;", "if (wide == 0 || total < 0) cache[1] = 0;"
        )
        self.assert_mutant(
            "loop_lt_to_le",
            "for (unsigned s = 1; s < gridDim.x; s *= 2) total += cache[s];",
            "for (unsigned s = 1; s <= gridDim.x; s *= 2) total += cache[s];",
        )
        self.assert_mutant(
            "sub_to_add", "const long long wide = total * 2 - 1;", "const long long wide = total * 2 + 1;"
        )
        self.assert_mutant(
            "mul_constant", "const long long wide = total * 2 - 1;", "const long long wide = total * 1 - 1;"
        )
        self.assert_mutant(
            "const_plus_1",
            "if (total > 3 && i == 0) atomicAdd(counter, 2u);",
            "if (total > 4 && i == 0) atomicAdd(counter, 2u);",
        )
        self.assert_mutant(
            "const_minus_1",
            "if (total > 3 && i == 0) atomicAdd(counter, 2u);",
            "if (total > 3 && i == 0) atomicAdd(counter, 1u);",
        )
        self.assert_mutant("drop_bounds_check", "if (i >= n) return;", "if (false) return;")
        self.assert_mutant(
            "drop_bounds_check", "cache[threadIdx.x] = i < n ? in[i] : 0;", "cache[threadIdx.x] = true ? in[i] : 0;"
        )
        self.assert_mutant(
            "and_to_or",
            "if (total > 3 && i == 0) atomicAdd(counter, 2u);",
            "if (total > 3 || i == 0) atomicAdd(counter, 2u);",
        )
        self.assert_mutant(
            "or_to_and", "if (wide != 0 || total < 0) cache[1] = 0;", "if (wide != 0 && total < 0) cache[1] = 0;"
        )
        self.assert_mutant(
            "swap_operands",
            "total = op(max(total, n), cache[i + 1]);",
            "total = op(cache[i + 1], max(total, n));",
        )
        self.assert_mutant(
            "narrow_accumulator", "Out* partial = dynamic_shared<Out>();", "partial[0] = Out(In(Out(*in)));"
        )
        self.assert_mutant(
            "narrow_accumulator", "const Out total = partial[0];", "const Out total = Out(In(partial[0]));"
        )

    def test_gpu_operators(self):
        self.assert_mutant("syncthreads_to_syncwarp", "__syncthreads();", "__syncwarp();")
        self.assert_mutant(
            "index_plus_1", "cache[threadIdx.x] = i < n ? in[i] : 0;", "cache[(threadIdx.x + 1)] = i < n ? in[i] : 0;"
        )
        self.assert_mutant(
            "index_minus_1",
            "for (unsigned s = 1; s < gridDim.x; s *= 2) total += cache[s];",
            "for (unsigned s = 1; s < (gridDim.x - 1); s *= 2) total += cache[s];",
        )
        self.assert_mutant(
            "index_swap",
            "for (unsigned s = 1; s < gridDim.x; s *= 2) total += cache[s];",
            "for (unsigned s = 1; s < blockDim.x; s *= 2) total += cache[s];",
        )
        self.assert_mutant(
            "shared_array_minus_1", "__shared__ volatile int cache[64];", "__shared__ volatile int cache[64 - 1];"
        )
        self.assert_mutant(
            "dynamic_shared_minus_1",
            "static std::size_t shared_bytes(int block) { return std::size_t(block) * sizeof(int); }",
            "static std::size_t shared_bytes(int block) { return std::size_t(block) * sizeof(int) - sizeof(int); }",
        )
        self.assert_mutant("drop_volatile", "__shared__ volatile int cache[64];", "__shared__ int cache[64];")
        self.assert_mutant(
            "atomic_to_plain",
            "if (total > 3 && i == 0) atomicAdd(counter, 2u);",
            "if (total > 3 && i == 0) [&] { const auto old_value = *(counter); "
            "*(counter) = old_value + (2u); return old_value; }();",
        )
        self.assert_mutant(
            "atomic_to_plain",
            "ticket.fetch_add(1u, cuda::memory_order_acq_rel);",
            "[&] { const auto old_value = ticket.load(cuda::memory_order_relaxed); "
            "ticket.exchange(old_value + (1u), cuda::memory_order_acq_rel); return old_value; }();",
        )
        self.assert_mutant(
            "order_to_relaxed",
            "ticket.fetch_add(1u, cuda::memory_order_acq_rel);",
            "ticket.fetch_add(1u, cuda::memory_order_relaxed);",
        )
        self.assert_mutant(
            "scope_to_block",
            "cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(*counter);",
            "cuda::atomic_ref<unsigned, cuda::thread_scope_block> ticket(*counter);",
        )
        launch = "launch_kernel(label, &fixture_kernel<4>, blocks, 256, shared_bytes(256), stream, in, counter, n);"
        self.assert_mutant("grid_plus_1", launch, launch.replace("blocks,", "blocks + 1,"))
        self.assert_mutant("block_minus_warp", launch, launch.replace(" 256,", " 256 - 32,"))
        self.assert_mutant(
            "index_to_32_bits",
            "const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;  // a < b in a comment",
            "const std::uint64_t i = std::uint32_t(blockIdx.x) * blockDim.x + threadIdx.x;  // a < b in a comment",
        )
        self.assert_mutant(
            "index_to_32_bits", "const long long wide = total * 2 - 1;", "const int wide = total * 2 - 1;"
        )

    def test_barriers_are_dropped_and_moved(self):
        dropped = [m for m in self.mutants if m[0] == "drop_barrier"]
        self.assertEqual(sorted(m[2] for m in dropped), ["__syncthreads();", "__threadfence();"])
        moved = {(m[0], m[2]) for m in self.mutants if m[0] in {"barrier_up", "barrier_down"}}
        self.assertEqual(
            moved,
            {
                ("barrier_up", "__syncthreads();"),
                ("barrier_down", "__syncthreads();"),
                ("barrier_up", "__threadfence();"),
                ("barrier_down", "__threadfence();"),
            },
        )

    def test_every_class_has_a_fixture_mutant(self):
        self.assertEqual(sorted({m[1] for m in self.mutants}), sorted(CLASSES))

    def test_untouchable_regions_stay_untouched(self):
        touched = {m[2] for m in self.mutants}
        for line in [
            "#include <cuda/atomic>",
            "#define FIXTURE_LIMIT (1 < 2)",
            "template <unsigned N = 4>",
            'static_assert(sizeof(int) == 4, "a < b in a literal");',
            "static std::uint64_t max_length(int block) { return block * 2; }",
        ]:
            self.assertNotIn(line, touched)
        self.assertFalse([m for m in self.mutants if "register_variant" in m[2]])
        self.assertFalse(
            [m for m in self.mutants if m[0].startswith("index_to_32") and "const std::uint64_t blocks" in m[2]],
            "host code keeps its 64-bit types",
        )
        self.assertFalse(
            [m for m in self.mutants if m[2].startswith("int total = static_cast<int>") and m[1] == "relational"]
        )
        self.assertEqual(
            sorted(m[2] for m in self.mutants if m[0] == "narrow_accumulator"),
            ["Out* partial = dynamic_shared<Out>();", "const Out total = partial[0];"],
            "a conversion, a parameter list and a cast keep Out",
        )


def mutated_lines(test, body, head, operator, op_class, anchor=None):
    """For each `operator` mutation of the function `head { body }`: the lines it changes, as it
    leaves them. Each must be of `op_class` and, with `anchor`, name that token's line."""
    sf = SourceFile("snippet.cu", f"{head} {{\n{body}\n}}\n")
    lines = sf.text.splitlines()
    result = []
    for mutation in find_mutations(sf):
        if mutation.operator != operator:
            continue
        test.assertEqual(mutation.op_class, op_class)
        if anchor is not None:
            test.assertEqual(sf.tokens[mutation.anchor].text, anchor, "the mutant names the declaration's line")
        mutated = apply_edits(sf.text, mutation.edits).splitlines()
        result.append([m.strip() for m, o in zip(mutated, lines) if m != o])
    return result


class OperandOrder(unittest.TestCase):
    """swap_operands on small sources: which `op` tokens are calls of the functor object."""

    def swaps(self, body, head="__device__ int f(const OpT& op, int a, int b, const int* c, int i)"):
        """The body's lines as each swap_operands mutation leaves them (the body's changed line)."""
        return sum(mutated_lines(self, body, head, "swap_operands", "operand_order"), [])

    def test_a_call_has_its_operands_swapped(self):
        self.assertEqual(self.swaps("  return op(a, b);"), ["return op(b, a);"])
        self.assertEqual(
            self.swaps("  return op(__shfl_sync(0xffffffffu, a, 0), b);"),
            ["return op(b, __shfl_sync(0xffffffffu, a, 0));"],
        )

    def test_nested_arguments_move_whole(self):
        self.assertEqual(self.swaps("  return op(f(a, b), c[i + 1]);"), ["return op(c[i + 1], f(a, b));"])
        self.assertEqual(
            self.swaps("  return op(op(a, b), c[i]);"), ["return op(c[i], op(a, b));", "return op(op(b, a), c[i]);"]
        )

    def test_identical_arguments_are_no_site(self):
        self.assertEqual(self.swaps("  return op(c[i], c[i]);"), [])
        self.assertEqual(self.swaps("  return op(c[ i ],c[i]);"), [])

    def test_declarations_and_members_are_no_site(self):
        self.assertEqual(self.swaps("  const OpT op;\n  return a;"), [])
        self.assertEqual(self.swaps("  const OpT op(a, b);\n  return a;"), [])
        self.assertEqual(self.swaps("  return x.op(a, b) + p->op(a, b) + N::op(a, b);"), [])
        self.assertEqual(self.swaps("  return b;", head="__device__ int op(int a, int b)"), [])
        definition = "struct SumOp {\n  __host__ __device__ int operator()(int a, int b) const { return a + b; }\n};\n"
        self.assertFalse([m for m in find_mutations(SourceFile("ops.cuh", definition)) if m.op_class == "operand_order"])

    def test_other_calls_and_other_arities_are_no_site(self):
        self.assertEqual(self.swaps("  return g(a, b);"), [])
        self.assertEqual(self.swaps("  return max(a, b) + fold(c, i, op);"), [])
        self.assertEqual(self.swaps("  return op(a, b, i);"), [])

    def test_device_code_only(self):
        self.assertEqual(self.swaps("  return op(a, b);", head="int f(const OpT& op, int a, int b)"), [])
        self.assertEqual(
            self.swaps("  return op(a, b);", head="__host__ __device__ int f(const OpT& op, int a, int b)"),
            ["return op(b, a);"],
        )
        self.assertEqual(
            self.swaps("  const auto g = [&](int x) { return op(x, a); };\n  return g(b);"),
            ["const auto g = [&](int x) { return op(a, x); };"],
        )


class AccumulatorWidth(unittest.TestCase):
    """narrow_accumulator on small sources: which declarations of `Out` are accumulators, and which
    of the values each takes are wrapped `Out(In(...))`."""

    KERNEL = "template <class OpT, class In, class Out>\n__global__ void k(const In* in, std::uint64_t n, Out* out)"

    def narrowed(self, body, head=KERNEL):
        """The body's changed lines as each narrow_accumulator mutation leaves them: one list a mutant."""
        return mutated_lines(self, body, head, "narrow_accumulator", "accumulator_width", anchor="Out")

    def test_a_scalar_takes_its_initialiser_narrowed(self):
        self.assertEqual(self.narrowed("  Out v = OpT::identity();"), [["Out v = Out(In(OpT::identity()));"]])
        self.assertEqual(
            self.narrowed("  Out v = i < n ? Out(in[i]) : OpT::identity();"),
            [["Out v = Out(In(i < n ? Out(in[i]) : OpT::identity()));"]],
        )
        self.assertEqual(self.narrowed("  const Out x = *out;"), [["const Out x = Out(In(*out));"]])
        self.assertEqual(self.narrowed("  Out const x = f<2, OpT>(in);"), [["Out const x = Out(In(f<2, OpT>(in)));"]])

    def test_and_each_later_assignment_with_it(self):
        body = (
            "  Out v = OpT::identity();\n"
            "  if (n > 1) v = op(v, Out(in[1]));\n"
            "  for (int i = 0; i < 2; ++i) {\n"
            "    v = f<2, OpT>(v, in);\n"
            "  }\n"
            "  if constexpr (sizeof(In) < 4) v = op(v, v); else v = g(v);\n"
            "  *out = v;"
        )
        self.assertEqual(
            self.narrowed(body),
            [
                [
                    "Out v = Out(In(OpT::identity()));",
                    "if (n > 1) v = Out(In(op(v, Out(in[1]))));",
                    "v = Out(In(f<2, OpT>(v, in)));",
                    "if constexpr (sizeof(In) < 4) v = Out(In(op(v, v))); else v = Out(In(g(v)));",
                ]
            ],
        )
        self.assertEqual(self.narrowed("  Out v;\n  v = *in;"), [["v = Out(In(*in));"]])
        self.assertEqual(self.narrowed("  Out v;\n  *out = v;"), [], "no value taken: no mutant")

    def test_each_declaration_is_one_mutant_over_its_block(self):
        body = "  Out a = 0;\n  if (n > 1) {\n    Out b = a;\n    b = op(b, a);\n  }\n  a = op(a, a);"
        self.assertEqual(
            self.narrowed(body),
            [
                ["Out a = Out(In(0));", "a = Out(In(op(a, a)));"],
                ["Out b = Out(In(a));", "b = Out(In(op(b, a)));"],
            ],
        )

    def test_a_buffer_takes_its_stores_narrowed(self):
        body = (
            "  Out* values = dynamic_shared<Out>();\n"
            "  values[threadIdx.x] = i < n ? Out(in[i]) : OpT::identity();\n"
            "  if (n > 1) values[0] = op(values[0], values[1]);\n"
            "  *out = values[0] == values[1] ? values[0] : Out(0);"
        )
        self.assertEqual(
            self.narrowed(body),
            [
                [
                    "values[threadIdx.x] = Out(In(i < n ? Out(in[i]) : OpT::identity()));",
                    "if (n > 1) values[0] = Out(In(op(values[0], values[1])));",
                ]
            ],
        )
        self.assertEqual(
            self.narrowed("  volatile Out* const p = dynamic_shared<Out>();\n  p[1] = *in;"), [["p[1] = Out(In(*in));"]]
        )
        self.assertEqual(
            self.narrowed("  __shared__ Out partial[32];\n  partial[threadIdx.x % 32] = Out(*in);"),
            [["partial[threadIdx.x % 32] = Out(In(Out(*in)));"]],
        )
        self.assertEqual(self.narrowed("  Out* values = dynamic_shared<Out>();\n  *out = values[0];"), [], "no store")

    def test_a_chained_store_narrows_each_target_apart(self):
        body = "  Out* values = dynamic_shared<Out>();\n  Out v = *in;\n  if (n > 1) values[0] = v = op(v, values[1]);"
        self.assertEqual(
            self.narrowed(body),
            [
                ["if (n > 1) values[0] = Out(In(v = op(v, values[1])));"],
                ["Out v = Out(In(*in));", "if (n > 1) values[0] = v = Out(In(op(v, values[1])));"],
            ],
        )
        self.assertEqual(
            self.narrowed("  Out v = 0;\n  *out = v = *in;"), [["Out v = Out(In(0));", "*out = v = Out(In(*in));"]]
        )

    def test_values_taken_otherwise_are_not_found(self):
        """See the module's docstring: compound assignments, for headers, stores through `*p`."""
        self.assertEqual(self.narrowed("  Out v = 0;\n  v += *in;\n  ++v;"), [["Out v = Out(In(0));"]])
        self.assertEqual(
            self.narrowed("  Out v = 0;\n  for (v = 1; v < n; v = v + 1) *out = v;"), [["Out v = Out(In(0));"]]
        )
        self.assertEqual(self.narrowed("  Out* p = dynamic_shared<Out>();\n  *p = *in;\n  p[0] += *in;"), [])
        self.assertEqual(
            self.narrowed("  Out v = 0;\n  s.v = 1;\n  w = v;\n  if (v == 0) *out = v;"), [["Out v = Out(In(0));"]]
        )

    def test_other_declarations_are_no_site(self):
        self.assertEqual(self.narrowed("  Out& r = *out;\n  r = *in;"), [], "a reference: stores to another object")
        self.assertEqual(self.narrowed("  Out const& r = *out;"), [])
        self.assertEqual(self.narrowed("  Out v(in[0]);\n  Out w{in[0]};"), [], "direct initialisation")
        self.assertEqual(self.narrowed("  Out a = 0, b = 1;"), [], "several declarators")
        self.assertEqual(self.narrowed("  Out** pp = &out;\n  pp[0] = out;"), [])
        self.assertEqual(
            self.narrowed("  for (Out s = 0; s < 2; ++s) *out += s;"), [], "a for header: not found (docstring)"
        )

    def test_conversions_parameters_arguments_and_casts_are_no_site(self):
        self.assertEqual(self.narrowed("  *out = Out(in[0]);"), [])
        self.assertEqual(self.narrowed("  Out(in[0]);"), [])
        self.assertEqual(self.narrowed("  launch(&k<OpT, In, Out>, sizeof(Out));"), [])
        self.assertEqual(self.narrowed("  auto* p = static_cast<Out*>(q);\n  p[0] = *in;"), [])
        self.assertEqual(self.narrowed("  using T = Out;\n  Out::flush();"), [])
        device_function = "template <class In, class Out>\n__device__ Out f(Out a, const In* in)"
        self.assertEqual(self.narrowed("  a = Out(*in);\n  return a;", head=device_function), [], "a parameter")

    def test_only_where_the_template_declares_in_and_out(self):
        without_in = "template <class OpT, class Out>\n__global__ void k(const int* in, Out* out)"
        self.assertEqual(self.narrowed("  Out v = OpT::identity();", head=without_in), [])
        untemplated = "using Out = long long;\n__global__ void k(const int* in, Out* out)"
        self.assertEqual(self.narrowed("  Out v = 0;", head=untemplated), [])
        member = "template <class In, class Out = In>\nstruct S {\n  __device__ void f(const In* in, Out* out)"
        self.assertEqual(self.narrowed("  Out v = *in;\n}", head=member), [["Out v = Out(In(*in));"]])

    def test_device_code_only(self):
        host = "template <class OpT, class In, class Out>\nvoid run(const In* in, Out* out)"
        self.assertEqual(self.narrowed("  Out v = *in;\n  Out* results = out;\n  results[0] = v;", head=host), [])
        both = "template <class OpT, class In, class Out>\n__host__ __device__ void f(const In* in, Out* out)"
        self.assertEqual(self.narrowed("  Out v = *in;", head=both), [["Out v = Out(In(*in));"]])
        self.assertEqual(
            self.narrowed("  const auto g = [&](int x) { Out w = in[x]; w = op(w, w); return w; };"),
            [["const auto g = [&](int x) { Out w = Out(In(in[x])); w = Out(In(op(w, w))); return w; };"]],
        )


class TodaysSources(unittest.TestCase):
    """The generator over the kernels/ of this checkout."""

    @classmethod
    def setUpClass(cls):
        cls.mutants, cls.skipped = generate(ROOT)

    def test_enough_mutants_over_enough_variants(self):
        variants = {v for m in self.mutants for v in m.variants}
        self.assertGreaterEqual(len(self.mutants), 300)
        self.assertGreaterEqual(len(variants), 25)

    def test_ids_are_unique(self):
        counts = Counter(m.id for m in self.mutants)
        self.assertEqual([i for i, n in counts.items() if n > 1], [])

    def test_every_patch_applies_cleanly_to_a_fresh_copy(self):
        assert_patches_apply(self, [(m.id, m.diff) for m in self.mutants])

    def test_ids_do_not_move_when_another_file_changes(self):
        changed = "kernels/scan/naive.cu"
        with tempfile.TemporaryDirectory() as copy:
            shutil.copytree(os.path.join(ROOT, "kernels"), os.path.join(copy, "kernels"))
            with open(os.path.join(copy, changed), encoding="utf-8") as file:
                text = file.read()
            with open(os.path.join(copy, changed), "w", encoding="utf-8") as file:
                file.write("// one more line\n" + text.replace("i >= n", "i >= n || n == 0"))
            again, _ = generate(copy)
        before = {m.id: m.diff for m in self.mutants if m.file != changed}
        after = {m.id: m.diff for m in again if m.file != changed}
        self.assertEqual(before, after)
        self.assertNotEqual(
            {m.id for m in self.mutants if m.file == changed}, {m.id for m in again if m.file == changed}
        )

    def test_generation_is_deterministic(self):
        again, _ = generate(ROOT)
        self.assertEqual(
            [(m.id, m.diff, m.variants) for m in self.mutants], [(m.id, m.diff, m.variants) for m in again]
        )

    def test_classes_present_in_the_code_have_mutants(self):
        # What each class mutates, found with a plain search independent of the generator.
        present = {
            "relational": r" (<|<=|>|>=|==|!=) ",
            "loop_boundary": r"for \(.*; .* (<|<=|>|>=) .*;",
            "arithmetic": r"\w (\+|-) \w",
            "constant": r"\b\d+\b",
            "bounds_check": r"if \(\w+ (<|>=) \w+\)",
            "logical": r" (&&|\|\|) ",
            "barrier": r"__sync(threads|warp)\(\)|__threadfence",
            "thread_index": r"threadIdx\.x",
            "shared_memory": r"__shared__ \w+ \w+\[",
            "volatile": r"\bvolatile\b(?!`)",
            "atomic": r"atomicAdd|fetch_add",
            "memory_order": r"memory_order_(acquire|release|acq_rel)",
            "launch_shape": r"launch_kernel\(",
            "index_width": r"std::uint64_t\(",
            "operand_order": r"\bop\(",
            "accumulator_width": r"\bOut\*? \w+ = ",
        }
        self.assertEqual(sorted(present), sorted(CLASSES))
        code = ""
        for folder, _, names in os.walk(os.path.join(ROOT, "kernels")):
            for name in names:
                if name.endswith((".cu", ".cuh")):
                    with open(os.path.join(folder, name), encoding="utf-8") as file:
                        code += "\n".join(
                            line for line in file.read().splitlines() if not line.lstrip().startswith("//")
                        )
        counts = Counter(m.op_class for m in self.mutants)
        for op_class, pattern in present.items():
            if re.search(pattern, code):
                self.assertGreater(counts[op_class], 0, op_class)

    def test_every_call_of_the_functor_has_its_swap(self):
        """Each line of a mutated file with a call `op(` outside comments has one swap_operands
        mutant, found with a plain search; the functors' definitions (detail/ops.cuh) have none."""
        swapped = Counter((m.file, m.line) for m in self.mutants if m.operator == "swap_operands")
        calls = set()
        for path in {m.file for m in self.mutants}:
            with open(os.path.join(ROOT, path), encoding="utf-8") as file:
                for number, line in enumerate(file, 1):
                    if re.search(r"(?<![.\w>])op\(", line.split("//")[0]):
                        calls.add((path, number))
        self.assertTrue(calls)
        self.assertEqual(set(swapped), calls)
        self.assertEqual([k for k, n in swapped.items() if n > 1], [])
        self.assertIn("kernels/detail/ops.cuh", {m.file for m in self.mutants})
        self.assertFalse([k for k in swapped if k[0] == "kernels/detail/ops.cuh"])

    def test_every_accumulator_of_a_reduction_is_narrowed(self):
        """Each device line of kernels/reduce/ that declares an `Out` (`Out v = ...`, `Out* values`),
        found with a plain search, has one narrow_accumulator mutant where the accumulator takes a
        value (a scalar its initialiser, a buffer a store `values[i] = ...` in its block; a form the
        operator leaves, `Out& r = x`, `Out v(x)`, fails here until decided), and every file that
        has such a line has one; none compound-assigns an accumulator (not found either). Each
        mutant only inserts `Out(In(` after an `=` and `))` before the `;` of that statement, so no
        type changes and it compiles wherever the original does."""
        narrowed = Counter((m.file, m.line) for m in self.mutants if m.operator == "narrow_accumulator")
        declaration = r"\s*(const |__shared__ )?Out\b([*&]?) ?(const )?(\w+)( =|\(|;|\[)"
        declarations = set()
        for path in sorted(glob.glob(os.path.join(ROOT, "kernels", "reduce", "**", "*.cu*"), recursive=True)):
            with open(path, encoding="utf-8") as file:
                sf = SourceFile(os.path.relpath(path, ROOT).replace(os.sep, "/"), file.read())
            lines, first_of_line = sf.text.splitlines(), {}
            for index, token in enumerate(sf.tokens):
                first_of_line.setdefault(token.line, index)
            for number, index in first_of_line.items():
                found = re.match(declaration, lines[number - 1])
                if not found or not sf.is_device(index):
                    continue
                declarator, name, after = found.group(2, 4, 5)
                block = "\n".join(lines[number - 1 : sf.tokens[sf.scope_of[index].close].line])
                compound = rf"(?<![.\w]){name}\b(\[[^\]]*\])? ?([-+*/%&|^]|<<|>>)=|\+\+{name}\b|\b{name}\+\+"
                self.assertIsNone(re.search(compound, block), f"{sf.path}:{number}: a compound assignment")
                stored = re.search(rf"(?<![.\w]){name}\[[^\]]*\] = ", block)
                if (after in {" =", "("} and declarator != "*") or stored:
                    declarations.add((sf.path, number))
            for mutation in find_mutations(sf):
                if mutation.operator == "narrow_accumulator":
                    self.assert_wraps_whole_right_hand_sides(sf, mutation)
        self.assertGreaterEqual(len({path for path, _ in declarations}), 9)
        self.assertEqual(set(narrowed), declarations)
        self.assertEqual([k for k, n in narrowed.items() if n > 1], [])

    def assert_wraps_whole_right_hand_sides(self, sf, mutation):
        """The mutation's edits are pairs of insertions, `Out(In(` right after an `=` and `))` right
        before a `;`, and leave the file's brackets balanced and its brace scopes as they were."""
        after = {t.end: i for i, t in enumerate(sf.tokens)}
        before = {t.start: i for i, t in enumerate(sf.tokens)}
        opened = []
        for start, end, text in mutation.edits:
            self.assertEqual(start, end, "an insertion")
            if text == "Out(In(":
                opened.append(sf.tokens[before[start] - 1].text)
            else:
                self.assertEqual((text, sf.tokens[after[start] + 1].text), ("))", ";"))
        self.assertEqual(opened, ["="] * (len(mutation.edits) // 2))
        mutated = SourceFile(sf.path, apply_edits(sf.text, mutation.edits))  # raises if unbalanced
        scopes = [[f.scope_of[i].kind for i, t in enumerate(f.tokens) if t.text == "{"] for f in (sf, mutated)]
        self.assertEqual(scopes[0], scopes[1])

    def test_triaged_mutants_exist_and_give_reasons(self):
        variants = {}
        for m in self.mutants:
            variants.setdefault(m.key, set()).update(m.variants)
        equivalents = report.load_triage(report.EQUIVALENTS)
        named = report.load_triage(report.NAMED_SURVIVORS)
        for (key, label), reason in [*equivalents.items(), *named.items()]:
            self.assertIn(key, variants, "a triage file names a mutant the generator no longer makes")
            self.assertTrue(label is None or label in variants[key], f"{key}@{label}")
            self.assertGreater(len(reason.split()), 5, key)
        for judged in named:
            self.assertNotIn(judged, equivalents, "a survivor is either equivalent or named, not both")

    def test_a_judgement_follows_its_mutant_and_no_other(self):
        """Lines added above a mutant move its id, not its key; an edit inside its context makes
        another mutant, which the judgement no longer names."""
        mutant = next(m for m in self.mutants if m.file == "kernels/scan/naive.cu")
        judged = {(mutant.key, None): "a reason"}
        moved = Mutant(
            mutant.id.replace(f":{mutant.line}:", f":{mutant.line + 3}:"),
            mutant.file,
            mutant.line + 3,
            mutant.operator,
            mutant.op_class,
            mutant.variants,
            re.sub(r"^@@ -(\d+)", lambda h: f"@@ -{int(h.group(1)) + 3}", mutant.diff, flags=re.M),
        )
        self.assertEqual(report.by_id(judged, [moved]), {(moved.id, None): "a reason"})
        context = mutant.diff.splitlines()
        edited_at = next(i for i, line in enumerate(context) if line.startswith(" ") and line.strip())
        context[edited_at] = context[edited_at] + " // edited"
        edited = Mutant(*[getattr(mutant, f) for f in ("id", "file", "line", "operator", "op_class", "variants")],
                        "\n".join(context) + "\n")
        self.assertEqual(report.by_id(judged, [edited]), {})

    def test_modes_select_their_pairs(self):
        variant = select_pairs(self.mutants, variant="scan/naive")
        self.assertTrue(variant and all(label == "scan/naive" and "scan/naive" in m.variants for m, label in variant))
        full = select_pairs(self.mutants)
        self.assertEqual(len(full), sum(len(m.variants) for m in self.mutants))
        sample = select_pairs(self.mutants, sample=20, seed=7)
        self.assertEqual(len({m.id for m, _ in sample}), 20)
        self.assertEqual(sample, select_pairs(self.mutants, sample=20, seed=7))
        self.assertNotEqual(sample, select_pairs(self.mutants, sample=20, seed=8))

    def test_one_files_mutants(self):
        """--file: that file's mutants alone, named under kernels/ or from the root; none of another."""
        onesweep = of_file(self.mutants, "sort/radix_onesweep.cu")
        self.assertTrue(onesweep and all(m.file == "kernels/sort/radix_onesweep.cu" for m in onesweep))
        self.assertEqual(onesweep, of_file(self.mutants, "kernels/sort/radix_onesweep.cu"))
        self.assertEqual(len(onesweep), sum(m.file == "kernels/sort/radix_onesweep.cu" for m in self.mutants))
        self.assertEqual(of_file(self.mutants, "sort/no_such_file.cu"), [])
        result = subprocess.run(
            [sys.executable, os.path.join(HERE, "run_mutants.py"), "--list", "--file", "sort/radix_onesweep.cu"],
            capture_output=True,
            text=True,
            check=True,
        )
        pairs = sum(len(m.variants) for m in onesweep)
        self.assertEqual(result.stdout.splitlines()[-1], f"{len(onesweep)} mutants, {pairs} (mutant, variant) pairs")

    def test_the_runner_lists_its_plan_without_a_gpu(self):
        result = subprocess.run(
            [sys.executable, os.path.join(HERE, "run_mutants.py"), "--list", "--variant", "sort/odd_even_block"],
            capture_output=True,
            text=True,
            check=True,
        )
        expected = len([m for m in self.mutants if "sort/odd_even_block" in m.variants])
        self.assertEqual(result.stdout.splitlines()[-1], f"{expected} mutants, {expected} (mutant, variant) pairs")

    def test_the_runner_selects_one_operator_class(self):
        """--operator-class alone: every mutant of the class against each variant it maps to; with
        --variant, only those of that variant; the plan (--list) names nothing else."""
        swaps = [m for m in self.mutants if m.op_class == "operand_order"]
        self.assertEqual(
            select_pairs(self.mutants, op_class="operand_order"), [(m, v) for m in swaps for v in m.variants]
        )
        self.assertEqual(
            select_pairs(self.mutants, variant="scan/naive", op_class="operand_order"),
            [(m, "scan/naive") for m in swaps if "scan/naive" in m.variants],
        )
        drawn = select_pairs(self.mutants, sample=5, seed=7, op_class="operand_order")
        self.assertEqual(len({m.id for m, _ in drawn}), 5)
        self.assertTrue(all(m.op_class == "operand_order" for m, _ in drawn))

        def plan(*options):
            return subprocess.run(
                [sys.executable, os.path.join(HERE, "run_mutants.py"), "--list", "--operator-class", *options],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.splitlines()

        listed = plan("operand_order")
        pairs = [tuple(line.split()) for line in listed[:-1]]
        self.assertEqual(pairs, [(m.id, v) for m in swaps for v in m.variants])
        self.assertEqual(listed[-1], f"{len(swaps)} mutants, {len(pairs)} (mutant, variant) pairs")
        lookback = [m.id for m in swaps if "scan/decoupled_lookback" in m.variants]
        listed = plan("operand_order", "--variant", "scan/decoupled_lookback")
        self.assertEqual(listed[:-1], [f"{i} scan/decoupled_lookback" for i in lookback])
        self.assertEqual(
            plan("operand_order", "--variant", "sort/bitonic"),
            ["no operand_order mutant of variant sort/bitonic: nothing to run"],
        )

    def test_mutants_map_to_the_variants_that_use_the_code(self):
        by_file = {}
        for mutant in self.mutants:
            by_file.setdefault(mutant.file, set()).update(mutant.variants)
        self.assertEqual(
            by_file["kernels/scan/blelloch_padded.cu"], {"scan/blelloch_padded", "scan/scan_then_fan/blelloch_padded"}
        )
        multi_pass = [m for m in self.mutants if m.file == "kernels/reduce/detail/multi_pass.cuh"]
        in_multi_pass_class = [m for m in multi_pass if "MultiPass" in _enclosing_text(m)]
        self.assertTrue(in_multi_pass_class)
        for mutant in in_multi_pass_class:
            self.assertTrue(all(v.startswith("reduce/") for v in mutant.variants), mutant.id)
        rounding = [m for m in self.mutants if m.file == "kernels/detail/rounding.hpp"]
        ceil_div = [m for m in rounding if m.line == _line_of(m.file, "constexpr std::uint64_t ceil_div")]
        self.assertTrue(ceil_div and all({"scan/naive", "sort/bitonic"} <= set(m.variants) for m in ceil_div))


# A project of fake entries, one of each kind a mutant's run can meet. ctest 3.25 wrote
# testdata/ctest-3.25-junit.xml from it (`ctest --output-junit junit.xml`, all entries).
FAKE_ENTRIES = """cmake_minimum_required(VERSION 3.25)
project(fake NONE)
enable_testing()
add_test(NAME passes COMMAND sh -c "echo fine")
add_test(NAME fails COMMAND sh -c "echo 'Expected equality'; echo '  rerun: kcheck scan/naive --kind inclusive --n 1000 --seed 7'; exit 1")
add_test(NAME hangs COMMAND sleep 30)
add_test(NAME watched COMMAND sh -c "echo 'HANG: a batch ran past its deadline of 20 s'; exit 1")
add_test(NAME skipped COMMAND sh -c "echo 'SKIP: no GPU'; exit 77")
add_test(NAME missing COMMAND /nonexistent/test)
add_test(NAME trapped COMMAND sh -c "echo 'Failure'; kill -TRAP $$")
set_tests_properties(hangs PROPERTIES TIMEOUT 1)
set_tests_properties(skipped PROPERTIES SKIP_RETURN_CODE 77)
set_tests_properties(trapped PROPERTIES LABELS "v/all")
add_test(NAME disabled COMMAND true)
set_tests_properties(disabled PROPERTIES DISABLED TRUE)
set_tests_properties(passes PROPERTIES LABELS "v/all;v/pass;v/fail;v/hang;v/skip")
set_tests_properties(fails PROPERTIES LABELS "v/all;v/fail")
set_tests_properties(hangs PROPERTIES LABELS "v/all;v/hang")
set_tests_properties(watched PROPERTIES LABELS "v/all;v/watched")
set_tests_properties(skipped PROPERTIES LABELS "v/all;v/skip")
set_tests_properties(missing PROPERTIES LABELS "v/all;v/missing")
add_test(NAME stopper COMMAND sh -c "sleep 0.5; touch \\"$KERNELS_STOP_FILE\\"; echo 'Failure'; exit 1")
add_test(NAME stopped COMMAND sh -c "while [ ! -f \\"$KERNELS_STOP_FILE\\" ]; do sleep 0.05; done; echo 'STOPPED: another entry of this run failed first'; exit 77")
set_tests_properties(stopper stopped PROPERTIES LABELS "v/stop" TIMEOUT 20)
set_tests_properties(stopped PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME gpu_skips COMMAND sh -c "echo 'SKIP: no usable CUDA device (no device)'; exit 77")
add_test(NAME gpu_contract_skip COMMAND sh -c "echo 'device: x'; echo '[  SKIPPED ] [not in the contract] x'; exit 77")
add_test(NAME gpu_lost COMMAND sh -c "echo 'GPU LOST: no usable CUDA device, though the driver lists 1 GPU'; exit 1")
set_tests_properties(gpu_skips gpu_contract_skip PROPERTIES SKIP_RETURN_CODE 77)
set_tests_properties(gpu_skips PROPERTIES LABELS "gpu;v/gpu_skip")
set_tests_properties(gpu_contract_skip PROPERTIES LABELS "gpu;v/contract_skip")
set_tests_properties(gpu_lost PROPERTIES LABELS "v/gpu_lost")
"""
JUNIT_SAMPLE = os.path.join(HERE, "testdata", "ctest-3.25-junit.xml")
# A run after its GPU was lost (fabricated in ctest 3.25's format): a GPU entry passed before the
# loss, one skipped whole after it, one printed GPU LOST; a contract skip, a stopped entry, a CPU skip.
GPU_LOST_SAMPLE = os.path.join(HERE, "testdata", "gpu-lost-junit.xml")


class ChangedSince(unittest.TestCase):
    """--changed-since: the kernel lines an edit changed, in a scratch repository."""

    def setUp(self):
        self.repo = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.repo)
        os.makedirs(os.path.join(self.repo, "kernels", "scan"))
        self._write("kernels/scan/a.cu", [f"line {n}" for n in range(1, 11)])
        self._write("notes.txt", ["outside kernels/"])
        for command in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a"]):
            subprocess.run(["git", "-C", self.repo, *command], check=True)

    def _write(self, path, lines):
        with open(os.path.join(self.repo, path), "w", encoding="utf-8") as file:
            file.write("\n".join(lines) + "\n")

    def test_changed_deleted_added_and_new_files_count_outside_kernels_not(self):
        lines = [f"line {n}" for n in range(1, 11)]
        lines[2] = "line 3 changed"  # line 3
        del lines[5]  # old line 6: the code meets at today's lines 5 and 6
        lines.insert(7, "added")  # today's line 8
        self._write("kernels/scan/a.cu", lines)
        self._write("kernels/scan/new.cu", ["one", "two"])
        self._write("notes.txt", ["changed, but not a kernel"])
        changed = changed_lines.changed_lines(self.repo, "HEAD")
        self.assertEqual(changed, {"kernels/scan/a.cu": {3, 6, 8}, "kernels/scan/new.cu": {1, 2}})

    def test_nothing_changed_and_an_unknown_ref(self):
        self.assertEqual(changed_lines.changed_lines(self.repo, "HEAD"), {})
        with self.assertRaises(changed_lines.UnknownRef):
            changed_lines.changed_lines(self.repo, "no-such-ref")

    def test_only_the_mutants_of_changed_lines_run(self):
        mutants = [
            Mutant(f"scan/a.cu:{line}:op:0", "kernels/scan/a.cu", line, "op", "arith", ("scan/a",), "")
            for line in (2, 3, 4)
        ]
        picked = changed_lines.mutants_of(mutants, {"kernels/scan/a.cu": {3}, "kernels/scan/b.cu": {2}})
        self.assertEqual([m.id for m in picked], ["scan/a.cu:3:op:0"])


class SameCode(unittest.TestCase):
    """same_code.py: a mutant that changes only host-side sizes leaves the cubin's code as it is;
    one that changes the device code does not (scan/blelloch_padded.cu, compiled here: nvcc, no GPU)."""

    def run_tool(self, *ids):
        return subprocess.run([sys.executable, os.path.join(HERE, "same_code.py"), *ids], capture_output=True,
                              text=True, check=False)  # fmt: skip

    @unittest.skipUnless(shutil.which("nvcc") and shutil.which("readelf"), "needs nvcc and readelf")
    def test_same_and_different_code(self):
        done = self.run_tool("scan/blelloch_padded.cu:17:const_plus_1:1", "scan/blelloch_padded.cu:15:const_minus_1:0")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(
            done.stdout.splitlines(),
            [
                # slots() + 2: one more shared word, sized on the host; the kernels are the same.
                "scan/blelloch_padded.cu:17:const_plus_1:1 (scan/blelloch_padded.cu:const_plus_1:c2abbf47ac09): same code",
                # One pad word per 16 values: every shared index changes.
                "scan/blelloch_padded.cu:15:const_minus_1:0 (scan/blelloch_padded.cu:const_minus_1:8a7eae6f860d): "
                "different code",
            ],
        )

    def test_an_unknown_id_is_an_error(self):
        done = self.run_tool("scan/blelloch_padded.cu:99:no_such_operator:0")
        self.assertEqual(done.returncode, 2)
        self.assertIn("no mutant scan/blelloch_padded.cu:99:no_such_operator:0", done.stderr)


class CommittedReports(unittest.TestCase):
    """Every campaign kept under bench/results/ with its triage reproduces its report from its
    own files, and its triage names only mutants of its results."""

    def test_each_report_reproduces_byte_for_byte(self):
        campaigns = [
            os.path.dirname(path)
            for path in sorted(glob.glob(os.path.join(ROOT, "bench", "results", "*", "results.json")))
            if os.path.isdir(os.path.join(os.path.dirname(path), "triage"))
        ]
        if not campaigns:
            self.skipTest("no campaign with its triage under bench/results/")
        for folder in campaigns:
            with self.subTest(campaign=os.path.basename(folder)):
                with open(os.path.join(folder, "results.json"), encoding="utf-8") as file:
                    results = json.load(file)
                self.assertEqual(report.gpu_lost(results), [], "a campaign that lost its GPU is no score to keep")
                keys = {generate_key(m) for m in results["mutants"]}
                triage = {}
                for name in ("equivalent.txt", "named_survivors.txt"):
                    triage[name] = report.load_triage(os.path.join(folder, "triage", name))
                    for key, label in triage[name]:
                        self.assertTrue(key in keys, f"{name} judges {key}, a mutant this campaign did not run")
                # The contracts' flags the campaign was reported with, where it kept them.
                contracts = os.path.join(folder, "contracts.txt")
                flags = report.load_order_flags(contracts) if os.path.isfile(contracts) else None
                with tempfile.TemporaryDirectory() as out:
                    report.write_report(
                        results,
                        report.by_id(triage["equivalent.txt"], results["mutants"]),
                        out,
                        report.by_id(triage["named_survivors.txt"], results["mutants"]),
                        flags,
                    )
                    for name in ("report.md", "report.json", "survivors.md", "pairs.md"):
                        with open(os.path.join(out, name), "rb") as made, open(os.path.join(folder, name), "rb") as kept:
                            self.assertEqual(made.read(), kept.read(), f"{name} no longer reproduces")


class JunitSample(unittest.TestCase):
    """ctest_junit on a JUnit file that ctest 3.25 wrote for FAKE_ENTRIES."""

    @classmethod
    def setUpClass(cls):
        cls.entries = ctest_junit.read(JUNIT_SAMPLE)

    def test_every_entry_with_its_status_message_and_output(self):
        self.assertEqual(
            [(e.name, e.status, e.message) for e in self.entries],
            [
                ("passes", "run", ""),
                ("fails", "fail", ""),
                ("hangs", "fail", ""),
                ("watched", "fail", ""),
                ("skipped", "notrun", "SKIP_RETURN_CODE=77"),
                ("missing", "notrun", "Unable to find executable"),
                ("trapped", "fail", ""),
                ("disabled", "disabled", ""),
            ],
        )
        self.assertIn(ctest_junit.HANG_MARKER, self.entries[3].output)

    def test_a_timeout_is_told_by_the_time_against_the_entrys_timeout(self):
        hangs = self.entries[2]
        self.assertEqual(ctest_junit.reason(hangs, {"hangs": 1.0}), "Timeout")
        self.assertEqual(ctest_junit.reason(hangs, {}), "Failed")
        self.assertEqual(ctest_junit.reason(self.entries[1], {"fails": 1.0}), "Failed")

    def test_verdicts(self):
        by_name = {e.name: e for e in self.entries}

        def verdict(*names, returncode=8):
            return ctest_junit.judge(returncode, [by_name[n] for n in names], {"hangs": 1.0})

        self.assertEqual(
            verdict("passes", "fails", "trapped"),
            ctest_junit.Verdict(ctest_junit.KILLED, ("fails (Failed)", "trapped (Failed)")),
        )
        self.assertEqual(verdict("hangs"), ctest_junit.Verdict(ctest_junit.KILLED_BY_TIMEOUT, ("hangs (Timeout)",)))
        self.assertEqual(verdict("fails", "watched").outcome, ctest_junit.KILLED_BY_TIMEOUT)
        self.assertEqual(verdict("passes", "skipped", "disabled", returncode=0).outcome, ctest_junit.SURVIVED)
        self.assertEqual(verdict("fails", "missing").outcome, ctest_junit.ERROR)
        self.assertEqual(verdict().outcome, ctest_junit.ERROR)  # no entry and a failing ctest
        # Stopped by a stop file that no failure of the run wrote: nothing was judged.
        stopped = ctest_junit.Entry("stopped", "notrun", 0.1, "SKIP_RETURN_CODE=77", ctest_junit.STOPPED_MARKER)
        self.assertEqual(
            ctest_junit.judge(0, [by_name["passes"], stopped], {}),
            ctest_junit.Verdict(ctest_junit.ERROR, ("stopped (stopped, but no entry failed)",)),
        )
        self.assertEqual(ctest_junit.judge(8, [by_name["fails"], stopped], {}).outcome, ctest_junit.KILLED)

    def test_the_first_rerun_line_of_the_failed_entries(self):
        self.assertEqual(
            ctest_junit.first_rerun_line(self.entries),
            ("fails", "scan/naive --kind inclusive --n 1000 --seed 7"),
        )
        self.assertIsNone(ctest_junit.first_rerun_line(self.entries[2:]))


class CtestVerdicts(unittest.TestCase):
    """ctest_runs.run on a real ctest over FAKE_ENTRIES, from a run folder of its own."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp()
        with open(os.path.join(cls.folder, "CMakeLists.txt"), "w", encoding="utf-8") as file:
            file.write(FAKE_ENTRIES)
        cls.build = os.path.join(cls.folder, "build")
        subprocess.run(["cmake", "-S", cls.folder, "-B", cls.build], capture_output=True, check=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder)

    def verdict(self, label, *options):
        run_folder = os.path.join(self.folder, "run")
        ctest_runs.prepare_folder(self.build, run_folder)
        with open(os.path.join(self.folder, "log"), "w", encoding="utf-8") as log:
            verdict, _ = ctest_runs.run(run_folder, ["-L", f"^{label}$", *options], dict(os.environ), log)
        self.assertFalse(os.path.exists(os.path.join(self.build, "Testing")), "the build's Testing/ was touched")
        return verdict

    def test_a_failure_kills_and_names_the_entry(self):
        self.assertEqual(self.verdict("v/fail"), ctest_junit.Verdict(ctest_junit.KILLED, ("fails (Failed)",)))

    def test_a_hang_is_killed_by_the_suites_timeout(self):
        self.assertEqual(self.verdict("v/hang").outcome, ctest_junit.KILLED_BY_TIMEOUT)
        self.assertEqual(self.verdict("v/hang", "-j4").outcome, ctest_junit.KILLED_BY_TIMEOUT)

    def test_a_hang_is_killed_by_the_suites_watchdog(self):
        self.assertEqual(self.verdict("v/watched").outcome, ctest_junit.KILLED_BY_TIMEOUT)

    def test_passing_or_skipped_entries_let_the_mutant_survive(self):
        self.assertEqual(self.verdict("v/pass").outcome, ctest_junit.SURVIVED)
        self.assertEqual(self.verdict("v/skip").outcome, ctest_junit.SURVIVED)

    def test_the_default_timeout_judges_entries_without_their_own(self):
        with open(os.path.join(self.folder, "log"), "w", encoding="utf-8") as log:
            run_folder = os.path.join(self.folder, "run")
            ctest_runs.prepare_folder(self.build, run_folder)
            self.assertEqual(
                ctest_runs.entry_timeouts(run_folder, ["-L", "^v/fail$"], 120), {"passes": 120.0, "fails": 120.0}
            )
            self.assertEqual(ctest_runs.entry_timeouts(run_folder, ["-L", "^v/hang$"]), {"hangs": 1.0})

    def test_the_runners_stages_stop_at_the_first_kill(self):
        spec = os.path.join(self.folder, "spec.json")
        with open(spec, "w", encoding="utf-8") as file:
            json.dump({"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 4}]}]}, file)
        prefix = os.path.join(self.folder, "pair")
        stages = [TESTS_STAGE, SANITIZER_STAGE, LARGE_STAGE]
        self.assertEqual(
            run_stages(self.build, "", "v/fail", spec, stages, prefix),
            (ctest_junit.Verdict(ctest_junit.KILLED, ("fails (Failed)",)), "tests"),
        )
        self.assertFalse(os.path.exists(prefix + ".sanitizer.log"))
        self.assertEqual(
            run_stages(self.build, "", "v/pass", spec, stages, prefix), (ctest_junit.Verdict(ctest_junit.SURVIVED), "")
        )
        self.assertTrue(os.path.isfile(prefix + ".sanitizer.log"))
        self.assertTrue(os.path.isfile(prefix + ".large.log"))

    def test_an_entry_stopped_by_anothers_failure_is_not_among_the_kills(self):
        self.assertEqual(self.verdict("v/stop", "-j2"), ctest_junit.Verdict(ctest_junit.KILLED, ("stopper (Failed)",)))

    def test_entries_that_cannot_start_or_no_entries_are_errors(self):
        self.assertEqual(self.verdict("v/missing").outcome, ctest_junit.ERROR)
        self.assertEqual(self.verdict("v/none", "--no-tests=error").outcome, ctest_junit.ERROR)
        self.assertEqual(self.verdict("v/none", "--no-tests=ignore").outcome, ctest_junit.SURVIVED)

    def test_a_gpu_entry_skipped_whole_or_a_gpu_lost_line_is_a_lost_gpu(self):
        lost = self.verdict("v/gpu_skip")
        self.assertEqual(lost.outcome, ctest_junit.ERROR)
        self.assertEqual(lost.killed_by, ("GPU lost: gpu_skips Skipped (SKIP: no usable CUDA device (no device))",))
        self.assertTrue(ctest_junit.gpu_lost(self.verdict("v/gpu_lost")))
        self.assertEqual(self.verdict("v/contract_skip").outcome, ctest_junit.SURVIVED)
        self.assertEqual(self.verdict("v/skip").outcome, ctest_junit.SURVIVED)  # no gpu label


class GpuLost(unittest.TestCase):
    """A run that lost its GPU (GPU_LOST_SAMPLE) is an error, never a verdict, and stops the campaign."""

    GPU_ENTRIES = {
        "reduce_test.harris1_interleaved_divergent.int-longlong",
        "reduce_test.harris1_interleaved_divergent.float-double",
        "sanitize.memcheck.reduce.harris1_interleaved_divergent.narrow",
        "reduce_test.harris1_interleaved_divergent.half-float",
        "reduce_large_test.harris1_interleaved_divergent",
    }

    @classmethod
    def setUpClass(cls):
        cls.entries = {e.name: e for e in ctest_junit.read(GPU_LOST_SAMPLE)}

    def judge(self, *names, returncode=0):
        return ctest_junit.judge(returncode, [self.entries[n] for n in names], {}, self.GPU_ENTRIES)

    def test_a_gpu_entry_skipped_whole_or_a_gpu_lost_line(self):
        passed, skipped, contract, stopped, large, cpu = self.entries
        self.assertEqual(
            self.judge(passed, skipped),
            ctest_junit.Verdict(
                ctest_junit.ERROR,
                (f"GPU lost: {skipped} Skipped (SKIP: no usable CUDA device (cudaGetDeviceCount: no CUDA-capable "
                 "device is detected); this executable's GPU tests did not run)",),
            ),
        )
        lost = self.judge(passed, contract, large, returncode=8)  # not a kill: the GPU is gone
        self.assertEqual(lost.outcome, ctest_junit.ERROR)
        self.assertEqual(len(lost.killed_by), 1)
        self.assertTrue(lost.killed_by[0].startswith(f"GPU lost: {large} printed 'GPU LOST: no usable CUDA device"))
        self.assertTrue(ctest_junit.gpu_lost(lost))
        # A whole skip by contract, one stopped by another's failure and a CPU entry's skip are no loss.
        self.assertEqual(self.judge(passed, contract, cpu).outcome, ctest_junit.SURVIVED)
        self.assertFalse(ctest_junit.gpu_lost(self.judge(passed, stopped)))
        self.assertFalse(ctest_junit.gpu_lost(ctest_junit.Verdict(ctest_junit.ERROR, ("its sanitizer case exited 3",))))

    def campaign(self, lost_at, probe_fails_at=None):
        """Five pairs judged one by one on one lane over fake stages: pair 0 killed, the others
        surviving, but pair `lost_at`'s tests see GPU_LOST_SAMPLE; the GPU probe fails from its
        call after `probe_fails_at` on (one call a verdict). (campaign, stages run, what was printed)."""
        entries, ran, probed = list(self.entries.values()), [], []
        gpu = Gpu(SharedLock(), "large.json", 1)
        pairs = [(types.SimpleNamespace(id=f"m{n}"), f"v/{n}") for n in range(5)]

        def fake_stages(build_dir, library_dir, label, spec, stages, log_prefix):
            (stage, _, _), = stages
            ran.append((label, stage))
            number = int(label.split("/")[1])
            if stage == "tests" and number == lost_at:
                return ctest_junit.judge(8, entries, {}, self.GPU_ENTRIES), stage
            if stage == "tests" and number == 0:
                return ctest_junit.Verdict(ctest_junit.KILLED, ("an entry (Failed)",)), stage
            return ctest_junit.Verdict(ctest_junit.SURVIVED), ""

        def fake_probe(build_dir):
            probed.append(build_dir)
            fails = probe_fails_at is not None and len(probed) > probe_fails_at
            return "gpu_probe: no CUDA-capable device is detected" if fails else None

        with tempfile.TemporaryDirectory() as work:
            args = argparse.Namespace(budget_s=None, work_dir=work, build_dir=work)
            campaign = Campaign(args, pairs, [Lane("l", gpu)])
            printed = io.StringIO()
            with mock.patch("run_mutants.run_stages", side_effect=fake_stages), mock.patch(
                "ctest_runs.gpu_probe_failure", side_effect=fake_probe
            ), contextlib.redirect_stdout(printed):
                for mutant, label in pairs:  # in order, as one lane takes them
                    campaign.test(mutant, label, os.path.join(work, mutant.id, "libkernels.so"), [1])
        return campaign, ran, printed.getvalue()

    def test_a_lost_gpu_stops_the_campaign_and_keeps_what_was_judged(self):
        campaign, ran, _ = self.campaign(lost_at=2)
        outcomes = {r["variant"]: r["outcome"] for r in campaign.results}
        self.assertEqual(outcomes, {"v/0": "killed", "v/1": "survived", "v/2": "error"})
        self.assertEqual({label for label, _ in ran}, {"v/0", "v/1", "v/2"}, "a pair ran after the GPU was lost")
        skipped = "reduce_test.harris1_interleaved_divergent.float-double Skipped"
        self.assertIn(f"m2 [v/2]: error: GPU lost: {skipped}", campaign.gpu_lost)
        self.assertIn("printed 'GPU LOST: no usable CUDA device", campaign.gpu_lost)

    def test_a_gpu_the_probe_cannot_reach_before_a_verdict_stops_the_campaign(self):
        campaign, ran, printed = self.campaign(lost_at=None, probe_fails_at=1)
        outcomes = {r["variant"]: (r["outcome"], r["killed_by"]) for r in campaign.results}
        lost = ["GPU lost: gpu_probe: no CUDA-capable device is detected"]
        self.assertEqual(outcomes, {"v/0": ("killed", ["an entry (Failed)"]), "v/1": ("error", lost)})
        self.assertEqual(campaign.gpu_lost, f"m1 [v/1]: error: {lost[0]}")
        self.assertNotIn("v/2", {label for label, _ in ran})
        self.assertIn("m1 [v/1]: error", printed)

    def test_a_catalogue_run_stops_at_a_lost_gpu_and_exits_non_zero(self):
        first, second = catalogue.load()[:2]
        with tempfile.TemporaryDirectory() as folder:
            build, work = os.path.join(folder, "build"), os.path.join(folder, "mutants")
            os.makedirs(build)
            with open(os.path.join(build, "CTestTestfile.cmake"), "w", encoding="utf-8") as file:
                for bug in (first, second):  # a GPU entry of each variant, skipped as without a device
                    file.write(f'add_test({bug.name} "sh" "-c" "echo \'SKIP: no usable CUDA device\'; exit 77")\n')
                    labels = f'LABELS "gpu;{bug.variant}"'
                    file.write(f"set_tests_properties({bug.name} PROPERTIES SKIP_RETURN_CODE 77 {labels})\n")
            for bug in (first, second):
                os.makedirs(os.path.join(work, bug.name))
                open(os.path.join(work, bug.name, "libkernels.so"), "w", encoding="utf-8").close()  # built already
            args = argparse.Namespace(
                catalogue=[first.name, second.name], work_dir=work, build_dir=build, build_only=False, build_jobs=1
            )
            printed = io.StringIO()
            with mock.patch("ctest_runs.gpu_probe_failure", return_value=None), contextlib.redirect_stdout(printed):
                self.assertEqual(catalogue_run.main(args), 1)
            with open(os.path.join(work, "results.json"), encoding="utf-8") as file:
                outcomes = {r["mutant"]: (r["outcome"], r["killed_by"]) for r in json.load(file)["results"]}
            with open(os.path.join(work, "report", "report.md"), encoding="utf-8") as file:
                text = file.read()
        lost = [f"GPU lost: {first.name} Skipped (SKIP: no usable CUDA device)"]
        self.assertEqual((outcomes[first.name], outcomes[second.name]), (("error", lost), ("not_run", [])))
        self.assertIn(f"the GPU was lost: {first.name} [{first.variant}]: error: {lost[0]}", printed.getvalue())
        self.assertIn(f"NOT A SCORE: the GPU was lost judging `{first.name}` [{first.variant}]: {lost[0]}.", text)


class Catalogue(unittest.TestCase):
    """The catalogue's patches (catalogue.py): headers, today's sources, its variants."""

    HEADER = "Mutant: x\nVariant: scan/naive\nBug: a bug\n"

    def test_every_patch_is_well_formed_and_applies_to_todays_sources_exactly(self):
        bugs = catalogue.load()
        self.assertEqual([bug.name for bug in bugs], catalogue.names())
        self.assertGreaterEqual(len(bugs), 20)
        assert_patches_apply(self, [(bug.name, bug.text) for bug in bugs])

    def test_every_patch_names_a_variant_of_the_tree(self):
        labels = {label for labels in load_tree(ROOT).labels_of_file.values() for label in labels}
        # The test fixtures' variants (test/fixtures/*.cu) may carry planted bugs too.
        fixtures = os.path.join(ROOT, "test", "fixtures")
        for name in os.listdir(fixtures):
            if name.endswith(".cu"):
                with open(os.path.join(fixtures, name), encoding="utf-8") as file:
                    text = file.read()
                for family, variant in re.findall(r'make_(reduce|scan|sort)_variant<\w+>\(\{\s*\.name = "(\w+)"', text):
                    labels.add(f"{family}/{variant}")
        for bug in catalogue.load():
            self.assertIn(bug.variant, labels, bug.name)

    def test_headers_and_the_mutant_they_make(self):
        bug = catalogue.load(["volatile_last_warp"])[0]
        self.assertEqual(
            (bug.variant, bug.sanitizer, bug.sanitize_with),
            ("reduce/harris5_unroll_last_warp", "racecheck", ("--op", "sum", "--n", "5000", "--block", "256")),
        )
        mutant = bug.mutant()
        self.assertEqual(
            (mutant.id, mutant.file, mutant.op_class), (bug.name, "kernels/reduce/detail/last_warp.cuh", "catalogue")
        )
        self.assertEqual(mutant.variants, ("reduce/harris5_unroll_last_warp",))
        self.assertGreater(mutant.line, 0)
        self.assertEqual(catalogue.load(["bitonic_skips_last_merge"])[0].sanitize_with, ())

    def test_malformed_headers_are_named(self):
        for text, complaint in (
            ("Mutant: x\nVariant: scan/naive\n\n", "no Bug header"),
            ("Mutant: y\nVariant: scan/naive\nBug: b\n\n", "its Mutant header says 'y'"),
            (self.HEADER + "Sanitizer: memcheck\n\n", "needs its Sanitize-with case"),
            (self.HEADER + "Sanitize-with: --n 5\n\n", "needs its Sanitize-with case"),
            (self.HEADER + "Sanitizer: leakcheck\nSanitize-with: --n 5\n\n", "unknown sanitizer"),
        ):
            with self.assertRaises(ValueError) as error:
                catalogue.parse("x", text)
            self.assertIn(complaint, str(error.exception))
        with self.assertRaises(ValueError):
            catalogue.load(["no_such_mutant"])


class CatalogueJudgement(unittest.TestCase):
    """catalogue_run.judge on a fake build: entries that fail with or without a rerun line, a
    kcheck and a compute-sanitizer that exit as told ($FAKE_KCHECK_EXIT)."""

    ENTRIES = """cmake_minimum_required(VERSION 3.25)
project(fake NONE)
enable_testing()
add_test(NAME killed COMMAND sh -c "echo '  rerun: kcheck v/killed --n 5'; exit 1")
add_test(NAME host_check COMMAND false)
add_test(NAME fine COMMAND true)
set_tests_properties(killed PROPERTIES LABELS "v/killed")
set_tests_properties(host_check PROPERTIES LABELS "v/host")
set_tests_properties(fine PROPERTIES LABELS "v/fine")
"""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp()
        with open(os.path.join(cls.folder, "CMakeLists.txt"), "w", encoding="utf-8") as file:
            file.write(cls.ENTRIES)
        cls.build = os.path.join(cls.folder, "build")
        subprocess.run(["cmake", "-S", cls.folder, "-B", cls.build], capture_output=True, check=True)
        tools = os.path.join(cls.folder, "tools")
        os.makedirs(tools)
        for path, text in (
            (
                os.path.join(cls.build, "kcheck"),
                'echo "kcheck $*"; [ -z "$FAKE_KCHECK_HANG" ] || sleep 60; exit "${FAKE_KCHECK_EXIT:-1}"\n',
            ),
            # ci/sanitize.sh ends with: compute-sanitizer --tool T [options] --error-exitcode 1 <command>
            (
                os.path.join(tools, "compute-sanitizer"),
                'while [ "$1" != --error-exitcode ]; do shift; done\nshift 2\nexec "$@"\n',
            ),
        ):
            with open(path, "w", encoding="utf-8") as file:
                file.write("#!/bin/sh\n" + text)
            os.chmod(path, 0o755)
        cls.tools = tools

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder)

    def judge(self, variant, kcheck_exit=1, sanitizer="", hang=False):
        sanitize = f"Sanitizer: {sanitizer}\nSanitize-with: --n 5\n" if sanitizer else ""
        bug = catalogue.parse("x", f"Mutant: x\nVariant: {variant}\nBug: b\n{sanitize}\n")
        library = os.path.join(self.folder, "x")
        os.makedirs(library, exist_ok=True)
        saved = dict(os.environ)
        os.environ.update({"FAKE_KCHECK_EXIT": str(kcheck_exit), "PATH": f"{self.tools}:{saved['PATH']}"})
        os.environ.update({"FAKE_KCHECK_HANG": "1"} if hang else {})
        try:
            with open(os.path.join(self.folder, "x.log"), "w", encoding="utf-8") as log:
                verdict, stage, how = catalogue_run.judge(bug, self.build, library, log)
        finally:
            os.environ.clear()
            os.environ.update(saved)
        return verdict.outcome, stage, how, verdict.killed_by

    def test_a_kill_reproduced_by_its_rerun_line(self):
        self.assertEqual(self.judge("v/killed"), ("killed", "tests", "kcheck: exit 1", ("killed (Failed)",)))
        with open(os.path.join(self.folder, "x.log"), encoding="utf-8") as log:
            self.assertIn("kcheck v/killed --n 5", log.read())

    def test_a_kill_whose_rerun_line_passes_is_not_reproduced(self):
        self.assertEqual(self.judge("v/killed", kcheck_exit=0)[2], "NOT REPRODUCED (kcheck: exit 0)")
        self.assertEqual(self.judge("v/killed", kcheck_exit=2)[2], "NOT REPRODUCED (kcheck: exit 2)")

    def test_an_entry_without_a_rerun_line_is_rerun_alone(self):
        self.assertEqual(self.judge("v/host")[:3], ("killed", "tests", "no rerun line; entry: fails"))

    def test_the_sanitizer_judges_a_survivor_of_the_tests(self):
        self.assertEqual(
            self.judge("v/fine", sanitizer="memcheck"),
            ("killed", "sanitizer", "sanitizer kcheck: exit 1", ("compute-sanitizer --tool memcheck",)),
        )
        self.assertEqual(self.judge("v/fine", kcheck_exit=0, sanitizer="memcheck")[:3], ("survived", "sanitizer", "-"))
        self.assertEqual(self.judge("v/fine", kcheck_exit=3, sanitizer="memcheck")[0], "error")
        self.assertEqual(self.judge("v/fine")[:3], ("survived", "tests", "-"))

    def test_a_sanitizer_that_hangs_ends_at_its_timeout_as_an_error(self):
        started = time.monotonic()
        with mock.patch.object(catalogue_run, "SANITIZER_TIMEOUT_S", 1):
            judged = self.judge("v/fine", sanitizer="racecheck", hang=True)
        self.assertEqual(judged, ("error", "sanitizer", "-", ("sanitizer timed out after 1 s",)))
        self.assertLess(time.monotonic() - started, 30)


class CatalogueResults(unittest.TestCase):
    """catalogue_run.main over two real catalogue mutants without a sanitizer, one at a time as the ctest entries run
    them, against a build with none of their variants' entries (so both survive): the second run
    keeps the first one's result, and every other mutant of the catalogue shows as not run."""

    def test_runs_of_one_mutant_each_add_up_to_one_report(self):
        first, second = [bug.name for bug in catalogue.load() if not bug.sanitizer][:2]
        with tempfile.TemporaryDirectory() as folder:
            build = os.path.join(folder, "build")
            os.makedirs(build)
            with open(os.path.join(build, "CTestTestfile.cmake"), "w", encoding="utf-8"):
                pass
            work = os.path.join(folder, "mutants")
            for name in (first, second):
                os.makedirs(os.path.join(work, name))
                open(os.path.join(work, name, "libkernels.so"), "w", encoding="utf-8").close()  # built already
            for name in (first, second):
                args = argparse.Namespace(
                    catalogue=[name], work_dir=work, build_dir=build, build_only=False, build_jobs=1
                )
                with mock.patch("ctest_runs.gpu_probe_failure", return_value=None):  # a GPU, as ever
                    with contextlib.redirect_stdout(io.StringIO()):
                        self.assertEqual(catalogue_run.main(args), 1)  # a survivor fails the run
            with open(os.path.join(work, "results.json"), encoding="utf-8") as file:
                results = json.load(file)
            with open(os.path.join(work, "report", "pairs.md"), encoding="utf-8") as file:
                pairs = file.read()
        outcomes = {r["mutant"]: r["outcome"] for r in results["results"]}
        self.assertEqual(len(outcomes), len(catalogue.names()))
        self.assertEqual((outcomes.pop(first), outcomes.pop(second)), ("survived", "survived"))
        self.assertEqual(set(outcomes.values()), {ctest_junit.NOT_RUN})
        self.assertEqual((results["meta"]["mode"], len(results["meta"]["runs"])), ("catalogue", 2))
        self.assertIn(f"| `{first}` |", pairs)


class Builds(unittest.TestCase):
    """A build slot and the campaign's build-only path on a small C++ project laid out like the
    suite (kernels/ builds libkernels.so): one mutant compiles, one does not, the sources come back."""

    SOURCE = "int answer() { return 42; }\n"

    def mutant(self, name, replacement):
        diff = "".join(
            difflib.unified_diff(
                [self.SOURCE], [self.SOURCE.replace("42", replacement)], "a/kernels/answer.cpp", "b/kernels/answer.cpp"
            )
        )
        return Mutant(f"answer.cpp:1:{name}:0", "kernels/answer.cpp", 1, name, "constant", ("fake/answer",), diff)

    def make_project(self, root):
        for path, text in (
            (
                "CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.25)\nproject(fake CXX)\nadd_subdirectory(kernels)\n",
            ),
            ("kernels/CMakeLists.txt", "add_library(kernels SHARED answer.cpp)\n"),
            ("kernels/answer.cpp", self.SOURCE),
            ("cmake/empty.cmake", ""),
        ):
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as file:
                file.write(text)

    def prepared(self, root):
        """The fake project, a slot built unpatched, a mutant that compiles and one that does not,
        and the campaign's arguments."""
        self.make_project(root)
        work = os.path.join(root, "work")
        os.makedirs(os.path.join(work, "logs"))
        slot = BuildSlot(work, 0, 1)
        slot.prepare(root)
        compiles, broken = self.mutant("const_plus_1", "43"), self.mutant("broken", "42 +")
        return slot, compiles, broken, argparse.Namespace(budget_s=None, work_dir=work, build_dir=root, compile_jobs=2)

    def test_kept_objects_are_linked_not_compiled(self):
        with tempfile.TemporaryDirectory() as root:
            slot, compiles, broken, args = self.prepared(root)
            work = args.work_dir
            cache = ObjectCache(os.path.join(root, "cache"), source_digest(root))
            Campaign(args, [(compiles, "fake/answer"), (broken, "fake/answer")], [], cache).run([slot])
            self.assertEqual(cache.lookup(patch_name(broken.id)), (False, None))
            compiled, objects = cache.lookup(patch_name(compiles.id))
            self.assertTrue(compiled)
            kept = os.listdir(os.path.join(objects, "kernels", "CMakeFiles", "kernels.dir"))
            self.assertEqual(kept, ["answer.cpp.o"])

            library, log = os.path.join(root, "linked", "libkernels.so"), os.path.join(work, "logs", "link.log")
            self.assertTrue(slot.link(objects, library, log))
            with open(log, encoding="utf-8") as file:
                self.assertNotIn("Building CXX object", file.read())
            self.assertEqual(ctypes.CDLL(library)._Z6answerv(), 43)
            # The slot's objects are unpatched again: its next library answers 42.
            unpatched = os.path.join(root, "unpatched", "libkernels.so")
            self.assertTrue(slot.link(os.path.join(root, "nothing"), unpatched, log))
            self.assertEqual(ctypes.CDLL(unpatched)._Z6answerv(), 42)
            # Kept entries are not built again; another digest sees none of them.
            modified = os.stat(
                os.path.join(objects, "kernels", "CMakeFiles", "kernels.dir", "answer.cpp.o")
            ).st_mtime_ns
            Campaign(args, [(compiles, "fake/answer")], [], cache).run([slot])
            self.assertEqual(
                os.stat(os.path.join(objects, "kernels", "CMakeFiles", "kernels.dir", "answer.cpp.o")).st_mtime_ns,
                modified,
            )
            self.assertIsNone(ObjectCache(os.path.join(root, "cache"), "other").lookup(patch_name(compiles.id)))

    def test_a_file_compiled_alone_is_compiled_outside_the_slot_and_linked_by_it(self):
        with tempfile.TemporaryDirectory() as root:
            slot, compiles, broken, _ = self.prepared(root)
            source = os.path.join(slot.src, "kernels", "answer.cpp")
            self.assertEqual(slot.unit_of(compiles.diff), source)
            two_files = compiles.diff + compiles.diff.replace("answer.cpp", "other.cpp")
            self.assertIsNone(slot.unit_of(two_files))
            self.assertIsNone(slot.unit_of(compiles.diff.replace("kernels/answer.cpp", "cmake/empty.cmake")))
            objects, log = os.path.join(root, "objects"), os.path.join(root, "compile.log")
            self.assertTrue(slot.compile_unit(compiles.diff, objects, log))
            self.assertFalse(slot.compile_unit(broken.diff, os.path.join(root, "broken"), log))
            # The slot's sources are as they were, and its next library links the mutant's object.
            self.assertEqual(sorted(os.listdir(os.path.dirname(source))), ["CMakeLists.txt", "answer.cpp"])
            library = os.path.join(root, "linked", "libkernels.so")
            self.assertTrue(slot.link(objects, library, log))
            self.assertEqual(ctypes.CDLL(library)._Z6answerv(), 43)
            # A command this machine cannot run is an error, not a mutant that does not compile.
            elsewhere = BuildSlot(slot.folder.removesuffix("/slot0"), 0, 1)
            elsewhere.prepare(root)
            elsewhere.unit_of(compiles.diff)
            command, target = elsewhere._units[source]
            elsewhere._units[source] = (command.replace(command.split()[0], "/nonexistent/c++", 1), target)
            with self.assertRaisesRegex(RuntimeError, "does not compile .*answer.cpp unpatched"):
                elsewhere.compile_unit(compiles.diff, os.path.join(root, "elsewhere"), log)

    def test_an_unpatched_slot_is_reused_updated_or_rebuilt(self):
        with tempfile.TemporaryDirectory() as root:
            slot, compiles, _, args = self.prepared(root)
            self.assertEqual(slot.preparation, "built")
            Campaign(args, [(compiles, "fake/answer")], []).run([slot])
            again = BuildSlot(args.work_dir, 0, 1)
            again.prepare(root)
            self.assertEqual(again.preparation, "reused")
            library = os.path.join(root, "reused", "libkernels.so")
            self.assertTrue(again.build(compiles.diff, library, os.path.join(root, "build.log")))
            self.assertEqual(ctypes.CDLL(library)._Z6answerv(), 43)

            # Edits: a file added, one removed, then the new file changed. Each update compiles
            # what changed (and the file the last mutant touched), not the rest; mutants see it.
            answer_object = os.path.join(again.build_dir, "kernels", "CMakeFiles", "kernels.dir", "answer.cpp.o")
            with open(os.path.join(root, "kernels", "CMakeLists.txt"), "w", encoding="utf-8") as file:
                file.write("add_library(kernels SHARED answer.cpp other.cpp)\n")
            os.remove(os.path.join(root, "cmake", "empty.cmake"))
            for edit in ("int other() { return 7; }\n", "int other() { return 8; }\n"):
                before = os.stat(answer_object).st_mtime_ns
                with open(os.path.join(root, "kernels", "other.cpp"), "w", encoding="utf-8") as file:
                    file.write(edit)
                updated = BuildSlot(args.work_dir, 0, 1)
                updated.prepare(root)
                self.assertEqual(updated.preparation, "updated")
            self.assertEqual(os.stat(answer_object).st_mtime_ns, before)
            self.assertFalse(os.path.exists(os.path.join(updated.src, "cmake", "empty.cmake")))
            self.assertEqual(source_digest(updated.src), source_digest(root))
            library = os.path.join(root, "updated", "libkernels.so")
            self.assertTrue(updated.build(compiles.diff, library, os.path.join(root, "build.log")))
            self.assertEqual((ctypes.CDLL(library)._Z6answerv(), ctypes.CDLL(library)._Z5otherv()), (43, 8))

            # A slot whose build files name what this machine lacks (carried from a machine with
            # another CMake) links, and rebuilds itself when it must compile.
            os.remove(os.path.join(updated.src, "kernels", "CMakeLists.txt"))
            carried = BuildSlot(args.work_dir, 0, 1)
            carried.prepare(root)
            self.assertEqual(carried.preparation, "reused for linking")
            linked = os.path.join(root, "linked", "libkernels.so")
            self.assertTrue(carried.link(os.path.join(root, "nothing"), linked, os.path.join(root, "link.log")))
            self.assertEqual(ctypes.CDLL(linked)._Z6answerv(), 42)
            library = os.path.join(root, "rebuilt", "libkernels.so")
            self.assertTrue(carried.build(compiles.diff, library, os.path.join(root, "build.log")))
            self.assertEqual(ctypes.CDLL(library)._Z6answerv(), 43)
            self.assertTrue(os.path.isfile(os.path.join(carried.src, "kernels", "CMakeLists.txt")))

            # A slot cut off while it held a mutant (patched, then nothing more) is rebuilt, unpatched.
            run, calls = subprocess.run, []

            def cut_off_after_the_patch(*arguments, **options):
                if calls:
                    raise KeyboardInterrupt
                calls.append(arguments)
                return run(*arguments, **options)

            with mock.patch("mutant_builds.subprocess.run", side_effect=cut_off_after_the_patch):
                with self.assertRaises(KeyboardInterrupt):
                    carried.build(compiles.diff, None, os.path.join(root, "build.log"))
            interrupted = BuildSlot(args.work_dir, 0, 1)
            interrupted.prepare(root)
            self.assertEqual(interrupted.preparation, "built")
            with open(os.path.join(interrupted.src, "kernels", "answer.cpp"), encoding="utf-8") as file:
                self.assertEqual(file.read(), self.SOURCE)
            # So is one configured for other architectures.
            with mock.patch.dict(os.environ, {"CMAKE_CUDA_ARCHITECTURES": "80"}):
                other = BuildSlot(args.work_dir, 0, 1)
                other.prepare(root)
            self.assertEqual(other.preparation, "built")

    def test_a_slot_builds_mutants_and_counts_compile_failures_apart(self):
        with tempfile.TemporaryDirectory() as root:
            slot, compiles, broken, args = self.prepared(root)
            work = args.work_dir
            campaign = Campaign(args, [(compiles, "fake/answer"), (broken, "fake/answer")], lanes=[])
            campaign.run([slot])
            with open(os.path.join(slot.src, "kernels", "answer.cpp"), encoding="utf-8") as file:
                restored = file.read()
            leftovers = (
                os.listdir(os.path.join(work, "libraries")) if os.path.isdir(os.path.join(work, "libraries")) else []
            )
        outcomes = {r["mutant"]: (r["outcome"], r["stage"]) for r in campaign.results}
        self.assertEqual(
            outcomes, {compiles.id: (ctest_junit.NOT_RUN, "build"), broken.id: (ctest_junit.NOT_COMPILING, "build")}
        )
        self.assertEqual(restored, self.SOURCE)
        self.assertEqual(leftovers, [])

    def test_a_unit_compile_never_reads_a_tree_a_header_mutant_patches(self):
        # Slot 0's tree serves every unit compile (Campaign.compile_alone) and may build a header's
        # mutant meanwhile: a unit compile asked for while the header is patched must wait for it.
        with tempfile.TemporaryDirectory() as work:
            slot = BuildSlot(work, 0, 1)
            source, header = (os.path.join(slot.src, "kernels", name) for name in ("answer.cpp", "answer.h"))
            os.makedirs(os.path.dirname(source))
            os.makedirs(slot.build_dir)
            for path, text in ((source, self.SOURCE), (header, "#define ANSWER 42\n")):
                with open(path, "w", encoding="utf-8") as file:
                    file.write(text)
            slot.can_build, slot.digest, slot.toolchain = True, "digest", "toolchain"
            slot.unpatched = os.path.join(slot.folder, "unpatched-objects")
            slot._units, slot._unit_checked = {source: (f"c++ -c {source} -o answer.o", "answer.o")}, {source}
            header_mutant = "".join(
                difflib.unified_diff(
                    ["#define ANSWER 42\n"], ["#define ANSWER 43\n"], "a/kernels/answer.h", "b/kernels/answer.h"
                )
            )
            seen, settled, compiling, run = [], threading.Event(), [], subprocess.run

            class Parking(threading.Condition):  # a unit compile that waits for the slot says so
                def wait(self, timeout=None):
                    settled.set()
                    return super().wait(timeout)

            slot._compiling._condition = Parking()

            def compile_unit():
                seen.append(slot.compile_unit(self.mutant("const_plus_1", "43").diff, work + "/objects", work + "/log"))

            def fake_run(command, *arguments, **options):
                if isinstance(command, str):  # the unit's compile command: which header does it read?
                    with open(header, encoding="utf-8") as file:
                        seen.append(file.read())
                    settled.set()
                    return subprocess.CompletedProcess(command, 0)
                if command[:2] == ["cmake", "--build"]:  # the header mutant's build: the header is patched
                    compiling.append(threading.Thread(target=compile_unit))
                    compiling[0].start()
                    settled.wait(60)  # until the compile has read the tree, or waits for the slot
                    return subprocess.CompletedProcess(command, 0)
                return run(command, *arguments, **options)

            with mock.patch("mutant_builds.subprocess.run", side_effect=fake_run):
                self.assertTrue(slot.build(header_mutant, None, os.path.join(work, "build.log")))
                compiling[0].join()
        self.assertEqual(seen, ["#define ANSWER 42\n", True], "a unit compiled against a header mutant")


    def test_catalogue_libraries_are_built_with_the_patch_header(self):
        with tempfile.TemporaryDirectory() as root:
            self.make_project(root)
            header = "Mutant: answer\nVariant: fake/answer\nBug: answers 43\n\n"
            bug = catalogue.parse("answer", header + self.mutant("const_plus_1", "43").diff)
            libraries = catalogue_run.Libraries(os.path.join(root, "mutants"), 1, root)
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertTrue(libraries.build(bug))
            self.assertEqual(ctypes.CDLL(libraries.path(bug))._Z6answerv(), 43)
            with open(os.path.join(libraries.slot.src, "kernels", "answer.cpp"), encoding="utf-8") as file:
                self.assertEqual(file.read(), self.SOURCE)


class Lanes(unittest.TestCase):
    def test_each_lane_has_a_resource_specification_of_one_gpu(self):
        with tempfile.TemporaryDirectory() as folder:
            fake = os.path.join(folder, "nvidia-smi")
            with open(fake, "w", encoding="utf-8") as file:
                file.write("#!/bin/sh\nprintf '0\\n1\\n'\n")  # two GPUs
            os.chmod(fake, 0o755)
            path = os.environ["PATH"]
            visible = os.environ.pop("CUDA_VISIBLE_DEVICES", None)  # else it, not nvidia-smi, names the GPUs
            os.environ["PATH"] = f"{folder}:{path}"
            try:
                lanes = gpu_lanes(folder, 3)
            finally:
                os.environ["PATH"] = path
                if visible is not None:
                    os.environ["CUDA_VISIBLE_DEVICES"] = visible
            specs = []
            for spec in [lane.spec for lane in lanes] + [lanes[0].gpu.large_spec, lanes[3].gpu.large_spec]:
                with open(spec, encoding="utf-8") as file:
                    specs.append(json.load(file)["local"][0]["gpus"])
        zero, one = [{"id": "0", "slots": 16}], [{"id": "1", "slots": 16}]
        self.assertEqual(specs, [zero] * 3 + [one] * 3 + [zero, one])
        self.assertEqual(len({lane.spec for lane in lanes} | {lanes[0].gpu.large_spec}), 7)
        self.assertIs(lanes[0].gpu, lanes[2].gpu)
        self.assertIsNot(lanes[0].gpu, lanes[3].gpu)


class LargeBatches(unittest.TestCase):
    """Campaign.test over a fake stage runner: a survivor's large stage waits without a lane and
    runs alone on its GPU but for sanitizer stages, with the others waiting then, in batches."""

    LANES = 3

    def fake_stages(self, build_dir, library_dir, label, spec, stages, log_prefix):
        (stage, _, _), = stages
        with self.guard:
            self.running[stage] += 1
            if self.running["large"] and self.running["tests"]:
                self.overlaps.append(label)
        number = int(label.split("/")[1])
        time.sleep(0.005 if stage == "large" else 0.01 * (number % 4 + 1))
        with self.guard:
            self.running[stage] -= 1
        killed = ctest_junit.Verdict(ctest_junit.KILLED, ("an entry (Failed)",))
        survived = ctest_junit.Verdict(ctest_junit.SURVIVED)
        if stage == "tests":
            return (killed, stage) if number % 3 == 0 else (survived, "")
        if stage == "sanitizer":
            return (survived, "")
        return (killed, stage) if number % 3 == 1 else (survived, "")

    def test_large_stages_run_alone_in_batches_and_every_pair_is_judged(self):
        self.guard, self.overlaps = threading.Lock(), []
        self.running = {"tests": 0, "sanitizer": 0, "large": 0}
        gpu = Gpu(SharedLock(), "large.json", self.LANES)
        lanes = [Lane(f"lane{index}.json", gpu) for index in range(self.LANES)]
        pairs = [(types.SimpleNamespace(id=f"m{number}"), f"v/{number}") for number in range(24)]
        with tempfile.TemporaryDirectory() as work:
            args = argparse.Namespace(budget_s=None, work_dir=work, build_dir=work)
            campaign = Campaign(args, pairs, lanes)
            printed = io.StringIO()
            with mock.patch("run_mutants.run_stages", side_effect=self.fake_stages), mock.patch(
                "ctest_runs.gpu_probe_failure", return_value=None
            ), contextlib.redirect_stdout(printed):
                with ThreadPoolExecutor(self.LANES) as testers:
                    for mutant, label in pairs:
                        library = os.path.join(work, mutant.id, "libkernels.so")
                        testers.submit(campaign.test, mutant, label, library, [1])
        outcomes = {r["variant"]: (r["outcome"], r["stage"]) for r in campaign.results}
        expected = {
            f"v/{n}": (ctest_junit.KILLED, "tests")
            if n % 3 == 0
            else (ctest_junit.KILLED, "large")
            if n % 3 == 1
            else (ctest_junit.SURVIVED, "")
            for n in range(24)
        }
        self.assertEqual(outcomes, expected)
        self.assertEqual(self.overlaps, [], "a large stage ran beside a lane's tests")
        batches = [int(n) for n in re.findall(r"the large stages of (\d+) pairs", printed.getvalue())]
        self.assertEqual(sum(batches), 16)
        self.assertLess(len(batches), 16 // 2, f"the large stages ran one by one: {batches}")


class Report(unittest.TestCase):
    """report.py on synthetic results: every outcome, triage, a contradiction."""

    def results(self):
        mutant = {"file": "kernels/x.cu", "line": 1, "operator": "op", "diff": "--- a/x\n+++ b/x\n"}
        mutants = [
            {
                **mutant,
                "id": "a",
                "op_class": "relational",
                "variants": ["r/x", "r/y"],
                "diff": "--- a/kernels/x.cu\n+++ b/kernels/x.cu\n@@ -1 +1 @@\n-a < b\n+a <= b\n",
            },
            {**mutant, "id": "b", "op_class": "barrier", "variants": ["r/x"]},
            {**mutant, "id": "c", "op_class": "constant", "variants": ["r/y"]},
            {**mutant, "id": "d", "op_class": "launch_shape", "variants": ["r/x"]},
            {**mutant, "id": "e", "op_class": "constant", "variants": ["r/y"]},
        ]
        outcomes = [
            ("a", "r/x", ctest_junit.KILLED),
            ("a", "r/y", ctest_junit.SURVIVED),
            ("b", "r/x", ctest_junit.KILLED_BY_TIMEOUT),
            ("c", "r/y", ctest_junit.SURVIVED),
            ("d", "r/x", ctest_junit.NOT_COMPILING),
            ("e", "r/y", ctest_junit.NOT_RUN),
        ]
        return {
            "meta": {
                "date": "2026-11-22 10:00 UTC",
                "machine": "test: 16 cores, 1 x H100",
                "commit": "abc",
                "suite": "5eed",
                "mode": "full",
                "budget_s": None,
                "wall_s": 5,
            },
            "mutants": mutants,
            "results": [
                {
                    "mutant": m,
                    "variant": v,
                    "outcome": o,
                    "stage": "tests",
                    "killed_by": ["x.int.v (Failed)"] if o.startswith("killed") else [],
                    "seconds": 1,
                    "log": "",
                }
                for m, v, o in outcomes
            ],
        }

    def written_report(self, equivalents, named=None):
        """The report of self.results(): (sizes of the files written, report.json, report.md, survivors.md)."""
        with tempfile.TemporaryDirectory() as out:
            paths = report.write_report(self.results(), equivalents, out, named)
            sizes = [os.path.getsize(p) for p in paths]
            with open(os.path.join(out, "report.json"), encoding="utf-8") as file:
                summary = json.load(file)
            with open(os.path.join(out, "report.md"), encoding="utf-8") as file:
                text = file.read()
            with open(os.path.join(out, "survivors.md"), encoding="utf-8") as file:
                survivors = file.read()
        return sizes, summary, text, survivors

    def test_tables_scores_and_survivors(self):
        sizes, summary, text, survivors = self.written_report({("c", None): "reason", ("b", "r/x"): "wrong"})
        self.assertEqual(len(sizes), 5 if HAVE_MATPLOTLIB else 4)
        self.assertTrue(all(size > 0 for size in sizes))
        x, y = summary["variants"]["r/x"], summary["variants"]["r/y"]
        self.assertEqual(
            (x["generated"], x["killed"], x["killed_timeout"], x["not_compiling"], x["score"]), (3, 1, 1, 1, 1.0)
        )
        self.assertEqual((y["generated"], y["survived"], y["equivalent"], y["not_run"], y["score"]), (3, 1, 1, 1, 0.0))
        self.assertEqual(x["classes"]["barrier"]["killed_timeout"], 1)
        self.assertEqual(summary["survivors"], {"a": ["r/y"]})
        self.assertIn("| r/x | 3 | 2 (1 by timeout) | 0 | 0 | 1 | 0 | 100.0 % |", text)
        self.assertIn("| r/y | 3 | 0 | 1 | 1 | 0 | 1 | 0.0 % |", text)
        self.assertIn("| r/y | relational | 1 | 0 | 1 | 0 | 0 | 0 | 0.0 % |", text)
        self.assertIn("b [r/x]: x.int.v (Failed)", text)
        self.assertIn("+a <= b", survivors)
        self.assertEqual(report.below(self.results(), {("c", None): "reason"}, 0.95), [("r/y", 0.0)])

    def test_named_survivors_keep_their_score_and_show_their_reason(self):
        named = {("a", "r/y"): "a race no schedule opens"}
        _, summary, text, survivors = self.written_report({("c", None): "reason"}, named)
        self.assertEqual((summary["variants"]["r/y"]["survived"], summary["variants"]["r/y"]["score"]), (1, 0.0))
        self.assertEqual(summary["named_survivors"], {"a@r/y": "a race no schedule opens"})
        self.assertEqual(summary["survivors_awaiting_triage"], 0)
        self.assertIn("- `a`: r/y. Named: r/y: a race no schedule opens", text)
        self.assertIn("1 of the pairs are named in named_survivors.txt", text)
        self.assertIn("Named (r/y): a race no schedule opens", survivors)

    def test_a_campaign_over_several_runs_says_so(self):
        results = self.results()
        runs = [
            {"date": "2026-11-22 10:00 UTC", "machine": "one: 16 cores, 1 x H100", "wall_s": 3},
            {"date": "2026-11-23 09:00 UTC", "machine": "two: 16 cores, 1 x H100", "wall_s": 2},
        ]
        results["meta"]["runs"] = runs
        with tempfile.TemporaryDirectory() as out:
            report.write_report(results, {}, out)
            with open(os.path.join(out, "report.md"), encoding="utf-8") as file:
                text = file.read()
        self.assertIn(
            "Machine: one: 16 cores, 1 x H100; two: 16 cores, 1 x H100. Commit abc (suite 5eed), mode: full, 5 s over 2 runs "
            "(2026-11-22 10:00 UTC to 2026-11-23 09:00 UTC).",
            text,
        )

    def test_a_catalogue_run_says_how_each_kill_was_reproduced(self):
        results = self.results()
        results["mutants"][3]["op_class"] = "catalogue"
        how = {("a", "r/x"): "kcheck: exit 1", ("b", "r/x"): "NOT REPRODUCED (kcheck: exit 0)", ("a", "r/y"): "-"}
        for result in results["results"]:
            result["reproduced"] = how.get((result["mutant"], result["variant"]), "-")
        with tempfile.TemporaryDirectory() as out:
            report.write_report(results, {}, out)
            with open(os.path.join(out, "report.md"), encoding="utf-8") as file:
                text = file.read()
            with open(os.path.join(out, "pairs.md"), encoding="utf-8") as file:
                pairs = file.read()
            with open(os.path.join(out, "report.json"), encoding="utf-8") as file:
                summary = json.load(file)
        self.assertIn("1 of the 2 kills reproduced", text)
        self.assertIn("| catalogue | 1 | 0 | 0 | 0 | 1 | 0 | n/a |", text)
        self.assertIn("| `a` | r/x | killed | tests | 1 | kcheck: exit 1 | x.int.v (Failed) |", pairs)
        self.assertEqual(summary["reproduction"], {"kills": 2, "reproduced": 1})

    def test_a_generated_run_says_its_kills_were_not_reproduced(self):
        _, summary, text, _ = self.written_report({})
        self.assertIn("Kills were not reproduced", text)
        self.assertIsNone(summary["reproduction"])

    def test_no_operand_order_section_without_swap_mutants(self):
        _, summary, text, _ = self.written_report({})
        self.assertNotIn("Operand order", text)
        self.assertNotIn("operand_order", summary)

    def test_operand_order_per_variant_from_its_contract(self):
        """Swaps on a variant that keeps order (commutative_only=0), one that admits only
        commutative ops (=1), one whose contract has no flag and one with no contract line."""
        contracts = (
            "# a comment: commutative_only=1\n"
            "s/keeps deterministic=1 cross_block=0 in_place=0 stable=0 commutative_only=0 kinds=inclusive\n"
            "s/keeps block=32 max_length=1024 commutative_only=1\n"
            "s/free deterministic=1 cross_block=0 in_place=0 stable=0 commutative_only=1 ops=int:sum\n"
            "s/silent deterministic=1 cross_block=0 in_place=0 stable=0 kinds=inclusive\n"
        )
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "declared_contracts.txt")
            with open(path, "w", encoding="utf-8") as file:
                file.write(contracts)
            flags = report.load_order_flags(path)
            self.assertEqual(report.load_order_flags(os.path.join(folder, "none.txt")), {})
            with open(path, "a", encoding="utf-8") as file:
                file.write("s/bad deterministic=1 commutative_only=yes\n")
            with self.assertRaises(ValueError):
                report.load_order_flags(path)
        self.assertEqual(flags, {"s/keeps": True, "s/free": False})

        results = self.results()
        swap = {"file": "kernels/s.cu", "line": 3, "operator": "swap_operands", "op_class": "operand_order"}
        results["mutants"] += [
            {**swap, "id": f"s.cu:{n}:swap_operands:0", "variants": labels, "diff": f"--- a\n+++ b\n-{n}\n"}
            for n, labels in ((3, ["s/keeps", "s/free"]), (4, ["s/keeps", "s/silent"]), (5, ["s/keeps", "s/none"]))
        ]
        results["results"] += [
            {"mutant": m, "variant": v, "outcome": o, "stage": "tests", "killed_by": [], "seconds": 1, "log": ""}
            for m, v, o in (
                ("s.cu:3:swap_operands:0", "s/keeps", ctest_junit.KILLED),
                ("s.cu:3:swap_operands:0", "s/free", ctest_junit.SURVIVED),
                ("s.cu:4:swap_operands:0", "s/keeps", ctest_junit.KILLED_BY_TIMEOUT),
                ("s.cu:4:swap_operands:0", "s/silent", ctest_junit.SURVIVED),
                ("s.cu:5:swap_operands:0", "s/keeps", ctest_junit.SURVIVED),
                ("s.cu:5:swap_operands:0", "s/none", ctest_junit.KILLED),
            )
        ]
        with tempfile.TemporaryDirectory() as out:
            report.write_report(results, {}, out, order_flags=flags)
            with open(os.path.join(out, "report.md"), encoding="utf-8") as file:
                text = file.read()
            with open(os.path.join(out, "report.json"), encoding="utf-8") as file:
                summary = json.load(file)
        section = text[text.index("## Operand order") : text.index("## Survivors")]
        self.assertIn(
            "\n".join(
                [
                    "| variant | keeps order | swap mutants | killed | survived |",
                    "| --- | --- | --- | --- | --- |",
                    "| s/free | no | 1 | 0 | 1, not required: `s.cu:3:swap_operands:0` |",
                    "| s/keeps | yes | 3 | 2 | 1: `s.cu:5:swap_operands:0` |",
                    "| s/none | ? | 1 | 1 | 0 |",
                    "| s/silent | ? | 1 | 0 | 1: `s.cu:4:swap_operands:0` |",
                ]
            ),
            section,
        )
        self.assertIn(
            "Not every operand swap is killed on the variants that keep order (1 of the 4 here): pairs survived 1, "
            "not judged (not compiling, not run or error) 0. Variants that do not declare commutative_only (`?`): 2.",
            section,
        )
        self.assertLess(text.index("## Variant x operator class"), text.index("## Operand order"))
        self.assertEqual(
            summary["operand_order"]["s/keeps"],
            {
                "keeps_order": True,
                "swap_mutants": 3,
                "killed": 2,
                "equivalent": [],
                "survived": ["s.cu:5:swap_operands:0"],
                "not_judged": 0,
            },
        )
        self.assertIsNone(summary["operand_order"]["s/silent"]["keeps_order"])

        # A survivor the triage judges equivalent for the variant is shown so, and passes the verdict.
        with tempfile.TemporaryDirectory() as out:
            report.write_report(results, {("s.cu:5:swap_operands:0", "s/keeps"): "lane 0 alone"}, out, order_flags=flags)
            with open(os.path.join(out, "report.md"), encoding="utf-8") as file:
                text = file.read()
        self.assertIn("| s/keeps | yes | 3 | 2 | 1: `s.cu:5:swap_operands:0` (equivalent, triage) |", text)
        self.assertIn(
            "Every operand swap is killed on every variant that keeps order (1 of the 4 here), but 1 that the "
            "triage judges equivalent there (equivalent.txt gives each reason).",
            text,
        )

        results["results"][-2]["outcome"] = ctest_junit.KILLED
        with tempfile.TemporaryDirectory() as out:
            report.write_report(results, {}, out, order_flags=flags)
            with open(os.path.join(out, "report.md"), encoding="utf-8") as file:
                text = file.read()
        self.assertIn("Every operand swap is killed on every variant that keeps order (1 of the 4 here).", text)

    def test_triage_lines_need_a_reason(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as file:
            file.write("# comment\nsome/id:1:op:0\n")
        try:
            with self.assertRaises(ValueError):
                report.load_triage(file.name)
        finally:
            os.unlink(file.name)


class Resume(unittest.TestCase):
    """run_mutants.py --resume: the pairs an earlier run of the same suite and mode judged."""

    MUTANTS = tuple(
        Mutant(o, "f", 1, "op", "c", ("r/x",), f"diff of {o}") for o in ("killed", "survived", "not_compiling")
    )

    def write(self, folder, meta):
        path = os.path.join(folder, "results.json")
        outcomes = [ctest_junit.KILLED, ctest_junit.SURVIVED, ctest_junit.NOT_COMPILING, ctest_junit.NOT_RUN]
        outcomes.append(ctest_junit.ERROR)
        with open(path, "w", encoding="utf-8") as file:
            json.dump(
                {
                    "meta": meta,
                    "mutants": [asdict(m) for m in self.MUTANTS]
                    + [{"id": o, "diff": f"diff of {o}"} for o in outcomes[3:]],
                    "results": [{"mutant": o, "variant": "r/x", "outcome": o} for o in outcomes],
                },
                file,
            )
        return path

    def test_judged_pairs_are_kept_the_rest_run_again(self):
        meta = {"date": "d", "machine": "m", "wall_s": 7, "commit": "abc", "suite": "s1", "mode": "sample 300 seed 7"}
        with tempfile.TemporaryDirectory() as folder:
            kept, runs = earlier_run(self.write(folder, meta), "s1", "sample 300 seed 7", self.MUTANTS)
        self.assertEqual({r["mutant"] for r in kept}, {"killed", "survived", "not_compiling"})
        # A run written before runs named their suite takes the file's.
        self.assertEqual(runs, [{"date": "d", "machine": "m", "wall_s": 7, "commit": "abc", "suite": "s1"}])

    def test_a_mutant_whose_diff_changed_runs_again(self):
        meta = {"date": "d", "machine": "m", "wall_s": 7, "commit": "abc", "suite": "s1", "mode": "full"}
        today = [self.MUTANTS[0], Mutant("survived", "f", 1, "op", "c", ("r/x",), "another diff"), self.MUTANTS[2]]
        with tempfile.TemporaryDirectory() as folder:
            kept, _ = earlier_run(self.write(folder, meta), "s1", "full", today)
        self.assertEqual({r["mutant"] for r in kept}, {"killed", "not_compiling"})

    def test_a_mutant_whose_lines_moved_keeps_its_result_under_todays_id(self):
        meta = {"date": "d", "machine": "m", "wall_s": 7, "commit": "abc", "suite": "s1", "mode": "full"}
        before = Mutant("f:1:op:0", "kernels/f.cu", 1, "op", "c", ("r/x",), "@@ -1,2 +1,2 @@\n-a\n+b\n c\n")
        moved = Mutant("f:5:op:0", "kernels/f.cu", 5, "op", "c", ("r/x",), "@@ -5,2 +5,2 @@\n-a\n+b\n c\n")
        twin = Mutant("f:9:op:0", "kernels/f.cu", 9, "op", "c", ("r/x",), "@@ -9,2 +9,2 @@\n-a\n+b\n c\n")
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "results.json")
            with open(path, "w", encoding="utf-8") as file:
                json.dump(
                    {
                        "meta": meta,
                        "mutants": [asdict(before)],
                        "results": [{"mutant": before.id, "variant": "r/x", "outcome": ctest_junit.KILLED}],
                    },
                    file,
                )
            kept, _ = earlier_run(path, "s2", "full", [moved], across_suites=True)
            self.assertEqual([(r["mutant"], r["suite"]) for r in kept], [("f:5:op:0", "s1")])
            # Two of today's mutants with its key: which one it was is unknown, so both run again.
            self.assertEqual(earlier_run(path, "s2", "full", [moved, twin], across_suites=True)[0], [])

    def test_the_runs_before_are_carried_on(self):
        runs = [{"date": "d1", "machine": "m1", "wall_s": 3}, {"date": "d2", "machine": "m2", "wall_s": 4}]
        meta = {
            "date": "d1",
            "machine": "m1",
            "wall_s": 7,
            "commit": "abc",
            "suite": "s1",
            "mode": "full",
            "runs": runs,
        }
        with tempfile.TemporaryDirectory() as folder:
            carried = earlier_run(self.write(folder, meta), "s1", "full", self.MUTANTS)[1]
        self.assertEqual(carried, [{**run, "commit": "abc", "suite": "s1"} for run in runs])

    def test_across_suites_keeps_only_the_kills_each_named_with_its_suite(self):
        meta = {"date": "d", "machine": "m", "wall_s": 7, "commit": "abc", "suite": "s1", "mode": "full"}
        with tempfile.TemporaryDirectory() as folder:
            kept, runs = earlier_run(self.write(folder, meta), "s2", "full", self.MUTANTS, across_suites=True)
        self.assertEqual([(r["mutant"], r["suite"], r["commit"]) for r in kept], [("killed", "s1", "abc")])
        self.assertEqual(runs, [{"date": "d", "machine": "m", "wall_s": 7, "commit": "abc", "suite": "s1"}])

    def test_across_suites_keeps_the_survivors_judged_equivalent(self):
        meta = {"date": "d", "machine": "m", "wall_s": 7, "commit": "abc", "suite": "s1", "mode": "full"}
        with tempfile.TemporaryDirectory() as folder:
            path = self.write(folder, meta)
            for equivalents in ({("survived", None): "why"}, {("survived", "r/x"): "why"}):
                kept, _ = earlier_run(path, "s2", "full", self.MUTANTS, True, equivalents)
                self.assertEqual({r["mutant"] for r in kept}, {"killed", "survived"})
            kept, _ = earlier_run(path, "s2", "full", self.MUTANTS, True, {("survived", "r/other"): "why"})
            self.assertEqual({r["mutant"] for r in kept}, {"killed"})

    def test_across_suites_keeps_every_judged_pair_of_the_same_suite(self):
        meta = {"date": "d", "machine": "m", "wall_s": 7, "commit": "abc", "suite": "s1", "mode": "full"}
        with tempfile.TemporaryDirectory() as folder:
            kept, _ = earlier_run(self.write(folder, meta), "s1", "full", self.MUTANTS, across_suites=True)
        self.assertEqual({r["mutant"] for r in kept}, {"killed", "survived", "not_compiling"})

    def test_the_report_names_the_kills_of_earlier_suites(self):
        results = {
            "meta": {"suite": "s2"},
            "results": [
                {"mutant": "a", "variant": "r/x", "outcome": "killed", "suite": "s1", "commit": "abc"},
                {"mutant": "b", "variant": "r/x", "outcome": "survived", "suite": "s2", "commit": "def"},
            ],
        }
        self.assertIn(
            "Kept from earlier suites: 1 kills and 0 equivalent survivors under suite s1 (commit abc)",
            report._earlier_suites(results),
        )
        results["results"].pop(0)
        self.assertEqual(report._earlier_suites(results), "")

    def test_another_suite_or_mode_is_refused_and_no_file_is_a_fresh_start(self):
        meta = {"date": "d", "machine": "m", "wall_s": 7, "commit": "abc", "suite": "s1", "mode": "full"}
        with tempfile.TemporaryDirectory() as folder:
            path = self.write(folder, meta)
            for suite, mode in (("s2", "full"), ("s1", "sample 300 seed 7")):
                with self.assertRaises(AnotherCampaign) as refusal:
                    earlier_run(path, suite, mode, self.MUTANTS)
                self.assertIn("holds a run in mode 'full' over suite s1 (commit abc)", str(refusal.exception))
            self.assertEqual(earlier_run(os.path.join(folder, "none.json"), "s1", "full", self.MUTANTS), ([], []))

    def test_the_suite_digest_follows_the_tests_not_the_documentation(self):
        with tempfile.TemporaryDirectory() as root:
            for path in ("kernels/a.cu", "test/t.cpp", "README.md"):
                os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
                with open(os.path.join(root, path), "w", encoding="utf-8") as file:
                    file.write("one")
            before = suite_digest(root)
            with open(os.path.join(root, "README.md"), "w", encoding="utf-8") as file:
                file.write("two")
            self.assertEqual(suite_digest(root), before)
            with open(os.path.join(root, "test", "t.cpp"), "w", encoding="utf-8") as file:
                file.write("two")
            self.assertNotEqual(suite_digest(root), before)
            # The properties judge mutants too.
            before = suite_digest(root)
            os.makedirs(os.path.join(root, "fuzz"))
            with open(os.path.join(root, "fuzz", "p.cpp"), "w", encoding="utf-8") as file:
                file.write("one")
            self.assertNotEqual(suite_digest(root), before)

    def test_a_sitting_cut_off_keeps_what_it_judged(self):
        """Every judged pair rewrites results.json: a run killed after one pair leaves that pair."""
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "results.json")
            earlier = [{"mutant": "killed", "variant": "r/x", "outcome": ctest_junit.KILLED}]
            meta = {"commit": "abc", "suite": "s1", "mode": "full", "budget_s": None}
            results_file = ResultsFile(path, meta, [], earlier, [{"date": "d1", "machine": "m1", "wall_s": 3}])
            campaign = Campaign(argparse.Namespace(budget_s=None), [], [], results_file=results_file)
            campaign.record(self.MUTANTS[1], ["r/x"], ctest_junit.Verdict(ctest_junit.SURVIVED), "sanitizer", 9.0)
            with open(path, encoding="utf-8") as file:
                written = json.load(file)
        self.assertEqual(
            [(r["mutant"], r["outcome"]) for r in written["results"]], [("killed", "killed"), ("survived", "survived")]
        )
        self.assertEqual(len(written["meta"]["runs"]), 2)
        self.assertEqual((written["meta"]["suite"], written["meta"]["date"]), ("s1", "d1"))
        self.assertEqual((written["meta"]["runs"][1]["suite"], written["results"][1]["suite"]), ("s1", "s1"))


    def test_a_sitting_interrupted_records_nothing_after_the_signal(self):
        """After SIGINT a build or a test that failed may have been killed by the same signal (a
        timeout's): it is recorded neither as a mutant that does not compile nor as a kill."""
        self.addCleanup(run_mutants.STOPPING.clear)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "results.json")
            meta = {"commit": "abc", "suite": "s1", "mode": "full", "budget_s": None}
            results_file = ResultsFile(path, meta, [], [], [])
            campaign = Campaign(argparse.Namespace(budget_s=None), [], [], results_file=results_file)
            campaign.record(self.MUTANTS[0], ["r/x"], ctest_junit.Verdict(ctest_junit.KILLED), "tests", 2.0)
            with self.assertRaises(KeyboardInterrupt):
                run_mutants.stop_on_interrupt(signal.SIGINT, None)
            campaign.record(self.MUTANTS[2], ["r/x"], ctest_junit.Verdict(ctest_junit.NOT_COMPILING), "build", 9.0)
            campaign.record(self.MUTANTS[1], ["r/y"], ctest_junit.Verdict(ctest_junit.KILLED), "tests", 1.0)
            with open(path, encoding="utf-8") as file:
                written = json.load(file)
        self.assertEqual([(r["mutant"], r["variant"]) for r in written["results"]], [("killed", "r/x")])
        self.assertEqual([(r["mutant"], r["variant"]) for r in campaign.results], [("killed", "r/x")])

class Rejudge(unittest.TestCase):
    """run_mutants.py --rejudge: earlier kills judged again, and what they are now."""

    def campaign(self, folder, name, results, diff="diff"):
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as file:
            json.dump({"mutants": [{"id": r[0], "diff": diff} for r in results],
                       "results": [{"mutant": m, "variant": "r/x", "outcome": o} for m, o in results]}, file)
        return path

    def test_only_kills_of_todays_mutants_are_drawn(self):
        today = [Mutant(i, "f", 1, "op", "c", ("r/x",), "diff") for i in ("a", "b", "c", "d")]
        with tempfile.TemporaryDirectory() as folder:
            first = self.campaign(folder, "1.json", [("a", ctest_junit.KILLED), ("b", ctest_junit.SURVIVED),
                                                     ("c", ctest_junit.NOT_COMPILING), ("gone", ctest_junit.KILLED)])
            second = self.campaign(folder, "2.json", [("d", ctest_junit.KILLED_BY_TIMEOUT)])
            changed = self.campaign(folder, "3.json", [("c", ctest_junit.KILLED)], diff="another diff")
            kills = rejudge.earlier_kills([first, second, changed], today)
        self.assertEqual(kills, {("a", "r/x"), ("d", "r/x")})
        self.assertEqual([(m.id, v) for m, v in rejudge.drawn(kills, today, 1, seed=3)],
                         [(m.id, v) for m, v in rejudge.drawn(kills, today, 1, seed=3)])
        self.assertEqual(len(rejudge.drawn(kills, today, 5, seed=3)), 2)

    def test_a_kill_not_killed_now_is_reported(self):
        kills = {("a", "r/x"), ("b", "r/x"), ("c", "r/x"), ("d", "r/x")}
        results = [{"mutant": "a", "variant": "r/x", "outcome": ctest_junit.KILLED_BY_TIMEOUT},
                   {"mutant": "b", "variant": "r/x", "outcome": ctest_junit.SURVIVED},
                   {"mutant": "c", "variant": "r/x", "outcome": ctest_junit.ERROR},
                   {"mutant": "d", "variant": "r/x", "outcome": ctest_junit.NOT_RUN}]
        with tempfile.TemporaryDirectory() as folder:
            lost, path = rejudge.write_comparison(kills, {"meta": {}, "results": results}, folder)
            with open(path, encoding="utf-8") as file:
                text = file.read()
        self.assertEqual(lost, [("b", "r/x"), ("c", "r/x")])
        # A pair the budget left unrun is not a lost kill.
        self.assertIn("4 pairs that earlier campaigns killed, judged again: 1 error, 1 killed, 1 not_run, 1 survived.",
                      text)
        self.assertIn("- `b` [r/x]: survived", text)


def generate_key(fields):
    return mutant_key(fields["file"], fields["operator"], fields["diff"])


def _line_of(path, text):
    with open(os.path.join(ROOT, path), encoding="utf-8") as file:
        return next(n for n, line in enumerate(file, 1) if text in line)


def _enclosing_text(mutant):
    """The source from the last `struct` line above the mutant's line down to it."""
    with open(os.path.join(ROOT, mutant.file), encoding="utf-8") as file:
        lines = file.read().splitlines()[: mutant.line]
    starts = [n for n, line in enumerate(lines) if line.startswith("struct ")]
    return "\n".join(lines[starts[-1] :]) if starts else ""


if __name__ == "__main__":
    unittest.main()
