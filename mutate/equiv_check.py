#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks a mutant against the original design with a SAT miter (Yosys `miter -equiv` and
`sat -tempinduct`): the evidence behind an "equivalent" triage line.

  equiv_check.py --build build --block <block> (--keys k1,k2 | --ids 3,7 | --triaged)
                 [--config <name>] [--steps 20] [--timeout 300] [--jobs 1] [--out <json>]

Both designs are elaborated from the block's instrumented copy (build/gen/mutate/<block>.sv)
at one named configuration (default: the block's short configuration, the one the make-test
mutation sample uses), with HTM_MUT_SEL=0 and HTM_MUT_SEL=<id>. The miter compares every output
in every cycle; the inputs are free (protocol violations included), reset is asserted in the
first cycle, and every register without a reset starts at zero in both designs. Verdicts:
  proved    the outputs are equal in every cycle: the induction closed (an unbounded proof)
  bounded   equal for --steps cycles after reset; the induction did not close
  differs   an input sequence makes an output differ: the step and the outputs are printed
            (an output that the block defines only while its valid is high can differ and
            still be unobservable: the triage line must then say so)
  timeout / error
--triaged checks every mutant that mutate/triage/<block>.txt calls equivalent. Exit 0, or 1
when a checked mutant differs or its check fails to run (a timeout is reported, not an error),
2 on bad usage.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cache_value(build, name):
    try:
        with open(os.path.join(build, 'CMakeCache.txt')) as f:
            for line in f:
                if line.startswith(name + ':'):
                    return line.split('=', 1)[1].strip()
    except OSError:
        pass
    return None


def netlist_script(build, block, config):
    """The read_verilog and hierarchy lines of the block's netlist script for the config."""
    path = os.path.join(build, 'gen', 'netlist', f'{block}__{config}.ys')
    if not os.path.exists(path):
        have = sorted(f[len(block) + 2:-3] for f in os.listdir(os.path.dirname(path))
                      if f.startswith(block + '__') and f.endswith('.ys'))
        raise ValueError(f'no netlist script {path} (configurations with one: '
                         f'{", ".join(have) or "none"})')
    read = hier = None
    for line in open(path):
        if line.startswith('read_verilog'):
            read = line.strip()
        elif line.startswith('hierarchy'):
            hier = line.strip()
    if not read or not hier:
        raise ValueError(f'{path}: no read_verilog/hierarchy line')
    return read, hier


def miter_script(block, src, read, hier, build_rel, sel, il_rel):
    """Pass 1: both designs and their miter (every output exposed), written as RTLIL."""
    mut = f'{build_rel}/gen/mutate/{block}.sv'
    if f' {src}' not in read:
        raise ValueError(f'{src} is not in the netlist script: {read}')
    body = []
    for name, s in (('gold', 0), ('gate', sel)):
        r = read.replace(f' {src}', f' {mut}').replace('read_verilog ',
                                                        f'read_verilog -DHTM_MUT_SEL={s} ', 1)
        body += [r, hier, 'proc', 'flatten', 'memory', 'opt_clean', f'rename {block} {name}',
                 f'design -stash {name}']
    body += ['design -copy-from gold -as gold gold', 'design -copy-from gate -as gate gate',
             'miter -equiv -flatten -make_outputs -ignore_gold_x gold gate miter',
             'hierarchy -top miter', 'opt -fast', f'write_rtlil {il_rel}']
    return '\n'.join(body) + '\n'


def qualifiers(def_path):
    """Output name -> the outputs whose conjunction qualifies it, from the block's port list
    (HTM_OUT(name, width, qualifier)): the lockstep compares an output only while its qualifier
    holds. A term that is not a plain RTL output (a model-only output, a per-element term) is
    dropped, which makes the check compare more, never less."""
    text = re.sub(r'//[^\n]*', '', open(def_path).read())
    quals = {}
    for m in re.finditer(r'HTM_OUT(_VEC)?\((.*?)\)\s*(?=HTM_|$)', text, re.S):
        args = [x.strip() for x in re.split(r',(?![^(]*\))', m.group(2))]
        name, qual = args[0], ' '.join(args[-1].split())
        quals[name] = [] if qual == 'true' else \
            [t.strip()[2:] for t in qual.split('&&') if re.fullmatch(r'o\.\w+', t.strip())]
    return quals


