#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The area and power flow of one block in one named configuration: its RAM macros through
CACTI 7 at 40 nm and 22 nm (area/arrays.py, area/cacti.py), its logic mapped by Yosys onto the
OSU 0.18 um and the sky130_fd_sc_hd area-only cells (area/logic.py), and the OSU netlist's power
from OpenSTA at the switching activity measured in the block's lockstep bench (area/power.py,
area/activity.py). Writes <report>/<top>__<config>.json (read by area/report.py) and prints a
summary line.

Called by the CTests area.<top>.<config> (cmake/HtmTesting.cmake), from the repository's root,
with the calling convention of fpga/ecp5_flow.py:
  area/area_flow.py --yosys Y --sta STA --htmsim HTMSIM_RTL --cacti-dir D --osu-lib L1
      --sky130-lib L2 --top T --config C --params "P V;..." --files "a.sv;..."
      --includes "-I ..." --work DIR --report DIR
Exit status: 0 written; 1 a step failed (its message names the block, configuration and step;
no result is written); 2 bad usage.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
NODES = (40, 22)
# OSU 0.18 um: the clock at which the logic's power is given (a period the library's cells meet
# comfortably; the papers' blocks run at 700 MHz in 40 nm).
OSU_CLOCK_MHZ = 100
ACTIVITY_CYCLES = 2000
ACTIVITY_SEED = 1


class FlowError(Exception):
    pass


def step(args, what, cmd, log=None):
    """Runs one step; its stdout is returned, its failure raised with the step named."""
    r = subprocess.run(cmd, capture_output=True, text=True)
    if log:
        with open(log, 'w') as f:
            f.write(' '.join(cmd) + '\n' + r.stdout + r.stderr)
    if r.returncode != 0:
        tail = (r.stderr or r.stdout).strip()[-2000:]
        raise FlowError(f'{args.top}/{args.config}: {what} failed (exit {r.returncode}): {tail}')
    return r.stdout


def design_args(args):
    return ['--yosys', args.yosys, '--top', args.top, '--config', args.config,
            '--params', args.params, '--files', args.files, '--includes', args.includes]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    for opt in ('--yosys', '--sta', '--htmsim', '--cacti-dir', '--osu-lib', '--sky130-lib',
                '--top', '--config', '--files', '--work', '--report'):
        ap.add_argument(opt, required=True)
    ap.add_argument('--params', default='')
    ap.add_argument('--includes', default='')
    args = ap.parse_args()
    for path, what in ((args.osu_lib, 'OSU 0.18 um liberty'), (args.sky130_lib, 'sky130 liberty'),
                       (args.htmsim, 'htmsim-rtl'), (os.path.join(args.cacti_dir, 'cacti'),
                                                      'CACTI')):
        if not os.path.exists(path):
            print(f'area flow: {args.top}/{args.config}: the {what} is missing: {path} '
                  '(run tools/setup.sh and rebuild)', file=sys.stderr)
            return 1
    work = os.path.join(args.work, f'{args.top}__{args.config}')
    os.makedirs(work, exist_ok=True)
    t0 = time.monotonic()
    try:
        result = run_flow(args, work)
    except FlowError as e:
        print(f'area flow: {e}', file=sys.stderr)
        return 1
    result['flow_seconds'] = round(time.monotonic() - t0, 1)
    os.makedirs(args.report, exist_ok=True)
    out = os.path.join(args.report, f'{args.top}__{args.config}.json')
    tmp = out + '.tmp'
    with open(tmp, 'w') as f:
        json.dump(result, f, indent=1)
        f.write('\n')
    os.replace(tmp, out)
    arr = result['arrays']
    a40 = sum(a['cacti']['40']['area_mm2'] for a in arr)
    print(f"area flow: {args.top}/{args.config}: {len(arr)} macros {a40:.4g} mm2 at 40 nm; "
          f"logic {result['logic']['osu018']['area_um2']:.0f} um2 (OSU 0.18), "
          f"{result['logic']['sky130_hd']['area_um2']:.0f} um2 (sky130); "
          f"{result['power']['osu018']['total_mw']:.4g} mW at {OSU_CLOCK_MHZ} MHz; "
          f"{result['flow_seconds']} s -> {out}")
    return 0


def run_flow(args, work):
    params = dict(p.split(' ', 1) for p in args.params.split(';') if p.strip())
    # 1. RAM macros and their CACTI figures.
    cmd = [sys.executable, os.path.join(HERE, 'arrays.py')] + design_args(args) + [
        '--work', work, '--cacti-dir', args.cacti_dir,
        '--cache-dir', os.path.join(args.work, 'cacti_cache')]
    for n in NODES:
        cmd += ['--node', str(n)]
    arrays = json.loads(step(args, 'the array extraction (area/arrays.py)', cmd,
                             os.path.join(work, 'arrays.log')))
    # 2. Logic in both libraries.
    logic = {}
    for lib, path in (('osu018', args.osu_lib), ('sky130_hd', args.sky130_lib)):
        out = os.path.join(work, f'logic_{lib}.json')
        step(args, f'the logic mapping onto {lib} (area/logic.py)',
             [sys.executable, os.path.join(HERE, 'logic.py')] + design_args(args) + [
                 '--liberty', path, '--lib-name', lib, '--work', os.path.join(work, lib),
                 '--out', out], os.path.join(work, f'logic_{lib}.log'))
        with open(out) as f:
            logic[lib] = json.load(f)
    # 3. Activity from the lockstep bench, then the OSU netlist's power.
    act_out = os.path.join(work, 'activity.json')
    step(args, 'the activity measurement (area/activity.py)',
         [sys.executable, os.path.join(HERE, 'activity.py'), '--htmsim', args.htmsim,
          '--top', args.top, '--config', args.config, '--from', 'bench',
          '--cycles', str(ACTIVITY_CYCLES), '--seed', str(ACTIVITY_SEED),
          '--work', os.path.join(work, 'activity'), '--netlist', logic['osu018']['netlist'],
          '--out', act_out], os.path.join(work, 'activity.log'))
    with open(act_out) as f:
        activity = json.load(f)
    pw_out = os.path.join(work, 'power_osu018.json')
    step(args, 'the power analysis (area/power.py)',
         [sys.executable, os.path.join(HERE, 'power.py'), '--sta', args.sta,
          '--liberty', args.osu_lib, '--netlist', logic['osu018']['netlist'], '--top', args.top,
          '--clock-mhz', str(OSU_CLOCK_MHZ), '--activity-json', act_out, '--scope', 'input',
          '--work', os.path.join(work, 'power'), '--out', pw_out],
         os.path.join(work, 'power.log'))
    with open(pw_out) as f:
        power = json.load(f)
    power.update(clock_mhz=OSU_CLOCK_MHZ, activity=activity['input_activity'],
                 activity_source=f'bench inputs, {ACTIVITY_CYCLES} cycles, seed {ACTIVITY_SEED}')
    return {'top': args.top, 'config': args.config, 'params': params,
            'arrays': arrays['arrays'], 'logic': logic, 'power': {'osu018': power},
            'activity': activity}


if __name__ == '__main__':
    sys.exit(main())
