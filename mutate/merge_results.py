#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Merges mutation results of the same blocks from several runs into one results directory.

A block's mutants can be run in pieces: a sample extended later (--ids), or a category run
on its own (the netlist category after lockstep and directed). This merges the
<block>.json files of mutate/run_mutants.py by mutant id: a mutant's categories are the union
of its runs' (a later directory's verdict of the same category wins), and the summary is
recomputed from the merged mutants. mutate/report.py then reads the output directory.

  merge_results.py --out DIR [--only-with CATEGORY] RESULTS_DIR [RESULTS_DIR ...]

--only-with keeps only the mutants that have a result in that category (a category run on the
whole population merged with a sample of the others: the sample's mutants).

Exit 0, 1 when two runs disagree on a block's mutants (different generated lists or seeds),
2 on bad usage.
"""
import argparse
import json
import os
import sys


def tally(muts, cats):
    """Per category: the mutants it killed (killed_by) and the mutants it ran (ran). Shared
    with mutate/run_mutants.py's summary."""
    return {
        'killed_by': {c: sum(1 for m in muts
                             if m['results'].get(c, {}).get('status', 'survived') != 'survived')
                      for c in cats},
        'ran': {c: sum(1 for m in muts if c in m['results']) for c in cats},
    }


def merge(docs, only_with=None):
    """One results document from several of the same block."""
    first = docs[0]['summary']
    by_id = {}
    lists = {'lockstep_tests': [], 'netlist_tests': [], 'formal_tests': []}
    cats = []
    seconds = 0.0
    for d in docs:
        s = d['summary']
        if s['generated'] != first['generated'] or s['seed'] != first['seed']:
            raise ValueError(f"{s['block']}: runs of different mutant lists or seeds "
                             f"({first['generated']}/{first['seed']} and "
                             f"{s['generated']}/{s['seed']})")
        for k in lists:
            lists[k] += [t for t in s.get(k, []) if t not in lists[k]]
        cats += [c for c in s['categories'] if c not in cats]
        seconds += s.get('seconds', 0.0)
        for m in d['mutants']:
            old = by_id.get(m['id'])
            if old and old['key'] != m['key']:
                raise ValueError(f"{s['block']}: mutant {m['id']} is {old['key']} in one run "
                                 f"and {m['key']} in another")
            res = dict(old['results']) if old else {}
            res.update(m['results'])
            by_id[m['id']] = {**m, 'results': res}
    muts = [by_id[i] for i in sorted(by_id) if not only_with or only_with in by_id[i]['results']]
    for m in muts:
        m['killed_by'] = [c for c, v in m['results'].items() if v['status'] != 'survived']
    summary = {
        **first, 'run': len(muts), 'killed': sum(1 for m in muts if m['killed_by']),
        'categories': cats,
        'sample': 'all' if len(muts) == first['generated'] else f'{len(muts)} (merged)',
        **tally(muts, cats), 'seconds': round(seconds, 1), **lists,
    }
    return {'summary': summary, 'mutants': muts}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', required=True)
    ap.add_argument('--only-with', help='keep the mutants with a result in this category')
    ap.add_argument('results', nargs='+')
    a = ap.parse_args()
    blocks = {}
    for r in a.results:
        if not os.path.isdir(r):
            print(f'merge_results: {r} is not a directory', file=sys.stderr)
            return 2
        for f in sorted(os.listdir(r)):
            if f.endswith('.json'):
                try:
                    d = json.load(open(os.path.join(r, f)))
                    blocks.setdefault(d['summary']['block'], []).append(d)
                except (OSError, ValueError, KeyError) as e:
                    print(f'merge_results: {os.path.join(r, f)}: not a results file ({e})',
                          file=sys.stderr)
                    return 2
    if not blocks:
        print('merge_results: no results in ' + ' '.join(a.results), file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    for b, docs in sorted(blocks.items()):
        try:
            d = merge(docs, a.only_with)
        except ValueError as e:
            print(f'merge_results: {e}', file=sys.stderr)
            return 1
        with open(os.path.join(a.out, f'{b}.json'), 'w') as f:
            json.dump(d, f, indent=1)
        s = d['summary']
        per_cat = ', '.join(f"{c} {s['killed_by'][c]}/{s['ran'][c]}" for c in s['categories'])
        print(f"{b}: {s['run']} of {s['generated']} run, {s['killed']} killed ({per_cat})")
    return 0


if __name__ == '__main__':
    sys.exit(main())
