#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Bitstream of the FPGA prototype's board top (htm_proto_ulx3s) for the ULX3S 85F.

For one named configuration of htm_sys (cmake/HtmConfigs.cmake: default, small, one) and a
subsystem clock in MHz: ecppll for the PLL's dividers from the board's 25 MHz oscillator, Yosys
synth_ecp5 of htm_proto_ulx3s with the subsystem's parameters, the clock (ClkKhz, from which
the UART's ClkPerBit and the command timeout follow) and the dividers; nextpnr-ecp5 (LFE5U-85F,
CABGA381, speed 8) with the board's pins (fpga/ulx3s_v20.lpf); ecppack to
<out>/htm_proto_ulx3s_<config>.bit. Prints the figures and writes them to
<out>/htm_proto_ulx3s_<config>.json and .md: LUT4, FF, DP16KD, MULT18X18D and slices used and
their share of the device, the subsystem clock's Fmax, whether the requested clock was met, the
seed and the wall times.

Several clocks (--mhz 100 75 62.5 50) are tried in the order given until one is met; a clock
above 1.05 times the best Fmax already measured is skipped (a lower target does not make the
design faster), unless --try-all. The bitstream is written for the clock met. Exit status 0
when a clock was met and the bitstream written; 1 on bad input (an unknown configuration, a
clock the PLL cannot make, a missing tool) or when no clock was met.

  fpga/proto_flow.py --config default --mhz 100 75 62.5 50 40 30 25 --out build/proto
  (what make proto runs)
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / 'fpga'))
sys.path.insert(0, str(ROOT / 'tools'))
import ecp5_flow  # noqa: E402  (run(): a tool with its log, exit with the log's tail on failure)
import gen_cores  # noqa: E402  (read_configs(), read_deps(): the configurations and file lists)

TOP = 'htm_proto_ulx3s'
SUBSYSTEM = 'htm_sys'
DEVICE = 'LFE5U-85F-8BG381'
OSC_MHZ = 25  # the board's oscillator (clk_25mhz)
BAUD = 115200
TIMEOUT_MS = 10  # htm_proto_ctrl's TimeoutCycles: 10 ms of the subsystem's clock
LPF = ROOT / 'fpga' / 'ulx3s_v20.lpf'
# ecppll's names of the PLL's dividers -> htm_ecp5_pll's parameters.
PLL_PARAMS = {'CLKI_DIV': 'ClkiDiv', 'CLKFB_DIV': 'ClkfbDiv', 'CLKOP_DIV': 'ClkopDiv',
              'CLKOP_CPHASE': 'ClkopCphase', 'CLKOP_FPHASE': 'ClkopFphase'}
# nextpnr-ecp5 0.11 places LUTs and flip-flops as TRELLIS_COMB and TRELLIS_FF, two of each per
# slice; it has no TRELLIS_SLICE cell. The slices a design needs are at least half its COMB or
# FF cells, whichever is more (the figure reported as slices).
SLICE_CELLS = 2
MET_MARGIN = 1.05  # a clock above this times the best Fmax so far is not tried


def fail(msg):
    sys.exit(f'proto_flow: {msg}')


def find_tool(name, flag, given, tools_bin):
    """The path of a tool: --<flag> as given, else in --tools-bin, else on PATH."""
    if given:
        path = given if os.path.isfile(given) else shutil.which(given)
    else:
        path = None
        if tools_bin:
            cand = os.path.join(tools_bin, name)
            path = cand if os.path.isfile(cand) else None
        path = path or shutil.which(name)
    if not path:
        fail(f'{name} not found (give --{flag} or --tools-bin; '
             'tools/setup.sh --print-bin names the directory of the pinned tools)')
    return path


def sys_params(config):
    """htm_sys's Param=value pairs of a named configuration, from cmake/HtmConfigs.cmake."""
    configs = gen_cores.read_configs().get(SUBSYSTEM, [])
    for name, _, params in configs:
        if name == config:
            return [(k, int(v)) for k, v in params]
    fail(f'unknown configuration {config!r} of {SUBSYSTEM} (cmake/HtmConfigs.cmake has '
         f'{", ".join(n for n, _, _ in configs)})')