def miter_ports(il_text):
    """(direction, width) of every port of the miter module in the RTLIL text."""
    ports = {}
    inside = False
    for line in il_text.splitlines():
        line = line.strip()
        if line.startswith('module '):
            inside = line == 'module \\miter'
        elif inside and line.startswith('wire '):
            m = re.match(r'wire (?:width (\d+) )?(input|output) \d+ \\(\S+)', line)
            if m:
                ports[m.group(3)] = (m.group(2), int(m.group(1) or 1))
    return ports


def wrapper(ports, quals):
    """Pass 2's top: the miter, and a trigger that rises when a qualified output differs."""
    outs = sorted(n[5:-2] for n in ports if n.startswith('gold_') and n.endswith('_o'))
    unknown = [o for o in outs if o not in quals]
    if unknown:
        raise ValueError(f'outputs missing from the port list: {", ".join(unknown)}')
    decl, conn, terms = [], [], []
    for n, (d, w) in sorted(ports.items()):
        if n == 'trigger':
            continue
        decl.append(f'  {d} logic [{w - 1}:0] {n},')
        conn.append(f'.{n}({n})')
    for o in outs:
        q = [f'gold_{t}_o' for t in quals[o] if f'gold_{t}_o' in ports]
        cond = ' && '.join(q + [f'gold_{o}_o != gate_{o}_o'])
        terms.append(f'({cond})')
    trig = ' || '.join(terms) or "1'b0"
    return ('module htm_equiv_chk (\n' + '\n'.join(decl) + '\n  output logic trigger\n);\n'
            f'  miter u_miter ({", ".join(conn)}, .trigger());\n'
            f'  assign trigger = {trig};\nendmodule\n')


def sat_script(il_rel, sv_rel, steps):
    return '\n'.join([f'read_rtlil {il_rel}', f'read_verilog -sv {sv_rel}',
                      'hierarchy -top htm_equiv_chk', 'flatten', 'opt -fast', 'async2sync',
                      f'sat -tempinduct -prove trigger 0 -set-init-zero -set-at 1 in_rst_ni 0 '
                      f'-maxsteps {steps} -show-ports htm_equiv_chk']) + '\n'


ROW = re.compile(r'^\s+(\d+)\s+\\(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$')


def verdict(text, quals):
    if 'Induction step proven: SUCCESS' in text:
        return 'proved', ''
    fail = text.find('model found for base case: FAIL')
    if fail >= 0:
        # The counterexample from reset is the table printed after the verdict (the tables
        # before it are failed induction steps from arbitrary states).
        steps = {}
        for line in text[fail:].splitlines():
            m = ROW.match(line)
            if m:
                step, name, _dec, hexv, _bin = m.groups()
                steps.setdefault(int(step), {})[name] = hexv
        bad = [s for s, sig in steps.items() if sig.get('trigger') == '1']
        if not bad:
            return 'differs', 'counterexample not parsed'
        s = min(bad)
        sig = steps[s]
        diff = sorted(n[5:] for n in sig if n.startswith('gold_')
                      and sig.get('gate_' + n[5:]) != sig[n]
                      and all(sig.get(f'gold_{t}_o', '1') != '0'
                              for t in quals.get(n[5:-2], [])))
        detail = ', '.join(f'{n} gold {sig["gold_" + n]} gate {sig["gate_" + n]}' for n in diff)
        return 'differs', f'cycle {s - 1} after reset: {detail}'
    if 'Reached maximum number of time steps' in text:
        return 'bounded', ''
    return 'error', (text.strip().splitlines() or ['no output'])[-1]


