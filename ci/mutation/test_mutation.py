#!/usr/bin/env python3
"""CPU test of the mutation tool (ctest cpu.mutation.<class>): every operator on a fixture file, the
generator over today's kernels/, the lines an edit changed, the JUnit reader on a file ctest wrote
and on live ctest runs, the catalogue's patches and judgement, the committed results and the report.
Needs `patch` and the packages of ci/mutation/requirements.txt (ci/install-deps.sh)."""

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import types
import unittest
from unittest import mock

import catalogue_run
import mutant_builds
import ctest_junit
import ctest_runs
import report
import results_file
import run_mutants
from generate import Mutant, apply_edits, generate
from operators import CLASSES, find_mutations
from outside_project import Project
from run_mutants import LARGE_STAGE, SANITIZER_STAGE, TESTS_STAGE, run_stages
from source_tree import Source
from variants import load_tree, variant_files

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
FIXTURE = os.path.join(HERE, "testdata", "fixture.cu")
RESULTS = os.path.join(ROOT, "bench", "results", "mutation")
TODAYS_COUNT = 2570  # the generated mutants over kernels/ when the parser-based generator came


def fixture_mutants():
    """(operator, op_class, original line, mutated lines) of every mutation of the fixture."""
    with open(FIXTURE, encoding="utf-8") as file:
        src = Source("fixture.cu", file.read())
    lines = src.data.decode().splitlines()
    result = []
    for mutation in find_mutations(src):
        mutated = apply_edits(src.data, mutation.edits).decode().splitlines()
        result.append((mutation.operator, mutation.op_class, lines[src.line(mutation.anchor) - 1].strip(),
                       [m.strip() for m in mutated if m.strip() not in {x.strip() for x in lines}]))  # fmt: skip
    return result


def assert_patches_apply(test, patches):
    """Each (name, diff) applies exactly (no fuzz) to a fresh copy of today's kernels/ and test fixtures."""
    with tempfile.TemporaryDirectory() as copy:
        for part in ("kernels", "test/fixtures"):
            shutil.copytree(os.path.join(ROOT, part), os.path.join(copy, part))
        for name, diff in patches:
            result = subprocess.run(["patch", "-p1", "--dry-run", "--fuzz=0", "--quiet"], input=diff, text=True,
                                    cwd=copy, capture_output=True, check=False)  # fmt: skip
            test.assertEqual(result.returncode, 0, f"{name}: {result.stdout}{result.stderr}")


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


class TodaysSources(unittest.TestCase):
    """The generator over today's kernels/: enough mutants of every class, stable ids."""

    @classmethod
    def setUpClass(cls):
        cls.mutants, cls.skipped = generate(ROOT)

    def test_enough_mutants_of_every_class(self):
        self.assertGreaterEqual(len(self.mutants), TODAYS_COUNT)
        self.assertEqual({m.op_class for m in self.mutants}, set(CLASSES))
        self.assertEqual(len({v for m in self.mutants for v in m.variants}), 29)

    def test_ids_are_unique_and_triage_names_only_todays_mutants(self):
        ids = [m.id for m in self.mutants]
        self.assertEqual(len(ids), len(set(ids)))
        for path in (report.EQUIVALENTS, report.NAMED_SURVIVORS):
            for mutant, label in report.load_triage(path):
                self.assertIn(mutant, ids, f"{path}: {mutant} is no longer generated: judge it again")

    def test_ids_stay_when_comments_change_or_code_moves(self):
        """A comment added above and a blank line moved: every id of the file stays."""
        path = "kernels/scan/naive.cu"
        with tempfile.TemporaryDirectory() as copy:
            shutil.copytree(os.path.join(ROOT, "kernels"), os.path.join(copy, "kernels"))
            with open(os.path.join(copy, path), encoding="utf-8") as file:
                text = file.read()
            with open(os.path.join(copy, path), "w", encoding="utf-8") as file:
                file.write("// a new comment\n\n" + text.replace("//", "// longer:", 3))
            moved = {m.id for m in generate(copy)[0] if m.file == path}
        self.assertEqual(moved, {m.id for m in self.mutants if m.file == path})

    def test_the_functor_calls_are_swapped_in_device_code_only(self):
        swaps = [m for m in self.mutants if m.op_class == "operand_order"]
        self.assertTrue(swaps)
        self.assertTrue(all(" op(" in m.diff or "(op(" in m.diff or "=op(" in m.diff.replace(" ", "") for m in swaps))


class PatchesApply(unittest.TestCase):
    def test_every_patch_applies_cleanly_to_a_fresh_copy(self):
        assert_patches_apply(self, [(m.id, m.diff) for m in generate(ROOT)[0]])


