#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ECP5 synthesis (Yosys synth_ecp5) and, unless --synth-only, place and route (nextpnr-ecp5)
of one block in one named configuration, out of context (no I/O buffers), for an LFE5U-85F
speed grade 8 (CABGA381). Writes <report>/<top>__<config>.json with LUT/FF/BRAM counts and
Fmax, and prints the same figures.

Called by the CTests synth.ecp5.* and fpga.ecp5.* (cmake/HtmTesting.cmake); run it by hand the
same way (see docs/flows.md).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time


def run(cmd, log):
    t0 = time.monotonic()
    with open(log, 'w') as f:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode
    if rc != 0:
        with open(log) as f:
            tail = f.read()[-3000:]
        sys.exit(f'ecp5_flow: {cmd[0]} failed (exit {rc}); log {log}:\n{tail}')
    return time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--yosys', required=True)
    ap.add_argument('--nextpnr', required=True)
    ap.add_argument('--top', required=True)
    ap.add_argument('--config', required=True)
    ap.add_argument('--params', default='', help='"Name value;Name value" (CMake list)')
    ap.add_argument('--files', required=True, help='RTL files, relative, ;-separated')
    ap.add_argument('--includes', default='', help='Yosys -I options')
    ap.add_argument('--work', required=True, help='work directory (inside the source tree)')
    ap.add_argument('--report', required=True, help='report directory')
    ap.add_argument('--synth-only', action='store_true')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--freq', type=float, default=100.0, help='target MHz (not enforced)')
    a = ap.parse_args()

    name = f'{a.top}__{a.config}'
    os.makedirs(a.work, exist_ok=True)
    os.makedirs(a.report, exist_ok=True)
    work = os.path.relpath(a.work)
    chparams = ''.join(f' -chparam {p}' for p in a.params.split(';') if p.strip())
    files = ' '.join(f for f in a.files.split(';') if f)
    script = os.path.join(work, f'{name}.ys')
    json_net = os.path.join(work, f'{name}.json')
    stat_json = os.path.join(work, f'{name}.stat.json')
    with open(script, 'w') as f:
        f.write(f'read_verilog -sv -noautowire {a.includes} {files}\n'
                f'hierarchy -check -top {a.top}{chparams}\n'
                f'synth_ecp5 -top {a.top} -json {json_net}\n'
                f'tee -q -o {stat_json} stat -json\n')
    t_synth = run([a.yosys, '-q', '-s', script], os.path.join(work, f'{name}.synth.log'))
    with open(stat_json) as f:
        text = f.read()
    stat = json.loads(text[text.index('{'):])
    cells = stat['design']['num_cells_by_type']
    luts = cells.get('LUT4', 0)
    ffs = sum(v for k, v in cells.items() if k.startswith('TRELLIS_FF'))
    brams = cells.get('DP16KD', 0) + cells.get('PDPW16KD', 0)
    lutram = cells.get('TRELLIS_DPR16X4', 0)
    carry = cells.get('CCU2C', 0)
    report = {'top': a.top, 'config': a.config, 'device': 'LFE5U-85F-8BG381',
              'lut4': luts, 'ff': ffs, 'bram_dp16kd': brams, 'lutram_dpr16x4': lutram,
              'ccu2c': carry, 'synth_seconds': round(t_synth, 1)}
    if not a.synth_only:
        pnr_report = os.path.join(work, f'{name}.pnr.json')
        t_pnr = run([a.nextpnr, '--85k', '--speed', '8', '--package', 'CABGA381',
                     '--json', json_net, '--out-of-context', '--freq', str(a.freq),
                     '--timing-allow-fail', '--seed', str(a.seed), '--report', pnr_report],
                    os.path.join(work, f'{name}.pnr.log'))
        with open(pnr_report) as f:
            pnr = json.load(f)
        fmax = pnr.get('fmax', {})
        report['fmax_mhz'] = round(min(v['achieved'] for v in fmax.values()), 1) if fmax else None
        report['pnr_seed'] = a.seed
        report['pnr_seconds'] = round(t_pnr, 1)
        util = pnr.get('utilization', {})
        report['slices_used'] = util.get('TRELLIS_COMB', {}).get('used')
    out = os.path.join(a.report, f'{name}.json')
    with open(out, 'w') as f:
        json.dump(report, f, indent=1, sort_keys=True)
        f.write('\n')
    figures = ', '.join(f'{k} {v}' for k, v in sorted(report.items()) if k not in ('top', 'config'))
    print(f'{a.top}/{a.config}: {figures}')
    if luts + ffs == 0:
        sys.exit('ecp5_flow: the design synthesised to nothing')


if __name__ == '__main__':
    main()