def pll(ecppll, mhz, work):
    """ecppll's dividers for OSC_MHZ to `mhz`: ({parameter: value}, the output in MHz)."""
    out = os.path.join(work, f'pll_{mhz:g}.v')
    r = subprocess.run([ecppll, '-i', str(OSC_MHZ), '-o', f'{mhz:g}', '-f', out],
                       capture_output=True, text=True)
    text = r.stdout + r.stderr
    if r.returncode != 0 or 'Warning' in text or 'rror' in text:
        fail(f'no PLL clock of {mhz:g} MHz from {OSC_MHZ} MHz: ecppll says '
             + ' '.join(line.strip() for line in text.splitlines()
                        if 'arning' in line or 'rror' in line)[:300])
    got = re.search(r'clkout0 frequency:\s*([\d.]+)\s*MHz', text)
    with open(out) as f:
        verilog = f.read()
    params = {}
    for key, name in PLL_PARAMS.items():
        m = re.search(r'\.' + key + r'\((\d+)\)', verilog)
        if not m:
            fail(f'ecppll wrote no {key} for {mhz:g} MHz ({out})')
        params[name] = int(m[1])
    actual = float(got[1]) if got else OSC_MHZ * params['ClkfbDiv'] / params['ClkiDiv']
    return params, actual


def pct(used, avail):
    return round(100.0 * used / avail, 1) if avail else None