class CommittedResults(unittest.TestCase):
    """Each campaign kept in bench/results/mutation/ maps onto today's mutants and regenerates its
    report, with the score its README states."""

    def test_each_campaign_maps_onto_todays_mutants_and_keeps_its_score(self):
        today = {m.id: m for m in generate(ROOT)[0]}
        planted = set(catalogue_run.names())
        for name in sorted(os.listdir(RESULTS)):
            folder = os.path.join(RESULTS, name)
            with self.subTest(campaign=name), open(os.path.join(folder, "results.json"), encoding="utf-8") as file:
                results = json.load(file)
                self.assertEqual(report.gpu_lost(results), [], "a campaign that lost its GPU is no score to keep")
                known = planted if results["meta"]["mode"] == "catalogue" else set(today)
                self.assertLessEqual({r["mutant"] for r in results["results"]}, known)
                with tempfile.TemporaryDirectory() as out:
                    report.write_report(results, out, today, results["meta"]["mode"] != "catalogue")
                    with open(os.path.join(out, "report.json"), encoding="utf-8") as file:
                        variants = json.load(file)["variants"]
                counts = {c: sum(v[c] for v in variants.values()) for c in report.COLUMNS}
                with open(os.path.join(folder, "README.md"), encoding="utf-8") as file:
                    killed, unjudged = counts["killed"] + counts["killed_timeout"], counts["not_run"] + counts["error"]
                    self.assertIn(f"Score {report._percent(report.score(counts))}: {killed} of {counts['generated']} "
                                  f"(mutant, variant) pairs killed, {counts['survived']} survived, "
                                  f"{counts['equivalent']} equivalent (ci/mutation/triage/), "
                                  f"{counts['not_compiling']} not compiling, {unjudged} not run or in error.", file.read())