def run_yosys(yosys, path, text, timeout):
    """Runs a Yosys script (written to path) from the source root: (returncode, output)."""
    with open(path, 'w') as f:
        f.write(text)
    p = subprocess.run([yosys, '-s', os.path.relpath(path, ROOT)], cwd=ROOT, text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    return p.returncode, p.stdout


def yosys_error(out):
    err = [l for l in out.splitlines() if l.startswith('ERROR')]
    return (err or (out.strip().splitlines() or ['no output'])[-1:])[0]


def triaged_equivalent(block):
    path = os.path.join(ROOT, 'mutate', 'triage', f'{block}.txt')
    keys = []
    if os.path.exists(path):
        for line in open(path):
            parts = line.split(None, 2)
            if len(parts) >= 2 and not line.startswith('#') and parts[1] == 'equivalent':
                keys.append(parts[0])
    return keys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build', required=True)
    ap.add_argument('--block', required=True)
    ap.add_argument('--config', default='')
    ap.add_argument('--keys', default='')
    ap.add_argument('--ids', default='')
    ap.add_argument('--triaged', action='store_true')
    ap.add_argument('--steps', type=int, default=20)
    ap.add_argument('--timeout', type=int, default=300)
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--out', default='')
    a = ap.parse_args()
    if sum(bool(x) for x in (a.keys, a.ids, a.triaged)) != 1:
        ap.error('give exactly one of --keys, --ids, --triaged')
    if a.steps < 1 or a.timeout < 1 or a.jobs < 1:
        ap.error('--steps, --timeout and --jobs must be positive')
    build = os.path.abspath(a.build)
    yosys = cache_value(build, 'HTM_YOSYS')
    config = a.config or cache_value(build, f'HTM_BLOCK_{a.block}_SHORT')
    listing = os.path.join(build, 'gen', 'mutate', f'{a.block}.json')
    if not yosys or not config or not os.path.exists(listing):
        print(f'equiv_check: {a.block} is not a mutated block of the configured tree {a.build} '
              f'(no {listing}, short configuration or Yosys)', file=sys.stderr)
        return 2
    muts = json.load(open(listing))
    by_key = {m['key']: m for m in muts}
    by_id = {str(m['id']): m for m in muts}
    if a.triaged:
        wanted = [(k, by_key.get(k)) for k in triaged_equivalent(a.block)]
    elif a.keys:
        wanted = [(k, by_key.get(k)) for k in a.keys.split(',')]
    else:
        wanted = [(i, by_id.get(i)) for i in a.ids.split(',')]
    missing = [k for k, m in wanted if m is None]
    if missing:
        print(f'equiv_check: not mutants of {a.block}: {", ".join(missing)}', file=sys.stderr)
        return 2
    try:
        read, hier = netlist_script(build, a.block, config)
    except (ValueError, OSError) as e:
        print(f'equiv_check: {e}', file=sys.stderr)
        return 2
    def_path = os.path.join(ROOT, 'golden', 'include', 'htm', 'golden', 'ports', f'{a.block}.def')
    if not os.path.exists(def_path):
        print(f'equiv_check: no port list {def_path}', file=sys.stderr)
        return 2
    work = os.path.join(build, 'mutate', 'equiv')
    os.makedirs(work, exist_ok=True)
    build_rel = os.path.relpath(build, ROOT)
    if build_rel.startswith('..'):
        print('equiv_check: the build tree must be inside the source tree (Yosys runs '
              'sandboxed in it)', file=sys.stderr)
        return 2

    quals = qualifiers(def_path)

    def one(m):
        base = os.path.join(work, f'{a.block}__{m["id"]}')
        rel = os.path.relpath(base, ROOT)
        try:
            rc, out = run_yosys(yosys, base + '.miter.ys', miter_script(
                a.block, m['file'], read, hier, build_rel, m['id'], rel + '.il'), a.timeout)
            if rc != 0:
                return 'error', yosys_error(out)
            with open(base + '.sv', 'w') as f:
                f.write(wrapper(miter_ports(open(base + '.il').read()), quals))
            rc, out = run_yosys(yosys, base + '.sat.ys', sat_script(rel + '.il', rel + '.sv',
                                                                     a.steps), a.timeout)
        except subprocess.TimeoutExpired:
            return 'timeout', f'more than {a.timeout} s'
        except (ValueError, OSError) as e:
            return 'error', str(e)
        v, d = verdict(out, quals)
        if v == 'error' or (rc != 0 and v != 'differs'):
            return 'error', yosys_error(out)
        return v, d

    results = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for (_, m), (v, d) in zip(wanted, ex.map(one, [m for _, m in wanted])):
            print(f'{a.block} #{m["id"]} {m["key"]} {m["file"]}:{m["line"]} {m["op"]} '
                  f'{m["original"]} -> {m["mutant"]}: {v}{" (" + d + ")" if d else ""}', flush=True)
            results.append({'key': m['key'], 'id': m['id'], 'verdict': v, 'detail': d})
    if a.out:
        with open(a.out, 'w') as f:
            json.dump({'block': a.block, 'config': config, 'steps': a.steps,
                       'results': results}, f, indent=1)
    count = {v: sum(r['verdict'] == v for r in results) for v in
             ('proved', 'bounded', 'differs', 'timeout', 'error')}
    print(f'{a.block} ({config}): ' + ', '.join(f'{n} {v}' for v, n in count.items() if n))
    return 1 if count['differs'] or count['error'] else 0


if __name__ == '__main__':
    sys.exit(main())
