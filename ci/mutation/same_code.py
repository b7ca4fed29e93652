#!/usr/bin/env python3
"""Whether a mutant leaves the .text of its file's cubin as it is (evidence for triage). Needs nvcc, no GPU."""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import generate
from python_deps import ROOT


def cubin(source_root, cu_file, arch, out):
    """Compiles cu_file (a path under source_root) to out, with the headers of source_root."""
    command = ["nvcc", f"-I{source_root}/kernels/include", f"-I{source_root}", "-O3", "-DNDEBUG", "-std=c++20",
               f"-arch={arch}", "-cubin", "-Xcompiler=-fPIC", "-x", "cu", os.path.join(source_root, cu_file), "-o", out]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"nvcc failed on {cu_file}:\n{done.stderr[-2000:]}")


def code_sections(path):
    """The sorted contents (readelf's hex) of every .text.* section of an ELF file."""
    listing = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True, check=True).stdout
    names = sorted({word for word in listing.split() if word.startswith(".text.")})
    contents = []
    for name in names:
        dump = subprocess.run(["readelf", "-x", name, path], capture_output=True, text=True, check=True).stdout
        contents.append("\n".join(line for line in dump.splitlines() if line.startswith("  0x")))
    return sorted(contents)


def same_code(mutant, cu_file, arch, work):
    """Whether mutant's diff leaves the code of cu_file's cubin unchanged."""
    original, mutated, copy = (os.path.join(work, name) for name in ("original.cubin", "mutated.cubin", "tree"))
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "kernels"), os.path.join(copy, "kernels"))
    patched = subprocess.run(["patch", "-s", "-p1", "-d", copy], input=mutant.diff, text=True, check=False)
    if patched.returncode != 0:
        raise RuntimeError(f"{mutant.id}: its diff does not apply to today's sources")
    if not os.path.exists(original):
        cubin(ROOT, cu_file, arch, original)
    cubin(copy, cu_file, arch, mutated)
    return code_sections(original) == code_sections(mutated)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ids", nargs="+", metavar="ID")
    parser.add_argument("--compile", help="the .cu file to compile (under kernels/): needed for a header's mutants")
    parser.add_argument("--arch", default="sm_90")
    args = parser.parse_args(argv)
    mutants = {mutant.id: mutant for mutant in generate.generate(ROOT)[0]}
    unknown = [mutant_id for mutant_id in args.ids if mutant_id not in mutants]
    if unknown:
        print(f"same_code: no mutant {', '.join(unknown)} (generate.py --out lists them)", file=sys.stderr)
        return 2
    works = {}  # one folder (and one original cubin) per compiled file
    try:
        for mutant_id in args.ids:
            mutant = mutants[mutant_id]
            cu_file = os.path.join("kernels", args.compile) if args.compile else mutant.file
            if not cu_file.endswith(".cu"):
                print(f"same_code: {mutant_id} mutates a header: name the .cu file with --compile", file=sys.stderr)
                return 2
            work = works.setdefault(cu_file, tempfile.mkdtemp(prefix="same_code."))
            verdict = "same code" if same_code(mutant, cu_file, args.arch, work) else "different code"
            print(f"{mutant_id}: {verdict}", flush=True)
    except (RuntimeError, subprocess.CalledProcessError) as error:
        print(f"same_code: {error}", file=sys.stderr)
        return 2
    finally:
        for work in works.values():
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