class Report(unittest.TestCase):
    RESULTS = {"meta": {"mode": "full", "commit": "abc", "suite": "s", "wall_s": 5, "runs": [{}]},
               "mutants": [{"id": "a", "op_class": "relational"}, {"id": "b", "op_class": "operand_order"},
                           {"id": "c", "op_class": "constant"}],
               "results": [{"mutant": "a", "variant": "r/x", "outcome": "killed", "killed_by": []},
                           {"mutant": "b", "variant": "r/x", "outcome": "survived", "killed_by": []},
                           {"mutant": "c", "variant": "r/x", "outcome": "survived", "killed_by": []},
                           {"mutant": "c", "variant": "r/y", "outcome": "not_run", "killed_by": []}]}  # fmt: skip

    def test_scores_leave_out_equivalents_and_unjudged_pairs(self):
        by_variant, by_class, survivors = report.tally(self.RESULTS, {("c", None): "same code"})
        self.assertEqual(report.score(by_variant["r/x"]), 0.5)
        self.assertIsNone(report.score(by_variant["r/y"]))
        self.assertEqual(dict(survivors), {"b": ["r/x"]})
        self.assertEqual(report.below(self.RESULTS, {}, 0.9), [("r/x", 1 / 3)])

    def test_the_markdown_names_survivors_their_triage_and_a_lost_gpu(self):
        text = report.markdown(self.RESULTS, {}, {("b", "r/x"): "no test can see it"})
        self.assertIn("- `b`: r/x. Named: r/x: no test can see it", text)
        self.assertIn("## Operand order", text)
        lost = {**self.RESULTS, "results": [{"mutant": "a", "variant": "r/x", "outcome": "error",
                                             "killed_by": ["GPU lost: gpu_probe: no device"]}]}  # fmt: skip
        self.assertTrue(report.markdown(lost, {}, {}).startswith("NOT A SCORE"))

    def test_triage_lines_need_a_reason(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as file:
            file.write("a@r/x\n")
            file.flush()
            with self.assertRaises(ValueError):
                report.load_triage(file.name)


class Campaigns(unittest.TestCase):
    """Selection, resuming and re-judging, without a GPU."""

    def args(self, **given):
        fields = dict(file=None, variant=None, sample=None, seed=0, changed_since=None, operator_class=None, rejudge=None,
                      project=None)
        return types.SimpleNamespace(**{**fields, **given})

    def test_modes_select_their_pairs(self):
        m = [Mutant(f"f.cu:g:op:{i}", "kernels/r/f.cu", i, "op", c, ("r/x", "r/y"), "") for i, c in
             enumerate(["relational", "constant", "relational"])]  # fmt: skip
        self.assertEqual(len(run_mutants.select_pairs(m, self.args())), 6)
        self.assertEqual(len(run_mutants.select_pairs(m, self.args(variant="r/y"))), 3)
        self.assertEqual(len(run_mutants.select_pairs(m, self.args(operator_class="relational"))), 4)
        self.assertEqual(len(run_mutants.select_pairs(m, self.args(sample=2, seed=1))), 4)
        self.assertEqual(run_mutants.select_pairs(m, self.args(file="r/g.cu")), [])
        self.assertEqual(run_mutants.mode_of(self.args(file="r/f.cu", operator_class="constant")), "file r/f.cu, class constant")

    def test_the_runner_lists_its_plan_without_a_gpu(self):
        done = subprocess.run([sys.executable, os.path.join(HERE, "run_mutants.py"), "--list", "--variant", "scan/naive",
                               "--operator-class", "constant"], capture_output=True, text=True, check=True)  # fmt: skip
        self.assertRegex(done.stdout, r"\n\d+ mutants, \d+ \(mutant, variant\) pairs\n$")

    def test_judged_pairs_are_kept_the_rest_run_again_and_another_mode_is_refused(self):
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, "results.json")
            file = results_file.ResultsFile(path, {"commit": "c", "suite": "s", "mode": "full"}, [], [], [])
            file.write([{"mutant": "a", "variant": "r/x", "outcome": "killed"},
                        {"mutant": "b", "variant": "r/x", "outcome": "not_run"},
                        {"mutant": "gone", "variant": "r/x", "outcome": "killed"}])  # fmt: skip
            kept, runs = results_file.earlier_run(path, "s", "full", {"a", "b"})
            self.assertEqual([r["mutant"] for r in kept], ["a"])
            self.assertEqual(len(runs), 1)
            with self.assertRaises(results_file.AnotherCampaign):
                results_file.earlier_run(path, "s", "sample 3 seed 1", {"a"})

    def test_only_kills_of_todays_mutants_are_drawn_and_a_lost_kill_is_reported(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "results.json")
            with open(path, "w", encoding="utf-8") as file:
                json.dump({"results": [{"mutant": "a", "variant": "r/x", "outcome": "killed"},
                                       {"mutant": "b", "variant": "r/x", "outcome": "survived"},
                                       {"mutant": "gone", "variant": "r/x", "outcome": "killed"}]}, file)  # fmt: skip
            kills = run_mutants.earlier_kills([path], {"a", "b"})
            self.assertEqual(kills, {("a", "r/x")})
            lost, report_path = run_mutants.write_comparison(kills, {"results": [{"mutant": "a", "variant": "r/x", "outcome": "survived"}]}, folder)
            self.assertEqual(lost, [("a", "r/x")])


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
        changed = run_mutants.changed_lines(self.repo, "HEAD")
        self.assertEqual(changed, {"kernels/scan/a.cu": {3, 6, 8}, "kernels/scan/new.cu": {1, 2}})

    def test_nothing_changed_and_an_unknown_ref(self):
        self.assertEqual(run_mutants.changed_lines(self.repo, "HEAD"), {})
        with self.assertRaises(run_mutants.UnknownRef):
            run_mutants.changed_lines(self.repo, "no-such-ref")

    def test_only_the_mutants_of_changed_lines_run(self):
        mutants = [
            Mutant(f"scan/a.cu:{line}:op:0", "kernels/scan/a.cu", line, "op", "arith", ("scan/a",), "")
            for line in (2, 3, 4)
        ]
        picked = run_mutants.mutants_of(mutants, {"kernels/scan/a.cu": {3}, "kernels/scan/b.cu": {2}})
        self.assertEqual([m.id for m in picked], ["scan/a.cu:3:op:0"])


