#!/usr/bin/env python3
"""Every GPU entry of the build asks ctest for exactly one resource group, on one GPU: the test
process runs on the GPU of its first group (CTEST_RESOURCE_GROUP_0_GPUS), so a second group
would hold slots, and count device memory, on a GPU the process never uses. A large test's one
group holds the slots its device memory needs; every other GPU entry's holds one slot, or all a
GPU's (the mutation catalogue, one entry at a time). And every entry measured in the seconds file
(test/entry_seconds.txt) has those seconds as its COST, so a run starts its longest entries first;
a large entry keeps the COST it is given.

Usage: check_resource_groups.py <ctest> <build folder> <slots per GPU> <seconds file>
(the ctest on PATH where <ctest> is not there: a build folder carried to another machine)
"""

import json
import os
import shutil
import subprocess
import sys


def main():
    ctest, build_dir, slots_per_gpu, seconds_file = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    with open(seconds_file, encoding="utf-8") as file:
        measured = dict(line.split() for line in file if line.strip() and not line.startswith("#"))
    if not os.path.isfile(ctest):
        ctest = shutil.which("ctest") or ctest
    listing = subprocess.run([ctest, "--test-dir", build_dir, "--show-only=json-v1"], check=True,
                             capture_output=True, text=True).stdout
    problems, large = [], 0
    for test in json.loads(listing)["tests"]:
        properties = {p["name"]: p["value"] for p in test.get("properties", [])}
        if test["name"] in measured and ".large." not in test["name"] and \
                abs(properties.get("COST", -1.0) - float(measured[test["name"]])) > 1e-3:  # (ctest keeps it as a float)
            problems.append(f"{test['name']}: COST {properties.get('COST')}, measured {measured[test['name']]} s")
        if "gpu" not in properties.get("LABELS", []):
            continue
        groups = properties.get("RESOURCE_GROUPS", [])
        slots = [sum(r["slots"] for r in g["requirements"] if r[".type"] == "gpus") for g in groups]
        if len(groups) != 1:
            problems.append(f"{test['name']}: {len(groups)} resource groups (slots {slots}), not one")
        elif ".large." in test["name"]:
            large += 1
            if not 1 < slots[0] <= slots_per_gpu:
                problems.append(f"{test['name']}: a large test holding {slots[0]} slots")
        elif slots[0] not in (1, slots_per_gpu):
            problems.append(f"{test['name']}: {slots[0]} slots")
    if large == 0:
        problems.append("no large test found: the listing is not the suite's")
    for problem in problems:
        print(f"FAIL: {problem}")
    print(f"check-resource-groups: {'FAIL' if problems else 'every GPU entry asks for one group'} "
          f"({large} large entries)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
