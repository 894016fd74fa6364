#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The mutation report: per block, the mutants run and killed, by category, and every survivor
with its line and its triage (mutate/triage/<block>.txt).

  report.py --results <dir of run_mutants.py JSON> --out <dir> [--triage mutate/triage]

--triage names a directory of triage files, one per block (<block>.txt, applied to that block
only), or a single file applied to every block. A triage file has one line per surviving mutant, keyed by the mutant's key (stable across
edits elsewhere in the file):
  <key> equivalent <reason>      the mutant cannot change any output (the reason says why)
  <key> gap <test>               a test gap, closed by <test>
A survivor without a line is listed as untriaged. Writes <out>/mutation.md and mutation.json.
Exit 0, or 2 on a malformed triage file or no results.
"""
import argparse
import json
import math
import os
import sys

CATS = ('lockstep', 'netlist', 'directed', 'formal')


def read_triage(path):
    """The triage lines of one file: key -> (verdict, text); a key given twice is an error."""
    tri = {}
    if not path or not os.path.exists(path):
        return tri
    with open(path) as f:
        lines = f.readlines()
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        parts = line.split(None, 2)
        if len(parts) < 3 or parts[1] not in ('equivalent', 'gap'):
            raise ValueError(f'{path}:{n}: expected "<key> equivalent|gap <text>", got {line!r}')
        if parts[0] in tri:
            raise ValueError(f'{path}:{n}: key {parts[0]} is triaged twice')
        tri[parts[0]] = (parts[1], parts[2])
    return tri


def triage_of(path, block):
    """The triage that applies to a block's survivors: <path>/<block>.txt when path is a
    directory (a key is a hash of the mutated text, so the same line in two blocks has the same
    key and each block triages it in its own file), else the one file given."""
    if path and os.path.isdir(path):
        return read_triage(os.path.join(path, f'{block}.txt'))
    return read_triage(path)


def wilson(k, n, z=1.96):
    """95 % interval of a kill rate measured on a sample."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--results', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--triage', default='mutate/triage')
    a = ap.parse_args()
    try:
        if os.path.isdir(a.triage):
            for name in sorted(os.listdir(a.triage)):
                if name.endswith('.txt'):
                    read_triage(os.path.join(a.triage, name))
        else:
            read_triage(a.triage)
    except ValueError as e:
        print(f'report: {e}', file=sys.stderr)
        return 2
    files = sorted(f for f in os.listdir(a.results) if f.endswith('.json')) \
        if os.path.isdir(a.results) else []
    if not files:
        print(f'report: no results in {a.results} (run make mutate first)', file=sys.stderr)
        return 2
    rows = []
    survivors = []
    for f in files:
        d = json.load(open(os.path.join(a.results, f)))
        s = d['summary']
        tri = triage_of(a.triage, s['block'])
        muts = d['mutants']
        surv = [m for m in muts if not m['killed_by']]
        equiv = [m for m in surv if tri.get(m['key'], ('',))[0] == 'equivalent']
        effective = s['run'] - len(equiv)
        lo, hi = wilson(s['killed'], effective)
        rows.append({**s, 'equivalent': len(equiv), 'survived': len(surv),
                     'score': s['killed'] / effective if effective else 1.0,
                     'ci': [lo, hi]})
        for m in surv:
            t = tri.get(m['key'])
            survivors.append({'block': s['block'], 'key': m['key'], 'file': m['file'],
                              'line': m['line'], 'op': m['op'], 'original': m['original'],
                              'mutant': m['mutant'], 'triage': t[0] if t else 'untriaged',
                              'note': t[1] if t else ''})
    os.makedirs(a.out, exist_ok=True)
    md = ['# Mutation report', '',
          'Mutants of each block run against its make-test scope (mutate/run_mutants.py): '
          'killed by category as killed/run (a mutant can be killed by several; the proofs '
          'run on a subset and on every mutant the other categories leave), the score '
          '(killed / (run - equivalent)) with its 95 % interval when the run is a sample.', '',
          '| block | generated | run | killed | lockstep | netlist | directed | formal | '
          'equivalent | untriaged | score | 95 % interval |',
          '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|']
    for r in rows:
        kb = r['killed_by']
        ran = r.get('ran', {})
        cell = {c: (f"{kb[c]}/{ran.get(c, r['run'])}" if c in kb else '-') for c in CATS}
        untri = sum(1 for s in survivors if s['block'] == r['block'] and
                    s['triage'] == 'untriaged')
        md.append(f"| {r['block']} | {r['generated']} | {r['run']} | {r['killed']} | "
                  f"{cell['lockstep']} | {cell['netlist']} | {cell['directed']} | "
                  f"{cell['formal']} | "
                  f"{r['equivalent']} | {untri} | {100 * r['score']:.1f} % | "
                  f"{100 * r['ci'][0]:.0f}-{100 * r['ci'][1]:.0f} % |")
    tot_run = sum(r['run'] for r in rows)
    tot_k = sum(r['killed'] for r in rows)
    tot_eq = sum(r['equivalent'] for r in rows)
    md += ['', f'Total: {tot_k} of {tot_run} killed, {tot_eq} equivalent '
               f'({100 * tot_k / max(1, tot_run - tot_eq):.1f} %).', '', '## Survivors', '']
    if not survivors:
        md.append('None.')
    else:
        md += ['| block | line | kind | original | mutant | triage |', '|---|---|---|---|---|---|']
        for s in survivors:
            note = f"{s['triage']}: {s['note']}" if s['note'] else s['triage']
            md.append(f"| {s['block']} | {s['file']}:{s['line']} | {s['op']} | "
                      f"`{s['original'][:70]}` | `{s['mutant'][:70]}` | {note} (`{s['key']}`) |")
    with open(os.path.join(a.out, 'mutation.md'), 'w') as f:
        f.write('\n'.join(md) + '\n')
    with open(os.path.join(a.out, 'mutation.json'), 'w') as f:
        json.dump({'blocks': rows, 'survivors': survivors}, f, indent=1)
    print('\n'.join(md[4:4 + len(rows) + 2]))
    print(f"report: {os.path.join(a.out, 'mutation.md')}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