def attempt(a, tools, files, includes, params, mhz, plls, work):
    """Synthesis, place and route of the top at one clock: the figures."""
    t0 = time.monotonic()
    pll_params, pll_mhz = plls[mhz]
    clk_khz = round(pll_mhz * 1000)
    top_params = params + [('ClkKhz', clk_khz)] + list(pll_params.items())
    name = f'{TOP}_{a.config}_{mhz:g}'
    script = os.path.join(work, f'{name}.ys')
    net = os.path.join(work, f'{name}.json')
    stat_json = os.path.join(work, f'{name}.stat.json')
    chparams = ''.join(f' -chparam {k} {v}' for k, v in top_params)
    with open(script, 'w') as f:
        # No -check here: the PLL's EHXPLLL comes from synth_ecp5's cell library.
        f.write(f'read_verilog -sv -noautowire -defer {includes} {" ".join(files)}\n'
                f'hierarchy -top {TOP}{chparams}\n'
                f'synth_ecp5 -top {TOP} -json {net}\n'
                f'tee -q -o {stat_json} stat -json\n')
    print(f'proto_flow: {a.config} at {mhz:g} MHz (PLL {pll_mhz:g} MHz): synthesis', flush=True)
    t_synth = ecp5_flow.run([tools['yosys'], '-q', '-s', script],
                            os.path.join(work, f'{name}.synth.log'))
    with open(stat_json) as f:
        text = f.read()
    cells = json.loads(text[text.index('{'):])['design']['num_cells_by_type']
    cfg = os.path.join(work, f'{name}.config')
    pnr_json = os.path.join(work, f'{name}.pnr.json')
    print(f'proto_flow: {a.config} at {mhz:g} MHz: place and route (seed {a.seed})', flush=True)
    t_pnr = ecp5_flow.run([tools['nextpnr-ecp5'], '--85k', '--package', 'CABGA381', '--speed', '8',
                           '--json', net, '--lpf', os.path.relpath(LPF), '--textcfg', cfg,
                           '--freq', f'{pll_mhz:g}', '--seed', str(a.seed), '--router', a.router,
                           '--timing-allow-fail', '--report', pnr_json],
                          os.path.join(work, f'{name}.pnr.log'))
    with open(pnr_json) as f:
        pnr = json.load(f)
    util = pnr.get('utilization', {})
    # The subsystem's clock is the PLL's output; the oscillator drives only the PLL.
    fmax = {k: v for k, v in pnr.get('fmax', {}).items() if 'clk_25mhz' not in k}
    fmax_mhz = round(min(v['achieved'] for v in fmax.values()), 1) if fmax else None

    def used(cell):
        return util.get(cell, {}).get('used', 0)

    def avail(cell):
        return util.get(cell, {}).get('available', 0)

    lut4 = cells.get('LUT4', 0)
    ff = sum(v for k, v in cells.items() if k.startswith('TRELLIS_FF'))
    slices = -(-max(used('TRELLIS_COMB'), used('TRELLIS_FF')) // SLICE_CELLS)
    slices_avail = avail('TRELLIS_COMB') // SLICE_CELLS
    return {
        'requested_mhz': mhz, 'pll_mhz': pll_mhz, 'clk_khz': clk_khz,
        'clk_per_bit': clk_khz * 1000 // BAUD, 'pll': pll_params,
        'lut4': lut4, 'lut4_pct': pct(lut4, avail('TRELLIS_COMB')),
        'ff': ff, 'ff_pct': pct(ff, avail('TRELLIS_FF')),
        'dp16kd': used('DP16KD'), 'dp16kd_pct': pct(used('DP16KD'), avail('DP16KD')),
        'mult18x18d': used('MULT18X18D'),
        'mult18x18d_pct': pct(used('MULT18X18D'), avail('MULT18X18D')),
        'trellis_comb': used('TRELLIS_COMB'), 'trellis_ff': used('TRELLIS_FF'),
        'trellis_slice': slices, 'trellis_slice_pct': pct(slices, slices_avail),
        'trellis_slice_available': slices_avail,
        'fmax_mhz': fmax_mhz, 'fmax_clocks': {k: round(v['achieved'], 1) for k, v in fmax.items()},
        'clock_met': fmax_mhz is not None and fmax_mhz >= pll_mhz,
        'seed': a.seed, 'router': a.router,
        'synth_seconds': round(t_synth, 1), 'pnr_seconds': round(t_pnr, 1),
        'seconds': round(time.monotonic() - t0, 1), 'config_file': cfg,
    }


def markdown(report):
    r = report['result']
    lines = [f'# {TOP}, configuration {report["config"]}', '',
             f'{DEVICE}; command: `{report["command"]}`', '']
    if r:
        lines += ['| figure | value |', '|---|---|',
                  f'| clock | {r["pll_mhz"]:g} MHz (asked {r["requested_mhz"]:g}; PLL '
                  + ', '.join(f'{k} {v}' for k, v in r['pll'].items()) + ') |',
                  f'| Fmax of the subsystem clock | {r["fmax_mhz"]} MHz |',
                  f'| clock met | {"yes" if r["clock_met"] else "no"} |',
                  f'| LUT4 | {r["lut4"]} ({r["lut4_pct"]} %) |',
                  f'| FF | {r["ff"]} ({r["ff_pct"]} %) |',
                  f'| DP16KD | {r["dp16kd"]} ({r["dp16kd_pct"]} %) |',
                  f'| MULT18X18D | {r["mult18x18d"]} ({r["mult18x18d_pct"]} %) |',
                  f'| slices (TRELLIS_SLICE) | {r["trellis_slice"]} ({r["trellis_slice_pct"]} %) |',
                  f'| UART | {BAUD} baud, {r["clk_per_bit"]} cycles per bit |',
                  f'| seed, router | {r["seed"]}, {r["router"]} |',
                  f'| wall time | synthesis {r["synth_seconds"]} s, place and route '
                  f'{r["pnr_seconds"]} s, bitstream {report.get("pack_seconds", "-")} s |', '']
    lines += ['Clocks tried:', '']
    for t in report['attempts']:
        if t.get('skipped'):
            lines.append(f'* {t["requested_mhz"]:g} MHz: skipped ({t["skipped"]})')
        else:
            lines.append(f'* {t["requested_mhz"]:g} MHz: Fmax {t["fmax_mhz"]} MHz, '
                         f'{"met" if t["clock_met"] else "not met"} ({t["seconds"]} s)')
    lines += ['', f'Bitstream: {report["bitstream"] or "none"}; total wall time '
              f'{report["seconds"]} s.', '']
    return '\n'.join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--config', required=True, help=f'a named configuration of {SUBSYSTEM}')
    ap.add_argument('--mhz', type=float, nargs='+', required=True,
                    help='the subsystem clock; several are tried in order until one is met')
    ap.add_argument('--out', required=True, help='output directory (not under /tmp)')
    ap.add_argument('--seed', type=int, default=1, help="nextpnr's seed")
    ap.add_argument('--router', choices=('router1', 'router2'), default='router1')
    ap.add_argument('--try-all', action='store_true',
                    help='try every clock, also those above the best Fmax measured')
    ap.add_argument('--files', help='RTL files, separated by ; or , (default: those rtl/files.f '
                    f'gives {TOP})')
    ap.add_argument('--tools-bin', default=os.environ.get('HTM_TOOLS_BIN', ''),
                    help='directory of the yowasp-* tools (default: $HTM_TOOLS_BIN, then PATH)')
    for t in ('yosys', 'nextpnr-ecp5', 'ecppll', 'ecppack'):
        ap.add_argument(f'--{t.split("-")[0]}', dest=t, help=f'path of {t}')
    a = ap.parse_args()
    t0 = time.monotonic()
    command = ' '.join(['fpga/proto_flow.py'] + sys.argv[1:])

    params = sys_params(a.config)
    for mhz in a.mhz:
        if mhz <= 0:
            fail(f'impossible clock: {mhz:g} MHz')
    out = os.path.abspath(a.out)
    if out.startswith('/tmp/') or out == '/tmp':
        fail('the output directory must not be under /tmp (the YoWASP tools cannot see it)')
    tools = {t: find_tool(f'yowasp-{t}', t.split('-')[0], getattr(a, t), a.tools_bin)
             for t in ('yosys', 'nextpnr-ecp5', 'ecppll', 'ecppack')}
    if a.files:
        files = [f for f in re.split(r'[;,]', a.files) if f]
    else:
        files = gen_cores.read_deps().get(TOP)
        if not files:
            fail(f'rtl/files.f does not list {TOP}')
    for f in files:
        if not (ROOT / f).is_file():
            fail(f'no such RTL file: {f}')
    work = os.path.join(out, 'work')
    os.makedirs(work, exist_ok=True)
    os.chdir(ROOT)
    work = os.path.relpath(work)
    # The generated package headers, as CMake writes them (the flow needs no CMake tree).
    subprocess.run([sys.executable, 'tools/htm_gen.py', '--enums', 'rtl/include/htm_enums.def',
                    '--out', os.path.join(work, 'gen')], check=True, stdout=subprocess.DEVNULL)
    includes = f'-I rtl/include -I {os.path.join(work, "gen", "rtl")}'

    # Every clock's PLL first, so that a clock the PLL cannot make stops the flow at once.
    plls = {mhz: pll(tools['ecppll'], mhz, work) for mhz in a.mhz}
    attempts, result, best = [], None, None
    for mhz in a.mhz:
        if best is not None and mhz > MET_MARGIN * best and not a.try_all:
            attempts.append({'requested_mhz': mhz,
                             'skipped': f'above {MET_MARGIN} x the best Fmax, {best} MHz'})
            print(f'proto_flow: {mhz:g} MHz skipped: the best Fmax so far is {best} MHz')
            continue
        r = attempt(a, tools, files, includes, params, mhz, plls, work)
        attempts.append(r)
        print(f'proto_flow: {a.config} at {r["pll_mhz"]:g} MHz: Fmax {r["fmax_mhz"]} MHz, '
              f'{"met" if r["clock_met"] else "not met"}; LUT4 {r["lut4"]} ({r["lut4_pct"]} %), '
              f'FF {r["ff"]}, DP16KD {r["dp16kd"]}, MULT18X18D {r["mult18x18d"]}, slices '
              f'{r["trellis_slice"]} ({r["trellis_slice_pct"]} %); {r["seconds"]} s', flush=True)
        if r['fmax_mhz'] is not None:
            best = max(best or 0, r['fmax_mhz'])
        if r['clock_met']:
            result = r
            break
    report = {'top': TOP, 'config': a.config, 'device': DEVICE, 'command': command,
              'params': dict(params), 'attempts': attempts, 'result': result, 'bitstream': None}
    if result:
        bit = os.path.join(out, f'{TOP}_{a.config}.bit')
        report['pack_seconds'] = round(ecp5_flow.run(
            [tools['ecppack'], '--compress', '--input', result['config_file'], '--bit', bit],
            os.path.join(work, f'{TOP}_{a.config}.pack.log')), 1)
        report['bitstream'] = bit
    report['seconds'] = round(time.monotonic() - t0, 1)
    base = os.path.join(out, f'{TOP}_{a.config}')
    with open(base + '.json', 'w') as f:
        json.dump(report, f, indent=1, sort_keys=True)
        f.write('\n')
    with open(base + '.md', 'w') as f:
        f.write(markdown(report))
    print(markdown(report))
    if not result:
        fail(f'no clock met among {", ".join(f"{m:g}" for m in a.mhz)} MHz '
             f'(report {base}.json)')


if __name__ == '__main__':
    main()
