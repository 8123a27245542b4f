#!/usr/bin/env python3
"""Writes test/python/costs.txt, the measured seconds of each pytest file,
from pytest's JUnit XML reports (pytest --junitxml=F ...): ctest deals the
files into its python-N shards by these costs (test/CMakeLists.txt), the
longest first onto the least loaded shard, so that the shards end
together. Rerun it when a test file's time changes much:

    python3 -m pytest -q -p no:cacheprovider --junitxml=/tmp/a.xml \\
        test/python/test_*.py
    python3 scripts/pytest-costs.py /tmp/a.xml [more.xml ...]
"""

import collections
import os
import sys
import xml.etree.ElementTree as ElementTree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(reports):
    seconds = collections.Counter()
    for report in reports:
        for case in ElementTree.parse(report).iter("testcase"):
            # classname is the module's dotted path, then the class if any.
            module = [part for part in case.get("classname", "").split(".")
                      if part.startswith("test_")]
            if module:
                seconds[module[0] + ".py"] += float(case.get("time", 0))
    lines = ["# Seconds per pytest file on a 2-core machine, longest first "
             "(scripts/pytest-costs.py writes it)."]
    for name, cost in sorted(seconds.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append("%d %s" % (max(1, round(cost)), name))
    path = os.path.join(ROOT, "test", "python", "costs.txt")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")
    print("wrote %s: %d files, %.0f s" % (path, len(seconds),
                                         sum(seconds.values())))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
