#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The coverage report of the RTL (docs/verification.md, "Coverage"): line, toggle and
functional coverage per block, and every uncovered line.

  tools/coverage_report.py [--coverage build-cov/coverage] [--out build-cov/report]
                           [--root .] [--check BLOCK] [--max-lines N]

Reads, under --coverage:
  *.dat               Verilator coverage data (`C '<key>' <count>` lines), one per test process
                      of the coverage tree (cmake/HtmCoverage.cmake: every RTL model Verilated
                      with --coverage-line --coverage-toggle --coverage-user)
  functional/*.json   the golden model's coverage events of each lockstep run (the events of
                      golden/include/htm/golden/cover/<block>.def, counted by the bench)

Writes, under --out:
  merged.dat          every .dat summed point by point (what `verilator_coverage --write` writes)
  coverage.md         one row per block, then per block its uncovered lines and unreached events
  coverage.json       the same, machine-readable
  annotated/          `verilator_coverage --annotate` of merged.dat, when verilator_coverage is
                      on the PATH (Verilator's own per-line view; optional)

A coverage point belongs to the source file it is in: a block's row is its own file
(rtl/<block>.sv, rtl/prim/<block>.sv), whichever model instantiated it (htm_sig inside the LDS
bank counts for rtl/htm_sig.sv); files that are no block's (htm_sig_hash, htm_set_index, the
package) get helper rows. Points are merged over instances and configurations (a line is
covered when any instance of any configuration ran it; a toggle bit when any toggled it).
  line %       Verilator's line coverage points (v_line: a statement block; v_branch: an if/else
               or case arm, a ?: side) with a count > 0
  toggle %     v_toggle points (each bit of each signal, 0->1 and 1->0) with a count > 0
  functional % the block's golden coverage events with a count > 0 over its lockstep runs
  SV cover     v_user points (SystemVerilog cover properties), when the RTL has any

--check BLOCK: also fail (exit 1) unless BLOCK has line and toggle points, some covered, and its
uncovered lines are listed with their source (the make-test check, CTest coverage.report).

Exit status: 0 written, 1 a --check failed, 2 bad input (a malformed .dat names its file and
line; no .dat at all).
"""
import argparse
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys

_LINE = re.compile(r"^C '(?P<key>[^\n]*)' (?P<count>\d+)\s*$")


class BadInput(Exception):
    pass


def parse_key(key):
    """Verilator's key: fields "\\001<name>\\002<value>" -> dict."""
    fields = {}
    for part in key.split("\001"):
        if not part:
            continue
        name, sep, value = part.partition("\002")
        if not sep:
            raise ValueError("field without \\002: %r" % part[:40])
        fields[name] = value
    return fields


def printable(text):
    """Verilator's field separators (\\001, \\002) shown as ^A, ^B."""
    return "".join(c if c >= " " else "^" + chr(ord(c) + 64) for c in text)


def read_dat(path, into):
    """Adds the points of one .dat to `into` (key -> count). Raises BadInput on a malformed
    line (with file and line number) or a file without any point."""
    n = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            m = _LINE.match(line)
            fields = None
            if m:
                try:
                    fields = parse_key(m.group("key"))
                except ValueError:
                    fields = None
            if not fields or "f" not in fields or "page" not in fields:
                raise BadInput("%s:%d: malformed coverage line (expected C '<key>' <count>, "
                               "the key with filename and page fields): %s"
                               % (path, lineno, printable(line.rstrip()[:120])))
            key = m.group("key")
            into[key] = into.get(key, 0) + int(m.group("count"))
            n += 1
    if n == 0:
        raise BadInput("%s: no coverage points (an empty or truncated .dat)" % path)
    return n


def linespan(fields):
    """The source lines a point stands for: its linescov ("12-14,17") or its line."""
    s = fields.get("S", "")
    lines = []
    for part in s.split(","):
        part = part.strip()
        if not part:
            continue
        a, _, b = part.partition("-")
        try:
            lo = int(a)
            hi = int(b) if b else lo
        except ValueError:
            continue
        lines.extend(range(lo, hi + 1))
    return lines or [int(fields.get("l", "0") or 0)]


def rel(path, root):
    p = os.path.realpath(path)
    r = os.path.realpath(root)
    return os.path.relpath(p, r) if p.startswith(r + os.sep) else path


def blocks_of(root):
    """Block name -> its own file (relative), from cmake/HtmConfigs.cmake and rtl/files.f."""
    names = []
    try:
        with open(os.path.join(root, "cmake", "HtmConfigs.cmake"), encoding="utf-8") as f:
            names = re.findall(r"^htm_block\((\w+)", f.read(), re.M)
    except OSError:
        pass
    files = []
    try:
        with open(os.path.join(root, "rtl", "files.f"), encoding="utf-8") as f:
            files = [ln.strip() for ln in f if ln.strip() and not ln.startswith("//")]
    except OSError:
        pass
    by_stem = {os.path.splitext(os.path.basename(p))[0]: p for p in files}
    return {b: by_stem.get(b, "rtl/%s.sv" % b) for b in names}, files


def source_lines(root, relpath, cache={}):
    if relpath not in cache:
        try:
            with open(os.path.join(root, relpath), encoding="utf-8", errors="replace") as f:
                cache[relpath] = f.read().split("\n")
        except OSError:
            cache[relpath] = []
    return cache[relpath]


def load_functional(fdir):
    """block -> {"events": {name: [description, count]}, "configs": {config: {name: count}},
    "runs": [...]}"""
    out = {}
    for path in sorted(glob.glob(os.path.join(fdir, "*.json"))):
        try:
            with open(path, encoding="utf-8") as f:
                d = json.load(f)
            block = d["block"]
            events = d["events"]
        except (OSError, ValueError, KeyError) as e:
            raise BadInput("%s: not a functional-coverage record (%s)" % (path, e))
        b = out.setdefault(block, {"events": {}, "configs": {}, "runs": []})
        b["runs"].append({k: d.get(k) for k in ("config", "seed", "fresh", "cycles", "passed")})
        cfg = b["configs"].setdefault(d.get("config", ""), {})
        for e in events:
            ev = b["events"].setdefault(e["name"], [e.get("description", ""), 0])
            ev[1] += int(e["count"])
            cfg[e["name"]] = cfg.get(e["name"], 0) + int(e["count"])
    return out


def pct(cov, tot):
    return None if tot == 0 else 100.0 * cov / tot


def fmt_pct(cov, tot):
    p = pct(cov, tot)
    return "–" if p is None else "%.1f %% (%d/%d)" % (p, cov, tot)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--coverage", default="build-cov/coverage")
    ap.add_argument("--out", default="build-cov/report")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--check", metavar="BLOCK")
    ap.add_argument("--max-lines", type=int, default=80,
                    help="uncovered lines listed per block in coverage.md (all in the JSON)")
    a = ap.parse_args(argv)

    try:
        dats = sorted(glob.glob(os.path.join(a.coverage, "*.dat")))
        if not dats:
            raise BadInput("%s: no .dat files (run the coverage tree's tests first: "
                           "make coverage)" % a.coverage)
        merged = {}
        npoints = 0
        for p in dats:
            npoints += read_dat(p, merged)
        functional = load_functional(os.path.join(a.coverage, "functional"))
    except BadInput as e:
        print("coverage_report.py: error: %s" % e, file=sys.stderr)
        return 2

    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "merged.dat"), "w", encoding="utf-8") as f:
        f.write("# SystemC::Coverage-3\n")
        for k in sorted(merged):
            f.write("C '%s' %d\n" % (k, merged[k]))

    blocks, rtl_files = blocks_of(a.root)
    file_to_block = {f: b for b, f in blocks.items()}
    # Per file and kind: point (without the hierarchy) -> count, merged over instances.
    pts = collections.defaultdict(lambda: collections.defaultdict(int))
    info = {}
    for key, count in merged.items():
        fl = parse_key(key)
        path = rel(fl["f"], a.root)
        if not path.startswith("rtl/"):
            continue  # the coverage hook (build tree), Verilator's own files
        kind = fl["page"].split("/")[0]
        pid = (kind, int(fl.get("l", 0) or 0), int(fl.get("n", 0) or 0), fl.get("o", ""),
               fl.get("S", ""))
        pts[path][pid] += count
        info[(path, pid)] = fl
    rows = []
    order = [blocks[b] for b in blocks] + [f for f in rtl_files if f not in file_to_block]
    seen = set()
    for path in order + sorted(pts):
        if path in seen or path not in pts and path not in file_to_block:
            continue
        seen.add(path)
        block = file_to_block.get(path)
        p = pts.get(path, {})
        line = [(k, c) for k, c in p.items() if k[0] in ("v_line", "v_branch")]
        tog = [(k, c) for k, c in p.items() if k[0] == "v_toggle"]
        user = [(k, c) for k, c in p.items() if k[0] == "v_user"]
        src = source_lines(a.root, path)
        uncovered = []
        for (kind, l, col, comment, span), c in sorted(line, key=lambda x: (x[0][1], x[0][2])):
            if c:
                continue
            lines = linespan(info[(path, (kind, l, col, comment, span))])
            text = src[l - 1].strip() if 0 < l <= len(src) else ""
            uncovered.append({"file": path, "line": l, "lines": span or str(l),
                              "kind": "%s %s" % (kind[2:], comment), "source": text,
                              "span": len(lines)})
        untoggled = collections.OrderedDict()
        for (kind, l, col, comment, span), c in sorted(tog, key=lambda x: (x[0][1], x[0][3])):
            if c:
                continue
            sig = re.sub(r"(\[\d+\])*:[01]->[01]$", "", comment)
            untoggled.setdefault(sig, {"line": l, "points": 0})["points"] += 1
        fun = functional.get(block or "", {})
        events = fun.get("events", {})
        unreached = [{"event": n, "description": d} for n, (d, c) in events.items() if c == 0]
        row = {
            "block": block or "", "file": path, "helper": block is None,
            "line": {"covered": sum(1 for _, c in line if c), "total": len(line)},
            "toggle": {"covered": sum(1 for _, c in tog if c), "total": len(tog)},
            "user": {"covered": sum(1 for _, c in user if c), "total": len(user)},
            "functional": {"reached": sum(1 for d, c in events.values() if c),
                           "total": len(events), "unreached": unreached,
                           "events": {n: c for n, (d, c) in events.items()},
                           "by_config": fun.get("configs", {}),
                           "runs": len(fun.get("runs", []))},
            "uncovered_lines": uncovered,
            "untoggled_signals": [{"signal": s, "line": v["line"], "points": v["points"]}
                                  for s, v in untoggled.items()],
        }
        for k in ("line", "toggle", "user"):
            row[k]["percent"] = pct(row[k]["covered"], row[k]["total"])
        row["functional"]["percent"] = pct(row["functional"]["reached"],
                                           row["functional"]["total"])
        rows.append(row)

    doc = {"dat_files": len(dats), "points_read": npoints, "points_merged": len(merged),
           "coverage_dir": a.coverage, "blocks": rows}
    with open(os.path.join(a.out, "coverage.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    write_markdown(os.path.join(a.out, "coverage.md"), doc, a.max_lines)
    annotate(a.out)

    print("coverage: %d .dat files, %d points -> %s/coverage.md, coverage.json"
          % (len(dats), len(merged), a.out))
    for r in rows:
        if r["line"]["total"] or r["functional"]["total"]:
            print("  %-22s line %-22s toggle %-24s functional %s"
                  % (r["block"] or r["file"], fmt_pct(r["line"]["covered"], r["line"]["total"]),
                     fmt_pct(r["toggle"]["covered"], r["toggle"]["total"]),
                     fmt_pct(r["functional"]["reached"], r["functional"]["total"])))
    if a.check:
        return check(doc, a.check)
    return 0


def check(doc, block):
    r = next((r for r in doc["blocks"] if r["block"] == block), None)
    problems = []
    if r is None:
        problems.append("no row for %s" % block)
    else:
        for k in ("line", "toggle"):
            if not r[k]["total"]:
                problems.append("no %s points" % k)
            elif not r[k]["covered"]:
                problems.append("no %s point covered" % k)
        if r["line"]["covered"] < r["line"]["total"] and not all(
                u["source"] for u in r["uncovered_lines"]):
            problems.append("an uncovered line without its source text")
    if problems:
        print("coverage_report.py: check of %s failed: %s" % (block, "; ".join(problems)),
              file=sys.stderr)
        return 1
    print("check of %s: ok" % block)
    return 0


def annotate(out):
    """Verilator's own per-line view, when its verilator_coverage is installed (optional)."""
    vc = shutil.which("verilator_coverage")
    if not vc:
        return
    adir = os.path.join(out, "annotated")
    shutil.rmtree(adir, ignore_errors=True)
    r = subprocess.run([vc, "--annotate", adir,
                        os.path.join(out, "merged.dat")], capture_output=True, text=True)
    if r.returncode != 0:
        print("coverage_report.py: note: verilator_coverage --annotate failed (%s); the report "
              "does not need it" % (r.stderr.strip().splitlines() or ["?"])[-1], file=sys.stderr)


def write_markdown(path, doc, max_lines):
    rows = doc["blocks"]
    out = ["# RTL coverage", "",
           "Written by `tools/coverage_report.py` from %d .dat files (%d coverage points after "
           "merging) and the lockstep runs' golden coverage events. Line: Verilator's line and "
           "branch points; toggle: every bit of every signal both ways; functional: the "
           "block's golden coverage events (golden/include/htm/golden/cover/<block>.def) "
           "reached by its lockstep bench. Points are merged over instances and "
           "configurations. How to read and what is justified: docs/verification.md, "
           "\"Coverage\"." % (doc["dat_files"], doc["points_merged"]), "",
           "| block | file | line % | toggle % | functional % | unreached events |",
           "|---|---|---:|---:|---:|---|"]
    for r in rows:
        if not (r["line"]["total"] or r["toggle"]["total"] or r["functional"]["total"]):
            continue
        f = r["functional"]
        un = ", ".join("`%s`" % u["event"] for u in f["unreached"]) if f["total"] else \
            "(no events defined)"
        out.append("| %s | `%s` | %s | %s | %s | %s |" % (
            r["block"] or "(helper)", r["file"],
            fmt_pct(r["line"]["covered"], r["line"]["total"]),
            fmt_pct(r["toggle"]["covered"], r["toggle"]["total"]),
            fmt_pct(f["reached"], f["total"]), un or "–"))
    if any(r["user"]["total"] for r in rows):
        out += ["", "SystemVerilog cover properties (v_user): " + ", ".join(
            "%s %s" % (r["block"] or r["file"], fmt_pct(r["user"]["covered"], r["user"]["total"]))
            for r in rows if r["user"]["total"])]
    for r in rows:
        if not (r["uncovered_lines"] or r["functional"]["unreached"] or r["untoggled_signals"]):
            continue
        out += ["", "## %s (`%s`)" % (r["block"] or "helper", r["file"]), ""]
        f = r["functional"]
        if f["unreached"]:
            out.append("Unreached events:")
            out.append("")
            for u in f["unreached"]:
                out.append("* `%s`: %s" % (u["event"], u["description"]))
            out.append("")
        if r["uncovered_lines"]:
            out.append("Uncovered lines (%d points):" % len(r["uncovered_lines"]))
            out.append("")
            out.append("| where | lines | point | source |")
            out.append("|---|---|---|---|")
            for u in r["uncovered_lines"][:max_lines]:
                out.append("| `%s:%d` | %s | %s | `%s` |" % (
                    u["file"], u["line"], u["lines"], u["kind"],
                    u["source"].replace("|", "\\|").replace("`", "'")[:100]))
            if len(r["uncovered_lines"]) > max_lines:
                out.append("| … | | | %d more in coverage.json |"
                           % (len(r["uncovered_lines"]) - max_lines))
            out.append("")
        if r["untoggled_signals"]:
            sigs = r["untoggled_signals"]
            out.append("Signals with untoggled bits (%d; points = bit directions never seen): %s"
                       % (len(sigs), ", ".join("`%s` (%d)" % (s["signal"], s["points"])
                                               for s in sigs[:40]))
                       + (", …" if len(sigs) > 40 else ""))
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
