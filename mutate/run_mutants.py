#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs the mutants of one block against the block's make-test scope, category by category.

  lockstep  the block's random lockstep test in every configuration the binary has
            (Rtl/LockstepTest.Random/<block>_<config>), fixed seed
  netlist   the block's netlist lockstep tests (Netlist/LockstepTest.Random/<block>_<config>):
            one Yosys netlist per configuration holds every mutant behind the selector
            (mutate/mutant_netlist.py; built with HTM_MUTATE_NETLIST). A mutant of an
            asynchronous reset's condition cannot be in a netlist: this category skips it.
  directed  the block's directed suite (<Block>Directed.*)
  formal    the block's make-test proofs (CTests formal.<block>.* of label formal), each with the
            mutant elaborated by Yosys (HTM_MUT_SEL)

A mutant is killed by a category when any of its runs fails: a mismatch, an RTL assertion, a
crash, a failed proof, or a run longer than the time limit (five times the original's, plus
ten seconds). Every category first runs on the original design (no mutant), which must pass.
Writes <out>/<block>.json and prints one line per mutant. Exit 0, or 1 when the original fails
or fewer than --min-killed mutants are killed, 2 on bad usage.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import subprocess
import sys
import time

from merge_results import tally

CATEGORIES = ('lockstep', 'netlist', 'directed', 'formal')

FORMAL_SCOPE = {  # blocks proved inside another block's wrapper
    'htm_lds_wf_ctrl': 'htm_lds_wg',
    'htm_lds_wgs_arb': 'htm_lds_wg',
}


def camel(block):
    return ''.join(w[:1].upper() + w[1:] for w in block.removeprefix('htm_').split('_'))


def configs_of(build, block):
    hdr = os.path.join(build, 'gen', 'include', 'htm', 'configs', f'{block}.h')
    try:
        text = open(hdr).read()
    except OSError:
        return None
    m = re.search(r'kAll\{\{(.*)\}\};', text, re.S)
    return re.findall(r'\{"([a-z0-9]+)",', m.group(1)) if m else None


def list_tests(binary):
    out = subprocess.run([binary, '--gtest_list_tests'], capture_output=True, text=True,
                         check=True).stdout
    tests = []
    suite = None
    for line in out.splitlines():
        if not line.startswith(' '):
            suite = line.strip()
        elif suite:
            tests.append(suite + line.split('#')[0].strip())
    return tests


def formal_tests(build, block):
    """The make-test proofs of the block: (name, argv) from CTest's JSON."""
    out = subprocess.run(['ctest', '--test-dir', build, '--show-only=json-v1'],
                         capture_output=True, text=True, check=True).stdout
    scope = FORMAL_SCOPE.get(block, block)
    result = []
    for t in json.loads(out)['tests']:
        labels = []
        for p in t.get('properties', []):
            if p['name'] == 'LABELS':
                labels = p['value']
        if t['name'].startswith(f'formal.{scope}.') and 'formal' in labels:
            result.append((t['name'], t['command']))
    return result


def mutant_formal_argv(argv, block, mid, rel_inst, rel_src, work):
    """A proof's command with the instrumented file in place of the block's and mutant mid."""
    a = list(argv)
    for k, x in enumerate(a):
        if x == '--files':
            files = a[k + 1].split(';')
            if rel_src not in files:
                raise ValueError(f'{rel_src} is not among the proof files')
            a[k + 1] = ';'.join(rel_inst if f == rel_src else f for f in files)
        elif x == '--includes':
            a[k + 1] = f'{a[k + 1]} -DHTM_MUT_SEL={mid}'
        elif x == '--work':
            a[k + 1] = work
        elif x == '--name':
            a[k + 1] = f'{a[k + 1]}_m{mid}'
    return a