class SameCode(unittest.TestCase):
    """same_code.py: a mutant that changes only host-side sizes leaves the cubin's code as it is;
    one that changes the device code does not (scan/blelloch_padded.cu, compiled here: nvcc, no GPU)."""

    def run_tool(self, *ids):
        return subprocess.run([sys.executable, os.path.join(HERE, "same_code.py"), *ids], capture_output=True,
                              text=True, check=False)  # fmt: skip

    @unittest.skipUnless(shutil.which("nvcc") and shutil.which("readelf"), "needs nvcc and readelf")
    def test_same_and_different_code(self):
        mutants = [m for m in generate(ROOT)[0] if m.file == "kernels/scan/blelloch_padded.cu"]
        # slots() + 2: one more shared word, sized on the host; the kernels are the same.
        wider = next(m.id for m in mutants if ":slots:const_plus_1:" in m.id and "+ 2; }" in m.diff)
        # One pad word per 16 values: every shared index changes.
        denser = next(m.id for m in mutants if m.operator == "const_minus_1" and "kLogBanks = 4" in m.diff)
        done = self.run_tool(wider, denser)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.splitlines(), [f"{wider}: same code", f"{denser}: different code"])

    def test_an_unknown_id_is_an_error(self):
        done = self.run_tool("scan/blelloch_padded.cu:slots:no_such_operator:0")
        self.assertEqual(done.returncode, 2)
        self.assertIn("no mutant scan/blelloch_padded.cu:slots:no_such_operator:0", done.stderr)


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
        self.enterContext(mock.patch.object(run_mutants, "BUILD_DIR", self.build))
        self.assertEqual(
            run_stages("", "v/fail", spec, stages, prefix),
            (ctest_junit.Verdict(ctest_junit.KILLED, ("fails (Failed)",)), "tests"),
        )
        self.assertFalse(os.path.exists(prefix + ".sanitizer.log"))
        self.assertEqual(
            run_stages("", "v/pass", spec, stages, prefix), (ctest_junit.Verdict(ctest_junit.SURVIVED), "")
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


class FakeSlot:
    """A build slot whose build writes the library file; `built` lists the libraries in order."""

    def __init__(self, built):
        self.built = built

    def prepare(self, root):
        pass

    def build(self, diff, library, log):
        os.makedirs(os.path.dirname(library), exist_ok=True)
        open(library, "w", encoding="utf-8").close()
        self.built.append(library)
        return True


def fake_mutants(count, labels=("r/x",)):
    return [Mutant(f"r/f.cu:k:op:{n:02d}", "kernels/r/f.cu", n, "op", "relational", labels, f"diff {n}")
            for n in range(count)]  # fmt: skip


def pair_of(library_dir, label):
    """(mutant number, label) of a fake mutant's library folder (run_mutants.LIBRARIES/<patch name>)."""
    return int(os.path.basename(library_dir).rsplit("@", 1)[1]), label


class RunnerStopsAtALostGpu(unittest.TestCase):
    """run_mutants.main over five fake mutants on one lane, fake builds and stages, and a fake
    gpu_probe in a fake build: pair 0 is killed, the others survive their tests and their large
    stage, unless the GPU is lost. A lost GPU stops the campaign, keeps what was judged before it
    and exits non-zero."""

    def campaign(self, lost_at=None, probe_works=1000):
        """(exit status, {mutant number: (outcome, killed_by)} in results.json, stages run, report.md)."""
        ran = []

        def fake_stages(library_dir, label, spec, stages, log_prefix):
            number, stage = pair_of(library_dir, label)[0], stages[0][0]
            ran.append((number, stage))
            if stage == "tests" and number == lost_at:
                lost = ctest_junit.Entry("e", "fail", 1.0, "", "GPU LOST: no usable CUDA device, though the driver lists 1 GPU\n")
                return ctest_junit.judge(1, [lost], {}), stage
            if stage == "tests" and number == 0:
                return ctest_junit.Verdict(ctest_junit.KILLED, ("an entry (Failed)",)), stage
            return ctest_junit.Verdict(ctest_junit.SURVIVED), ""

        with tempfile.TemporaryDirectory() as folder:
            build, work = os.path.join(folder, "build"), os.path.join(folder, "work")
            probe = os.path.join(build, "test", "mutation", "gpu_probe")
            os.makedirs(os.path.dirname(probe))
            with open(probe, "w", encoding="utf-8") as file:  # works for its first `probe_works` calls
                file.write(f'#!/bin/sh\nn=$(cat "$0.calls" 2>/dev/null || echo 0); echo $((n + 1)) > "$0.calls"\n'
                           f'[ "$n" -lt {probe_works} ] || {{ echo "no CUDA-capable device is detected"; exit 1; }}\n')  # fmt: skip
            os.chmod(probe, 0o755)
            built = []
            for name, value in (("generate", lambda root: (fake_mutants(5), {})), ("prepared_slots", lambda *a: [FakeSlot(built)]),
                                ("run_stages", fake_stages), ("BUILD_DIR", build), ("LANES_PER_GPU", 1),
                                ("LIBRARIES", os.path.join(folder, "libraries"))):  # fmt: skip
                self.enterContext(mock.patch.object(run_mutants, name, value))
            self.enterContext(mock.patch.dict(os.environ, {"CUDA_VISIBLE_DEVICES": "0"}))
            self.enterContext(mock.patch.object(sys, "argv", ["run_mutants.py", "--work-dir", work]))
            with contextlib.redirect_stdout(io.StringIO()), self.assertRaises(SystemExit) as exited:
                run_mutants.main()
                raise SystemExit(0)
            with open(os.path.join(work, "results.json"), encoding="utf-8") as file:
                results = json.load(file)["results"]
            with open(os.path.join(work, "report", "report.md"), encoding="utf-8") as file:
                text = file.read()
        outcomes = {int(r["mutant"][-2:]): (r["outcome"], r["killed_by"]) for r in results}
        return exited.exception.code, outcomes, ran, text

    def test_a_gpu_lost_line_stops_the_campaign_and_keeps_what_was_judged(self):
        code, outcomes, ran, text = self.campaign(lost_at=2)
        lost = ["GPU lost: e printed 'GPU LOST: no usable CUDA device, though the driver lists 1 GPU'"]
        self.assertEqual(outcomes, {0: ("killed", ["an entry (Failed)"]), 2: ("error", lost)})
        self.assertEqual(ran, [(0, "tests"), (1, "tests"), (2, "tests")], "a stage ran after the GPU was lost")
        self.assertNotIn(code, (0, None), "the runner exited zero after losing its GPU")
        self.assertIn("the GPU was lost: r/f.cu:k:op:02 [r/x]: error: GPU lost", code)
        self.assertTrue(text.startswith("NOT A SCORE: the GPU was lost judging `r/f.cu:k:op:02` [r/x]"))

    def test_a_probe_that_fails_after_a_verdict_stops_the_campaign(self):
        # Probe calls: the start, pair 0's kill, pair 1's large stage (fails): pairs 2 to 4 never run theirs.
        code, outcomes, ran, _ = self.campaign(probe_works=2)
        lost = ["GPU lost: gpu_probe: no CUDA-capable device is detected"]
        self.assertEqual(outcomes, {0: ("killed", ["an entry (Failed)"]), 1: ("error", lost)})
        self.assertEqual([stage for _, stage in ran], ["tests"] * 5 + ["large"])
        self.assertNotIn(code, (0, None), "the runner exited zero after losing its GPU")
        self.assertIn("the campaign stopped there", code)

    def test_a_campaign_without_a_loss_judges_every_pair_and_exits_zero(self):
        code, outcomes, ran, text = self.campaign()
        self.assertEqual(code, 0)
        self.assertEqual({n: o for n, (o, _) in outcomes.items()}, {0: "killed", 1: "survived", 2: "survived",
                                                                    3: "survived", 4: "survived"})  # fmt: skip
        self.assertFalse(text.startswith("NOT A SCORE"))


class CatalogueStopsAtALostGpu(unittest.TestCase):
    """catalogue_run.main over two planted bugs on a fake build whose GPU entries skip whole, as
    without a device: the first is an error (GPU lost), the second is not run, and it exits 1."""

    def test_a_catalogue_run_stops_at_a_lost_gpu_and_exits_non_zero(self):
        first, second = catalogue_run.load()[:2]
        with tempfile.TemporaryDirectory() as folder:
            build, work = os.path.join(folder, "build"), os.path.join(folder, "mutants")
            os.makedirs(build)
            with open(os.path.join(build, "CTestTestfile.cmake"), "w", encoding="utf-8") as file:
                for bug in (first, second):  # a GPU entry of each variant, skipped as without a device
                    file.write(f'add_test({bug.name} "sh" "-c" "echo \'SKIP: no usable CUDA device\'; exit 77")\n')
                    file.write(f'set_tests_properties({bug.name} PROPERTIES SKIP_RETURN_CODE 77 LABELS "gpu;{bug.variant}")\n')
            for bug in (first, second):  # built already
                os.makedirs(os.path.join(work, bug.name))
                open(os.path.join(work, bug.name, "libkernels.so"), "w", encoding="utf-8").close()
            printed = io.StringIO()
            with mock.patch("ctest_runs.gpu_probe", return_value=(0, "")), contextlib.redirect_stdout(printed):
                self.assertEqual(catalogue_run.main([first.name, second.name], work, build, False), 1)
            with open(os.path.join(work, "results.json"), encoding="utf-8") as file:
                outcomes = {r["mutant"]: (r["outcome"], r["killed_by"]) for r in json.load(file)["results"]}
            with open(os.path.join(work, "report", "report.md"), encoding="utf-8") as file:
                text = file.read()
        lost = [f"GPU lost: {first.name} Skipped (SKIP: no usable CUDA device)"]
        self.assertEqual((outcomes[first.name], outcomes[second.name]), (("error", lost), ("not_run", [])))
        self.assertIn(f"the GPU was lost: {first.name} [{first.variant}]: error: {lost[0]}", printed.getvalue())
        self.assertTrue(text.startswith(f"NOT A SCORE: the GPU was lost judging `{first.name}` [{first.variant}]"))


    def test_without_a_gpu_an_entry_skips_and_a_lost_or_required_one_fails_before_any_build(self):
        bug = catalogue_run.load()[0]
        for status, why, expected in ((77, "gpu_probe: no device", 77), (1, "gpu_probe: no device, one required", 1),
                                      (1, "gpu_probe: GPU LOST: no device, yet the driver lists 1 GPU(s)", 1)):
            with self.subTest(why=why), tempfile.TemporaryDirectory() as work:
                with mock.patch("ctest_runs.gpu_probe", return_value=(status, why)), \
                        contextlib.redirect_stdout(io.StringIO()) as printed:
                    self.assertEqual(catalogue_run.main([bug.name], work, work, False), expected)
                self.assertEqual(os.listdir(work), [], "nothing is built or judged without a GPU")
                self.assertIn("SKIP: no GPU" if expected == 77 else f"FAIL: {why}", printed.getvalue())


class StoppedBuild(unittest.TestCase):
    def test_a_build_stopped_by_a_signal_is_no_verdict_and_nothing_more_starts(self):
        # Failing means a campaign stopped at its time limit reports its unfinished builds as not compiling.
        built, stopped = [], FakeSlot([])
        stopped.build = lambda diff, library, log: None if diff == "diff 1" else FakeSlot.build(stopped, diff, library, log)
        self.addCleanup(run_mutants.STOPPING.clear)
        with tempfile.TemporaryDirectory() as folder:
            self.enterContext(mock.patch.object(run_mutants, "LIBRARIES", os.path.join(folder, "libraries")))
            self.enterContext(mock.patch.object(run_mutants, "run_stages", lambda *a: (ctest_junit.Verdict(ctest_junit.KILLED), "tests")))
            self.enterContext(mock.patch("ctest_runs.after_gpu_check", lambda verdict, build: verdict))
            campaign = run_mutants.Campaign(folder, [(m, "r/x") for m in fake_mutants(4)], [("lane", "large")])
            with contextlib.redirect_stdout(io.StringIO()):
                campaign.run([stopped])
        self.assertEqual([(r["mutant"][-2:], r["outcome"]) for r in campaign.results], [("00", "killed")])


class CampaignScheduling(unittest.TestCase):
    """run_mutants.Campaign over 12 fake mutants of two variants each, two build slots, and two GPUs
    of two lanes each, with fake stages that take some time: pair n is killed by its tests when
    n % 3 == 0, by its large stage when n % 3 == 1, and survives otherwise."""

    LANES = [(f"gpu{g}-lane{n}", f"gpu{g}-large") for g in (0, 1) for n in (0, 1)]

    def fake_stages(self, library_dir, label, spec, stages, log_prefix):
        pair, stage = pair_of(library_dir, label), stages[0][0]
        with self.guard:
            self.assertTrue(os.path.isfile(os.path.join(library_dir, "libkernels.so")), "a pair ran unbuilt")
            self.running.append((pair, stage, spec))
            self.events.append(("start", pair, stage, spec, list(self.running)))
        time.sleep(0.002 * (pair[0] % 4 + 1))
        with self.guard:
            self.running.remove((pair, stage, spec))
            self.events.append(("end", pair, stage, spec, []))
        index = pair[0] * 2 + (label == "r/y")
        killed = ctest_junit.Verdict(ctest_junit.KILLED, ("an entry (Failed)",))
        if stage == "tests" and index % 3 == 0 or stage == "large" and index % 3 == 1:
            return killed, stage
        return ctest_junit.Verdict(ctest_junit.SURVIVED), ""

    def test_every_pair_is_judged_once_and_large_stages_run_last_one_at_a_time_per_gpu(self):
        self.guard, self.events, self.running, built = threading.Lock(), [], [], []
        mutants = fake_mutants(12, ("r/x", "r/y"))
        pairs = [(m, label) for m in mutants for label in m.variants]
        with tempfile.TemporaryDirectory() as folder:
            libraries = os.path.join(folder, "libraries")
            self.enterContext(mock.patch.object(run_mutants, "LIBRARIES", libraries))
            self.enterContext(mock.patch.object(run_mutants, "run_stages", self.fake_stages))
            self.enterContext(mock.patch("ctest_runs.gpu_probe_failure", return_value=None))
            campaign = run_mutants.Campaign(folder, pairs, self.LANES)
            with contextlib.redirect_stdout(io.StringIO()):
                campaign.run([FakeSlot(built), FakeSlot(built)])
            self.assertEqual(len(built), 12, "a library was built twice or not at all")
            self.assertEqual(os.listdir(libraries), [], "a library outlived its mutant's last pair")
        judged = sorted((int(r["mutant"][-2:]), r["variant"]) for r in campaign.results)
        self.assertEqual(judged, sorted((int(m.id[-2:]), label) for m, label in pairs), "a pair judged twice or never")
        outcomes = {(int(r["mutant"][-2:]), r["variant"]): (r["outcome"], r["stage"]) for r in campaign.results}
        for (number, label), outcome in outcomes.items():
            index = number * 2 + (label == "r/y")
            expected = [("killed", "tests"), ("killed", "large"), ("survived", "")][index % 3]
            self.assertEqual(outcome, expected, (number, label))
        starts = [(pair, stage, spec, running) for kind, pair, stage, spec, running in self.events if kind == "start"]
        self.assertEqual(sorted(p for p, stage, _, _ in starts if stage == "tests"), judged, "tests ran twice or never")
        survivors = sorted(p for p, (o, st) in outcomes.items() if st != "tests")
        self.assertEqual(sorted(p for p, stage, _, _ in starts if stage == "large"), survivors)
        last_other_end = max(i for i, e in enumerate(self.events) if e[0] == "end" and e[2] != "large")
        first_large = min(i for i, e in enumerate(self.events) if e[0] == "start" and e[2] == "large")
        self.assertGreater(first_large, last_other_end, "a large stage ran before the other stages ended")
        for pair, stage, spec, running in starts:
            specs = [other_spec for _, _, other_spec in running]
            self.assertEqual(specs.count(spec), 1, f"{pair} {stage} shared {spec} with another stage")
        self.assertEqual({spec for _, stage, spec, _ in starts if stage == "large"}, {"gpu0-large", "gpu1-large"})


class Catalogue(unittest.TestCase):
    """The catalogue's patches (catalogue_run.py): headers, today's sources, its variants."""

    HEADER = "Mutant: x\nVariant: scan/naive\nBug: a bug\n"

    def test_every_patch_is_well_formed_and_applies_to_todays_sources_exactly(self):
        bugs = catalogue_run.load()
        self.assertEqual([bug.name for bug in bugs], catalogue_run.names())
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
        for bug in catalogue_run.load():
            self.assertIn(bug.variant, labels, bug.name)

    def test_headers_and_the_mutant_they_make(self):
        bug = catalogue_run.load(["volatile_last_warp"])[0]
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
        self.assertEqual(catalogue_run.load(["bitonic_skips_last_merge"])[0].sanitize_with, ())

    def test_malformed_headers_are_named(self):
        for text, complaint in (
            ("Mutant: x\nVariant: scan/naive\n\n", "no Bug header"),
            ("Mutant: y\nVariant: scan/naive\nBug: b\n\n", "its Mutant header says 'y'"),
            (self.HEADER + "Sanitizer: memcheck\n\n", "needs its Sanitize-with case"),
            (self.HEADER + "Sanitize-with: --n 5\n\n", "needs its Sanitize-with case"),
            (self.HEADER + "Sanitizer: leakcheck\nSanitize-with: --n 5\n\n", "unknown sanitizer"),
        ):
            with self.assertRaises(ValueError) as error:
                catalogue_run.parse("x", text)
            self.assertIn(complaint, str(error.exception))
        with self.assertRaises(ValueError):
            catalogue_run.load(["no_such_mutant"])


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
            # test/runtime/sanitize.sh ends with: compute-sanitizer --tool T [options] --error-exitcode 1 <command>
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
        bug = catalogue_run.parse("x", f"Mutant: x\nVariant: {variant}\nBug: b\n{sanitize}\n")
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


PROJECT_FILES = {  # an outside project: a variant file in a subfolder, its own header, a build folder inside
    "CMakeLists.txt": "project(my_kernels LANGUAGES CXX CUDA)\n",
    "src/my_sum.cu": '#include <kernels/variant/reduce.cuh>\n#include "../include/my_op.cuh"\n'
                     "__global__ void k(int* out, int n) { if (threadIdx.x < n) out[threadIdx.x] = my_twice(n); }\n"
                     'static const bool added = register_variant(make_reduce_variant<Impl>({.name = "my_sum"}));\n',
    "include/my_op.cuh": "__device__ int my_twice(int v) { return v + v; }\n",
    "src/helper.cu": "__global__ void unregistered(int* out) { out[0] = 1 < 2; }\n",
    "build/CMakeCache.txt": "",
    "build/copy.cu": 'register_variant(make_scan_variant<Impl>({.name = "copy"}));\n',
}  # fmt: skip


def write_files(root, files):
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "w", encoding="utf-8") as file:
            file.write(text)


