#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Side-by-side speed of two htmsim suite outputs: per workload (summed over its TM
configurations) the simulated cycles, each suite's run time and simulated cycles per second,
and the slowdown of the second against the first; then the totals. Markdown on stdout.

  tools/speed_table.py GOLDEN_DIR OTHER_DIR [--by-run]

Run time is each run's own wall-clock seconds (results.jsonl "seconds"), so the figures do not
depend on how many runs the suite ran at once. --by-run lists every run instead of every
workload. Exit status: 0, or 2 on bad usage, a missing file or runs that differ in cycles.
"""
import os
import sys

from suite_results import load


def row(name, cycles, sa, sb):
    return (f"| {name} | {cycles:,} | {sa:.2f} | {cycles / sa:,.0f} | {sb:.2f} | "
            f"{cycles / sb:,.0f} | {sb / sa:.1f} |")


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    opts = [a for a in argv[1:] if a.startswith("--")]
    if len(args) != 2 or any(o != "--by-run" for o in opts):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        a, b = load(args[0]), load(args[1])
    except (OSError, ValueError, KeyError) as e:
        print(f"speed_table: {e}", file=sys.stderr)
        return 2
    keys = [k for k in a if k in b]
    if not keys:
        print("speed_table: the two suites have no run in common", file=sys.stderr)
        return 2
    for k in keys:
        if a[k]["cycles"] != b[k]["cycles"]:
            print(f"speed_table: {k[0]} under {k[1]} ran {a[k]['cycles']} cycles in one suite "
                  f"and {b[k]['cycles']} in the other", file=sys.stderr)
            return 2
    print("| " + ("run" if "--by-run" in opts else "workload") + " | simulated cycles | "
          "first: s | cycles/s | second: s | cycles/s | slowdown |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    groups = {}
    for k in keys:
        name = f"{k[0]} {k[1]}" if "--by-run" in opts else k[0]
        g = groups.setdefault(name, [0, 0.0, 0.0])
        g[0] += a[k]["cycles"]
        g[1] += a[k]["seconds"]
        g[2] += b[k]["seconds"]
    for name, (c, sa, sb) in groups.items():
        print(row(name, c, max(sa, 1e-6), max(sb, 1e-6)))
    c = sum(g[0] for g in groups.values())
    sa = sum(g[1] for g in groups.values())
    sb = sum(g[2] for g in groups.values())
    print(row(f"**all {len(keys)} runs**", c, max(sa, 1e-6), max(sb, 1e-6)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
