#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Formal proof of one formal wrapper with the pinned Yosys and yosys-smtbmc (z3).

  prove: BMC from reset for --depth steps (base case) and k-induction with k = --depth
         (inductive step): the properties hold in every reachable state (unbounded).
  bmc:   BMC only, to --depth steps (a bounded result; say so wherever it is reported).
  cover: every cover statement must be reachable within --depth steps (guards against
         over-constrained assumptions).

A design with no assert statement fails (a proof of nothing is not a pass). Debian's z3 4.8.12
needs smtbmc's --unroll. Exit 0 on success, 1 on a failed or inconclusive proof, 2 on usage.
"""
import argparse
import os
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--yosys', required=True)
    ap.add_argument('--smtbmc', required=True)
    ap.add_argument('--top', required=True, help='formal wrapper module')
    ap.add_argument('--name', required=True, help='name of this proof (work file prefix)')
    ap.add_argument('--params', default='', help='"Name value;Name value" (CMake list)')
    ap.add_argument('--files', required=True, help='RTL and formal files, relative, ;-separated')
    ap.add_argument('--includes', default='')
    ap.add_argument('--mode', choices=['prove', 'bmc', 'cover'], required=True)
    ap.add_argument('--depth', type=int, required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--memory-map', action='store_true',
                    help='map memories to registers (z3 is much faster on small RAMs as bits)')
    ap.add_argument('--cut', default='',
                    help='modules whose instances become formal cut points (outputs free every '
                         'cycle), ;-separated: sound for safety properties, for a sub-block '
                         'whose values the properties do not need')
    a = ap.parse_args()
    if a.depth < 1:
        print('run_formal: --depth must be at least 1', file=sys.stderr)
        return 2
    os.makedirs(a.work, exist_ok=True)
    work = os.path.relpath(a.work)
    chparams = ''.join(f' -chparam {p}' for p in a.params.split(';') if p.strip())
    files = ' '.join(f for f in a.files.split(';') if f)
    smt2 = os.path.join(work, f'{a.name}.smt2')
    script = os.path.join(work, f'{a.name}.ys')
    kind = '$cover' if a.mode == 'cover' else '$assert'
    with open(script, 'w') as f:
        f.write(f'read_verilog -sv -formal -noautowire -defer {a.includes} {files}\n'
                f'hierarchy -check -top {a.top}{chparams}\n'
                + ''.join(f'cutpoint t:{m} t:$paramod\\{m}\\* t:$paramod$*\\{m}\n' for m in a.cut.split(';') if m)
                + 
                f'prep -flatten -top {a.top}\n'
                + ('memory_map\nopt -fast\n' if a.memory_map else '') +
                f'async2sync\n'
                f'chformal -lower\n'
                f'select -assert-min 1 t:{kind}\n'
                f'dffunmap\n'
                f'write_smt2 -wires {smt2}\n')
    log = os.path.join(work, f'{a.name}.log')
    t0 = time.monotonic()
    with open(log, 'w') as lf:
        rc = subprocess.run([a.yosys, '-q', '-s', script], stdout=lf, stderr=subprocess.STDOUT)
        if rc.returncode != 0:
            lf.flush()
            print(open(log).read()[-3000:])
            print(f'run_formal: Yosys failed (no {kind} cells is a failure too); log {log}')
            return 1
    base = [a.smtbmc, '-s', 'z3', '--unroll', '--presat']
    vcd = os.path.join(work, f'{a.name}_cex.vcd')
    runs = []
    if a.mode == 'cover':
        runs.append(('cover', base + ['-c', '-t', str(a.depth), smt2]))
    else:
        runs.append((f'bmc depth {a.depth}', base + ['-t', str(a.depth), '--dump-vcd', vcd, smt2]))
        if a.mode == 'prove':
            runs.append((f'induction k={a.depth}',
                         base + ['-i', '-t', str(a.depth), '--dump-vcd', vcd, smt2]))
    ok = True
    for what, cmd in runs:
        r = subprocess.run(cmd, capture_output=True, text=True)
        out = r.stdout + r.stderr
        with open(log, 'a') as lf:
            lf.write(f'==== {what}: {" ".join(cmd)}\n{out}')
        passed = r.returncode == 0 and 'PASSED' in out
        print(f'{a.name}: {what}: {"PASSED" if passed else "FAILED"}')
        if not passed:
            print('\n'.join(out.splitlines()[-25:]))
            print(f'run_formal: counterexample (if any): {vcd}; log {log}')
            ok = False
            break
    print(f'{a.name}: {a.mode} {"PASSED" if ok else "FAILED"} in {time.monotonic() - t0:.1f} s')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