class OutsideProject(unittest.TestCase):
    """run_mutants.py --project: a project's variant files and headers, its slots' options from its
    cache, the libraries a slot keeps, and the bad inputs refused with exit 2."""

    def setUp(self):
        self.source = self.enterContext(tempfile.TemporaryDirectory())
        write_files(self.source, PROJECT_FILES)
        self.build = os.path.join(self.source, "build")
        cache = {"CMAKE_HOME_DIRECTORY:INTERNAL": self.source, "CMAKE_GENERATOR:INTERNAL": "Ninja",
                 "CMAKE_PROJECT_NAME:STATIC": "my_kernels", "GpuPrimitives_DIR:PATH": "/p/lib/cmake/GpuPrimitives",
                 "CMAKE_BUILD_TYPE:STRING": "Release", "CMAKE_CUDA_ARCHITECTURES:STRING": "80;90",
                 "CMAKE_CXX_FLAGS:STRING": "", "MY_OPTION:BOOL": "ON"}  # fmt: skip
        write_files(self.build, {"CMakeCache.txt": "# a comment\n" + "".join(f"{k}={v}\n" for k, v in cache.items())})

    def test_variant_files_anywhere_but_build_folders_and_their_headers_mutated(self):
        self.assertEqual(variant_files(self.source, project=True), {"src/my_sum.cu": "reduce"})
        self.assertEqual(load_tree(self.source, project=True).labels_of_file, {"src/my_sum.cu": ["reduce/my_sum"]})
        mutants = generate(self.source, project=True)[0]
        self.assertEqual({m.file for m in mutants}, {"src/my_sum.cu", "include/my_op.cuh"})
        self.assertEqual({m.variants for m in mutants}, {("reduce/my_sum",)})
        self.assertTrue(all(m.diff.startswith(f"--- a/{m.file}") for m in mutants))

    def test_slots_copy_the_sources_and_configure_as_the_projects_build(self):
        project = Project(self.source, self.build)
        self.assertEqual((project.name, project.parts), ("my_kernels", ["CMakeLists.txt", "include", "src"]))
        self.assertEqual(project.configure_flags(), ["-G", "Ninja", "-DGpuPrimitives_DIR=/p/lib/cmake/GpuPrimitives",
                         "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CUDA_ARCHITECTURES=80;90"])  # fmt: skip
        write_files(self.build, {"sub/libmy.so": "so", "libmy.so.1": "so", "CMakeFiles/libno.so": "", "my.a": ""})
        kept = os.path.join(self.source, "kept")
        project.keep(self.build, kept, "")
        self.assertEqual(sorted(f for _, f in mutant_builds._files(kept, ["."])), [os.path.join(kept, p) for p in (
            "./libmy.so.1", "./sub/libmy.so")])  # fmt: skip

    def listed(self, *arguments):
        """(exit status, stdout, stderr's last line) of run_mutants.py --list with `arguments`."""
        done = subprocess.run([sys.executable, os.path.join(HERE, "run_mutants.py"), "--list", *arguments],
                              capture_output=True, text=True, check=False)  # fmt: skip
        return done.returncode, done.stdout, (done.stderr.strip().splitlines() or [""])[-1]

    def test_bad_inputs_exit_2_naming_the_option_and_its_value(self):
        empty, other = os.path.join(self.source, "include"), os.path.join(self.source, "other")
        write_files(other, {"CMakeCache.txt": f"CMAKE_HOME_DIRECTORY:INTERNAL={empty}\n"})
        error = "run_mutants.py: error: "
        self.assertEqual(self.listed("--project", empty, "--project-build", self.build)[::2], (2, (
            f"{error}--project {empty}: no variant file (a .cu calling register_variant(make_<family>_variant...))")))
        self.assertEqual(self.listed("--project", self.source, "--project-build", empty)[::2],
                         (2, f"{error}--project-build {empty}: not a configured build (no CMakeCache.txt)"))
        self.assertEqual(self.listed("--project", self.source, "--project-build", other)[::2], (2, (
            f"{error}--project-build {other}: configured for {empty}, not for --project {self.source}")))
        self.assertEqual(self.listed("--project", self.source)[::2], (2, (
            f"{error}--project and --project-build go together: the project's sources and its configured build")))
        code, listed, _ = self.listed("--project", self.source, "--project-build", self.build)
        self.assertEqual(code, 0)
        self.assertRegex(listed, r"\nsrc/my_sum.cu:k:\S+ reduce/my_sum\n")


if __name__ == "__main__":
    unittest.main()