def run(argv, env, timeout):
    t0 = time.monotonic()
    try:
        r = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 'timeout', time.monotonic() - t0, f'over the {timeout:.0f} s limit'
    dt = time.monotonic() - t0
    if r.returncode == 0:
        return 'pass', dt, ''
    text = r.stdout + r.stderr
    why = ''
    for pat in (r'mismatch\n\s*[^\n]*', r'mismatch[^\n]*', r'Assert(?:ion)? failed[^\n]*',
                r'%Error[^\n]*', r'[Cc]over[^\n]*(?:unreached|not reached|FAILED)[^\n]*',
                r'Failure\n[^\n]*\n[^\n]*', r'FAILED[^\n]*'):
        m = re.search(pat, text)
        if m:
            why = ' '.join(m.group(0).split())[:200]
            break
    return 'fail', dt, why or f'exit {r.returncode}'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build', required=True, help='the build tree (configured)')
    ap.add_argument('--binary', required=True, help='htm_mutants or htm_mutants_short')
    ap.add_argument('--block', required=True)
    ap.add_argument('--sample', default='all', help='mutants to run: a number or all')
    ap.add_argument('--seed', type=int, default=1, help='sample and lockstep seed')
    ap.add_argument('--categories', default='lockstep,directed,formal')
    ap.add_argument('--ids', default='', help='run only these mutant ids (comma-separated)')
    ap.add_argument('--formal-sample', type=int, default=10,
                    help='proofs run on this many of the mutants (the first of the sample), '
                         'and on every mutant the other categories do not kill')
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--min-killed', type=int, default=0)
    ap.add_argument('--out', required=True)
    a = ap.parse_args()

    cats = [c for c in a.categories.split(',') if c]
    for c in cats:
        if c not in CATEGORIES:
            print(f'run_mutants: unknown category {c} ({", ".join(CATEGORIES)})',
                  file=sys.stderr)
            return 2
    listing = os.path.join(a.build, 'gen', 'mutate', f'{a.block}.json')
    if not os.path.exists(listing):
        known = sorted(f[:-5] for f in os.listdir(os.path.join(a.build, 'gen', 'mutate'))
                       if f.endswith('.json'))
        print(f'run_mutants: no mutants of {a.block} (blocks: {" ".join(known)})',
              file=sys.stderr)
        return 2
    if not os.access(a.binary, os.X_OK):
        print(f'run_mutants: {a.binary} is not built', file=sys.stderr)
        return 2
    mutants = json.load(open(listing))
    if a.ids:
        try:
            want = {int(x) for x in a.ids.split(',')}
        except ValueError:
            print(f'run_mutants: --ids must be numbers, not {a.ids}', file=sys.stderr)
            return 2
        mutants = [m for m in mutants if m['id'] in want]
    elif a.sample != 'all':
        if not a.sample.isdigit() or int(a.sample) < 1:
            print(f'run_mutants: --sample must be a positive number or all, not {a.sample}',
                  file=sys.stderr)
            return 2
        k = min(int(a.sample), len(mutants))
        mutants = sorted(random.Random(a.seed).sample(mutants, k), key=lambda m: m['id'])

    # The scope of each category.
    tests = list_tests(a.binary)
    cfgs = configs_of(a.build, a.block) or []
    scope = {}
    lock = [f'Rtl/LockstepTest.Random/{a.block}_{c}' for c in cfgs]
    lock = [t for t in lock if t in tests]
    if 'lockstep' in cats:
        if not lock:
            print(f'run_mutants: {a.binary} has no lockstep test of {a.block}', file=sys.stderr)
            return 2
        scope['lockstep'] = [[a.binary, '--gtest_filter=' + ':'.join(lock)]]
    net = []
    if 'netlist' in cats:
        net = [f'Netlist/LockstepTest.Random/{a.block}_{c}' for c in cfgs]
        net = [t for t in net if t in tests]
        if not net:
            print(f'run_mutants: {a.binary} has no netlist test of {a.block} (configure with '
                  f'-DHTM_MUTATE_NETLIST=ON)', file=sys.stderr)
            return 2
        scope['netlist'] = [[a.binary, '--gtest_filter=' + ':'.join(net)]]
    if 'directed' in cats:
        suite = camel(a.block) + 'Directed.'
        if any(t.startswith(suite) for t in tests):
            scope['directed'] = [[a.binary, f'--gtest_filter={suite}*']]
    formal = []
    if 'formal' in cats:
        formal = formal_tests(a.build, a.block)
        if formal:
            scope['formal'] = [argv for _, argv in formal]
    src_rel = mutants[0]['file'] if mutants else None
    inst_rel = os.path.relpath(os.path.join(a.build, 'gen', 'mutate', f'{a.block}.sv'))
    os.makedirs(a.out, exist_ok=True)
    work = os.path.join(a.out, 'work', a.block)
    os.makedirs(work, exist_ok=True)

    env0 = dict(os.environ)
    env0.pop('HTM_MUTANT', None)
    env0['HTM_SEED'] = str(a.seed)
    env0.pop('HTM_CYCLES', None)
    env0.pop('HTM_CYCLES_SCALE', None)

    def commands(cat, mid):
        if cat != 'formal':
            return scope[cat]
        # The proofs read the instrumented copy, the original design too (HTM_MUT_SEL=0).
        wdir = os.path.join(work, f'm{mid}')
        return [mutant_formal_argv(x, a.block, mid, inst_rel, src_rel, wdir)
                for x in scope[cat]]

    # The original design first: every category must pass; its time sets the limits.
    limit = {}
    for cat in scope:
        total = 0.0
        for argv in commands(cat, 0):
            st, dt, why = run(argv, env0, 3600)
            if st != 'pass':
                print(f'run_mutants: {a.block}: the original design fails {cat}: {why}\n'
                      f'  {" ".join(argv)}', file=sys.stderr)
                return 1
            total = max(total, dt)
        limit[cat] = 5 * total + 10
        print(f'{a.block}: original passes {cat} ({total:.1f} s)')

    formal_ids = {m['id'] for m in mutants[:max(0, a.formal_sample)]}

    def one(m):
        env = dict(env0)
        env['HTM_MUTANT'] = f"{a.block}:{m['id']}"
        res = {}
        for cat in scope:
            if (cat == 'formal' and m['id'] not in formal_ids
                    and any(v['status'] != 'survived' for v in res.values())):
                continue  # killed already: the proofs run on a sample only (they are slow)
            if cat == 'netlist' and not m.get('netlist', True):
                continue  # not in the netlist (an asynchronous reset's condition)
            verdict = {'status': 'survived', 'why': '', 'seconds': 0.0}
            for argv in commands(cat, m['id']):
                st, dt, why = run(argv, env, limit[cat])
                verdict['seconds'] += dt
                if st != 'pass':
                    verdict['status'] = 'killed' if st == 'fail' else 'timeout'
                    verdict['why'] = why
                    break
            res[cat] = verdict
        return m, res

    results = []
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        for m, res in ex.map(one, mutants):
            killed_by = [c for c, v in res.items() if v['status'] != 'survived']
            if res:  # no category ran it (the netlist alone, a mutant not in the netlist)
                results.append({**m, 'results': res, 'killed_by': killed_by})
            mark = ','.join(killed_by) if killed_by else 'SURVIVED' if res else 'not run'
            print(f"{a.block} #{m['id']:<5d} {m['file']}:{m['line']} {m['op']:6s} "
                  f"{m['original'][:50]} -> {m['mutant'][:50]}  [{mark}]", flush=True)
    killed = sum(1 for r in results if r['killed_by'])
    summary = {
        'block': a.block, 'generated': len(json.load(open(listing))), 'run': len(results),
        'killed': killed, 'categories': list(scope), 'seed': a.seed, 'sample': a.sample,
        'binary': os.path.basename(a.binary), 'lockstep_tests': lock,
        'netlist_tests': net,
        'formal_tests': [n for n, _ in formal],
        **tally(results, scope),
        'seconds': round(time.monotonic() - t0, 1),
    }
    with open(os.path.join(a.out, f'{a.block}.json'), 'w') as f:
        json.dump({'summary': summary, 'mutants': results}, f, indent=1)
    by = ' '.join(f'{c} {n}/{summary["ran"][c]}' for c, n in summary['killed_by'].items())
    print(f'{a.block}: {killed}/{len(results)} killed ({by}) of {summary["generated"]} '
          f'generated, {summary["seconds"]} s')
    if killed < a.min_killed:
        print(f'run_mutants: only {killed} mutants killed, at least {a.min_killed} expected',
              file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
