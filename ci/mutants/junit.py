#!/usr/bin/env python3
"""What a nested ctest run of ci/mutants/run.sh found, read from its JUnit file
(ctest --output-junit): one line per failed entry, "failed <name>", in the file's order, then
"rerun <name> <kcheck arguments>" for the first rerun line those entries printed, if any.

Usage: ci/mutants/junit.py <junit.xml>
"""
import sys
import xml.etree.ElementTree as ElementTree

RERUN = "rerun: kcheck "


def main(path):
    failed = [case for case in ElementTree.parse(path).getroot().iter("testcase")
              if case.get("status") == "fail" or case.find("failure") is not None]
    for case in failed:
        print("failed", case.get("name"))
    for case in failed:
        for line in (case.findtext("system-out") or "").splitlines():
            at = line.find(RERUN)
            if at >= 0:
                print("rerun", case.get("name"), line[at + len(RERUN):].strip())
                return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
