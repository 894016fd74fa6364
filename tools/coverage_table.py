#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Sets the coverage columns of docs/coverage.md side by side: per block and event, the count
under the random lockstep benches and under the workloads, flagging every event the workloads
reach and the benches do not (a gap: it becomes bench stimulus).

  tools/coverage_table.py BENCH.json WORKLOADS.json... [--markdown]
  tools/coverage_table.py --floor WORKLOADS.json... > tests/golden/coverage_floor.txt

BENCH.json: `htmsim coverage --out BENCH.json`; each WORKLOADS.json: `htmsim suite --coverage
WORKLOADS.json` (or `htmsim run --coverage`), one column each. The events of the Last Writer
History inside the commit units ("lwh.*" of htm_commit_unit) are also the workload column of
the htm_lwh block, whose own bench is noted beside them.

Columns: the bench count summed over the block's named configurations; then per workload file,
the bench count in the configurations its instances have (the machine's: `default` on the
default machine, mostly `machsmall` on the small one) and the workload count with the runs that
reach it. The flag: GAP (workloads reach the event, no bench does), "GAP in <config>" (workloads
reach it in a configuration whose bench does not), "bench only" (no workload reaches it), or
"never" (nothing does).

--floor lists every event the workloads reach, per block and named configuration ("block config
event" lines): what tests/golden/coverage_test.cc requires of each configuration's bench.

Exit status: 0 no gap, 1 a gap, 2 bad usage or an unreadable file.
"""
import json
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def index(doc):
    """block -> {"events": [(event, description, count)], "reach": event -> [parts],
    "by_config": config -> event -> count}"""
    blocks = {}
    for b in doc["blocks"]:
        blocks[b["block"]] = {"events": [(e["name"], e["description"], e["count"])
                                         for e in b["events"]],
                              "reach": {}, "by_config": {}}
    for p in doc["parts"]:
        if p["block"] not in blocks:
            continue
        blk = blocks[p["block"]]
        cfg = blk["by_config"].setdefault(p.get("config", ""), {})
        for name, count in p["counts"].items():
            if count:
                blk["reach"].setdefault(name, []).append(p["part"])
                cfg[name] = cfg.get(name, 0) + count
    return blocks


def lwh_view(blk):
    """The "lwh." events of a commit unit's index as the htm_lwh block's (its configurations are
    the commit unit's, not the LWH's: compared in total only)."""
    def strip(n):
        return n[4:]
    return {"events": [(strip(n), d, c) for n, d, c in blk["events"] if n.startswith("lwh.")],
            "reach": {strip(n): r for n, r in blk["reach"].items() if n.startswith("lwh.")},
            "by_config": {}}


def fmt(n):
    return f"{n:,}".replace(",", " ")


def floor(paths):
    reached = set()
    for path in paths:
        for p in load(path)["parts"]:
            for name, count in p["counts"].items():
                if count and p.get("config"):
                    reached.add((p["block"], p["config"], name))
    print("# Events the workloads reach, per block and configuration (tools/coverage_table.py "
          "--floor):")
    print("# each configuration's bench must reach them (tests/golden/coverage_test.cc).")
    for block, config, name in sorted(reached):
        print(f"{block} {config} {name}")
    return 0


def label(doc):
    """A workload column's name: the machine and scale of its command."""
    words = doc.get("command", "").split()
    def opt(name, default):
        return words[words.index(name) + 1] if name in words[:-1] else default
    return f"{opt('--config', 'default')} machine, {opt('--scale', 'default')} scale"


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    markdown = "--markdown" in argv[1:]
    try:
        if "--floor" in argv[1:]:
            if not args:
                raise ValueError("--floor needs a workload file")
            return floor(args)
        if len(args) < 2:
            print(__doc__.strip(), file=sys.stderr)
            return 2
        bench = index(load(args[0]))
        works = [(label(d), index(d), len({p["part"] for p in d["parts"]}))
                 for d in (load(a) for a in args[1:])]
    except (OSError, ValueError, KeyError) as e:
        print(f"coverage_table: {e}", file=sys.stderr)
        return 2
    for _, w, _ in works:
        if "htm_commit_unit" in w and "htm_lwh" not in w:
            w["htm_lwh"] = lwh_view(w["htm_commit_unit"])
    order = []
    for _, w, _ in works:
        order += [b for b in w if b in bench and b not in order]
    order += [b for b in bench if b not in order]
    lwh_bench = {n: c for n, _, c in bench["htm_lwh"]["events"]} if "htm_lwh" in bench else {}
    gaps, rows = [], []
    for block in order:
        bb = bench[block]
        for name, desc, bc in bb["events"]:
            cols, flags, any_work = [], [], False
            for _, w, _ in works:
                ww = w.get(block)
                if ww is None:
                    cols.append((None, None, 0))
                    continue
                wc = {n: c for n, _, c in ww["events"]}.get(name, 0)
                cfgs = sorted(c for c in ww["by_config"] if c)
                in_cfg = (sum(bb["by_config"].get(c, {}).get(name, 0) for c in cfgs)
                          if cfgs else None)
                cols.append((in_cfg, wc, len(ww["reach"].get(name, []))))
                any_work = any_work or wc > 0
                if wc and bc == 0:
                    flags.append("GAP")
                elif wc and in_cfg == 0:
                    flags.append("GAP in " + ",".join(cfgs))
            flag = ", ".join(dict.fromkeys(flags))
            if flag:
                gaps.append(f"{block}.{name} ({flag})")
            elif bc and not any_work and any(w.get(block) for _, w, _ in works):
                flag = "bench only"
            elif not bc and not any_work:
                flag = "never"
            note = ""
            if name.startswith("lwh.") and lwh_bench:
                note = f"htm_lwh's bench: {fmt(lwh_bench.get(name[4:], 0))}"
            configs = ", ".join(bb["reach"].get(name, []))
            rows.append((block, name, bc, configs, cols, flag, note, desc))

    def cell(v):
        return "–" if v is None else fmt(v)

    if markdown:
        head = "| block | event | benches (configurations reaching it) |"
        rule = "|---|---|---|"
        for lab, _, runs in works:
            head += f" benches, its configurations | workloads, {lab} (runs of {runs}) |"
            rule += "---:|---:|"
        print(head + " flag | what |")
        print(rule + "---|---|")
        last = None
        for block, name, bc, configs, cols, flag, note, desc in rows:
            line = (f"| {block if block != last else ''} | `{name}` | {fmt(bc)}"
                    f"{' (' + configs + ')' if configs else ''} |")
            for in_cfg, wc, wruns in cols:
                line += f" {cell(in_cfg)} | {cell(wc)}{f' ({wruns})' if wc else ''} |"
            what = desc + (f"; {note}" if note else "")
            print(line + f" {'**' + flag + '**' if flag.startswith('GAP') else flag} | {what} |")
            last = block
    else:
        head = f"{'block':18} {'event':22} {'benches':>10}"
        for i, _ in enumerate(works):
            head += f" {'b/cfg' + str(i + 1):>9} {'work' + str(i + 1):>11}"
        print(head + "  flag")
        for block, name, bc, configs, cols, flag, note, desc in rows:
            line = f"{block:18} {name:22} {fmt(bc):>10}"
            for in_cfg, wc, _ in cols:
                line += f" {cell(in_cfg):>9} {cell(wc):>11}"
            print(line + f"  {flag}{'  (' + note + ')' if note else ''}")
        for i, (lab, _, runs) in enumerate(works):
            print(f"work{i + 1}: {lab}, {runs} runs; b/cfg{i + 1}: the benches in its "
                  "configurations")
    print(f"\n{len(rows)} events; {len(gaps)} reached by the workloads and not by the bench of "
          "their configuration" + (": " + "; ".join(gaps) if gaps else ""), file=sys.stderr)
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
