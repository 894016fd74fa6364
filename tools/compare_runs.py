#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compares two htmsim suite outputs run by run: the statistics of every run (results.jsonl,
all but the wall-clock seconds) and, when both kept them (--keep-logs), the commit logs byte for
byte.

  tools/compare_runs.py GOLDEN_DIR OTHER_DIR

Used by the cosim tests (a suite with the RTL in the loop must give the golden suite's
statistics and commit logs). Exit status: 0 identical, 1 a difference (each one printed),
2 bad usage or a missing file.
"""
import os
import sys

from suite_results import load


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    a_dir, b_dir = argv[1], argv[2]
    try:
        a, b = load(a_dir), load(b_dir)
        for runs in (a, b):
            for j in runs.values():
                j.pop("seconds", None)  # wall-clock time differs from run to run
    except (OSError, ValueError, KeyError) as e:
        print(f"compare_runs: {e}", file=sys.stderr)
        return 2
    bad = 0
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            print(f"{key[0]} {key[1]}: only in {a_dir if key in a else b_dir}")
            bad += 1
            continue
        diff = {f: (a[key].get(f), b[key].get(f)) for f in sorted(set(a[key]) | set(b[key]))
                if a[key].get(f) != b[key].get(f)}
        if diff:
            bad += 1
            print(f"{key[0]} {key[1]}: " +
                  ", ".join(f"{f} {x} != {y}" for f, (x, y) in diff.items()))
    logs = 0
    a_logs, b_logs = os.path.join(a_dir, "logs"), os.path.join(b_dir, "logs")
    if (os.path.isdir(a_logs) and os.path.isdir(b_logs) and os.listdir(a_logs) and
            os.listdir(b_logs)):
        for name in sorted(set(os.listdir(a_logs)) | set(os.listdir(b_logs))):
            pa, pb = os.path.join(a_logs, name), os.path.join(b_logs, name)
            if not (os.path.exists(pa) and os.path.exists(pb)):
                print(f"log {name}: only in one of the two")
                bad += 1
                continue
            with open(pa, "rb") as fa, open(pb, "rb") as fb:
                if fa.read() != fb.read():
                    print(f"log {name}: differs")
                    bad += 1
            logs += 1
    print(f"compare_runs: {len(a)} runs and {logs} commit logs compared, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
