#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Switching activity of a block measured in a simulation: the mean number of transitions per
clock cycle per bit (0->1 and 1->0 each count one) of the block's input ports, which is what
OpenSTA's `set_power_activity -input -activity A` takes (area/power.py); also the same rate over
the block's state bits and over all its signals, for comparison.

Which signals: the block's scope is the first VCD scope named after the top module. Its input
ports are the signals of that scope named `*_i` or `*_ni` (the RTL's port naming), the clock
(`clk_i`) excepted, or with --netlist the input ports of the gate-level netlist. Its state bits
are the signals of that scope and the scopes below it whose name ends in `_q` or is `mem` or
ends in `_mem` (every register of the RTL is named so: flip-flops `*_q`, RAM contents `mem`).
A signal seen under several names (a port and the net it drives) counts once. A bit's first
value is not a transition, nor is a change to or from x or z. The cycles are the rising edges
of the clock.

Two sources of waves (--from):
  bench     the block's random lockstep bench in the named configuration:
            `htmsim-rtl lockstep --block T --config C --cycles N --seed S --waves X.fst`.
            The configuration mapped is the one simulated; the random stimulus offers an
            operation on most cycles, so the figure is a busy block's.
  workload  a workload on the system model with the block's RTL in the loop: `htmsim-rtl run
            --workload W --scale S --config MACHINE --tm TM --rtl T --unchecked --waves X.fst
            --waves-instance NAME`. The block runs in the machine's configuration of it (the
            small machine: the `machsmall` configurations, the paper-size defaults for the SIMT
            stack, Pause-and-Go check and post-dating unit). The machine advances a block only
            on the cycles it works (and skips cycles in which nothing works), so the waves hold
            fewer clock edges than the run has cycles; the rate is taken per cycle of the run at
            the block's clock (the commit units and RCTs run at half the core clock), the inputs
            holding their values in the cycles not simulated. This is the activity of the block
            in operation.
The default is the bench: it exists for every block and configuration, and it simulates the
very configuration whose netlist area/power.py analyses; the workload figure is lower (idle
cycles) and belongs to the machine's configuration.

Usage (from the repository root):
  area/activity.py --vcd F.vcd --top T [--clock clk_i] [--netlist N.v] [--out FILE.json]
  area/activity.py --htmsim build/sim/htmsim-rtl --top T --config C --work DIR
      [--from bench|workload] [--cycles 2000] [--seed 1]
      [--workload HT1K --scale small --machine small --tm TM --instance NAME]
      [--fst2vcd fst2vcd] [--out FILE.json]
Prints the rates; --out writes them as JSON (atomically; `input_activity` is the figure for
area/power.py, `inputs` the rate of each input port for its --per-port). Exit status: 0
measured; 1 a failure (named; nothing written); 2 bad usage.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import logic  # noqa: E402  (its atomic JSON writer, beside this file)


class ActivityError(Exception):
    pass


# The blocks on the system model's workload path: (TM configuration that instantiates the
# block, its first instance, the instance's clock divider from the core clock).
WORKLOAD_INSTANCES = {
    'htm_commit_unit': ('warptm-eapg', 'partition0.commit_unit', 2),
    'htm_rct': ('warptm-eapg', 'partition0.rct', 2),
    'htm_cat': ('warptm-eapg', 'core0.cat', 1),
    'htm_pag_check': ('warptm-eapg', 'core0.pag', 1),
    'htm_intra_warp_cd': ('warptm-eapg', 'core0.iwcd', 1),
    'htm_tcd': ('warptm-eapg', 'core0.tcd', 1),
    'htm_tx_simt_stack': ('warptm-eapg', 'core0.simt0', 1),
    'htm_writer_table': ('sitm', 'writer_table', 1),
    'htm_reader_list': ('sitm', 'reader_list', 1),
    'htm_postdate': ('sitm', 'postdate', 1),
    'htm_version_index': ('sitm', 'version_index', 1),
}

_INDEX = re.compile(r'(\[[^\]]*\])+$')


def _base(name):
    return _INDEX.sub('', name)


def is_state_name(name):
    b = _base(name)
    return b.endswith('_q') or b == 'mem' or b.endswith('_mem')


def is_input_name(name):
    b = _base(name)
    return b.endswith('_i') or b.endswith('_ni')


def _toggles(old, new):
    """Bits that went 0->1 or 1->0 between two VCD values of one signal (binary strings)."""
    if old == new:
        return 0
    try:
        return bin(int(old, 2) ^ int(new, 2)).count('1')
    except ValueError:  # x or z somewhere: bit by bit, left-extended as VCD says
        n = max(len(old), len(new))

        def ext(v):
            pad = '0' if v[0] == '1' else v[0]
            return pad * (n - len(v)) + v
        return sum(1 for a, b in zip(ext(old), ext(new)) if a != b and a in '01' and b in '01')


def measure(lines, top, clock='clk_i', inputs=None):
    """Rates of a VCD given as an iterable of lines. `inputs`: the input port names (without
    the clock) or None for the `*_i`/`*_ni` rule."""
    it = iter(lines)
    scope, vars_ = [], []
    header = []
    for line in it:
        header.extend(line.split())
        if '$enddefinitions' in line:
            break
    else:
        raise ActivityError('no $enddefinitions: not a VCD')
    i = 0
    while i < len(header):
        t = header[i]
        if t == '$scope':
            scope.append(header[i + 2])
            i += 3
        elif t == '$upscope':
            scope.pop()
            i += 1
        elif t == '$var':
            end = header.index('$end', i)
            kind, width, ident, ref = header[i + 1:i + 5]
            vars_.append((tuple(scope), kind, int(width), ident, ref))
            i = end + 1
        else:
            i += 1
    paths = [s for s, *_ in vars_ if s and s[-1] == top]
    if not paths:
        raise ActivityError(f'the VCD has no scope named {top}')
    blk = paths[0]
    width, in_ids, state_ids, all_ids, clk_id = {}, set(), set(), set(), None
    in_names = {}
    for s, kind, w, ident, ref in vars_:
        if kind in ('parameter', 'real', 'event') or s[:len(blk)] != blk:
            continue
        width[ident] = w
        all_ids.add(ident)
        if s == blk:
            if ref == clock:
                clk_id = ident
            elif (ref in inputs) if inputs is not None else is_input_name(ref):
                in_ids.add(ident)
                in_names[_base(ref)] = ident
        if is_state_name(ref):
            state_ids.add(ident)
    if clk_id is None:
        raise ActivityError(f'scope {".".join(blk)} has no clock {clock}')
    if inputs is not None:
        found = {ref for s, _, _, _, ref in vars_ if s == blk}
        lost = sorted(set(inputs) - found)
        if lost:
            raise ActivityError(f'inputs of the netlist not in the VCD: {", ".join(lost[:5])}')
    in_ids.discard(clk_id)
    value, toggles, edges = {}, dict.fromkeys(all_ids, 0), 0
    for line in it:
        if not line or line[0] in '#$\n' or line[0] == ' ':
            continue
        c = line[0]
        if c in 'bB':
            v, ident = line[1:].split()
        elif c in '01xzXZ':
            v, ident = c.lower(), line[1:].strip()
        else:
            continue  # reals and the like
        if ident not in toggles:
            continue
        v = v.lower()
        old = value.get(ident)
        value[ident] = v
        if old is None:
            continue
        toggles[ident] += _toggles(old, v)
        if ident == clk_id and old == '0' and v == '1':
            edges += 1
    if edges == 0:
        raise ActivityError(f'the clock {clock} never rises')

    def rate(ids):
        bits = sum(width[x] for x in ids)
        n = sum(toggles[x] for x in ids)
        return n, bits
    out = {'top': top, 'scope': '.'.join(blk), 'clock': clock, 'ticks': edges}
    for key, ids in (('input', in_ids), ('state', state_ids), ('all', all_ids - {clk_id})):
        n, bits = rate(ids)
        out[f'{key}_bits'] = bits
        out[f'{key}_toggles'] = n
    if out['input_bits'] == 0:
        raise ActivityError(f'scope {".".join(blk)} has no input port besides the clock')
    out['inputs'] = {n: {'bits': width[x], 'toggles': toggles[x]}
                     for n, x in sorted(in_names.items()) if x != clk_id}
    return out


def finish(res, cycles):
    """Adds the rates over `cycles` clock cycles."""
    res['cycles'] = cycles
    for key in ('input', 'state', 'all'):
        bits = res[f'{key}_bits']
        res[f'{key}_activity'] = res[f'{key}_toggles'] / (bits * cycles) if bits else None
    for p in res['inputs'].values():
        p['activity'] = p['toggles'] / (p['bits'] * cycles)
    return res


def netlist_inputs(path):
    """Input port names of a Yosys gate-level netlist's last module (the top), less clk_i."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise ActivityError(f'cannot read the netlist {path}: {e.strerror}') from None
    mods = re.split(r'^\s*module\s', text, flags=re.M)
    if len(mods) < 2:
        raise ActivityError(f'no module in the netlist {path}')
    names = re.findall(r'^\s*input\s+(?:\[[^\]]*\]\s*)?(\\?\S+?)\s*;', mods[-1], flags=re.M)
    return [n.lstrip('\\') for n in names]


def measure_file(path, top, clock, inputs):
    try:
        with open(path, errors='replace') as f:
            return measure(f, top, clock, inputs)
    except OSError as e:
        raise ActivityError(f'cannot read {path}: {e.strerror}') from None


def measure_fst(fst2vcd, fst, top, clock, inputs):
    """Converts an FST with fst2vcd and measures the VCD as it streams."""
    exe = shutil.which(fst2vcd)
    if not exe:
        raise ActivityError(f'fst2vcd not found ({fst2vcd}): install gtkwave')
    p = subprocess.Popen([exe, fst], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         errors='replace')
    try:
        res = measure(p.stdout, top, clock, inputs)
    except ActivityError:
        p.kill()
        p.wait()
        raise
    err = p.stderr.read()
    if p.wait() != 0:
        raise ActivityError(f'fst2vcd {fst} failed: {err.strip()[-500:]}')
    return res


def run(cmd, log):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise ActivityError(f'cannot run {cmd[0]}: {e.strerror}') from None
    with open(log, 'w') as f:
        f.write(' '.join(cmd) + '\n' + r.stdout + r.stderr)
    if r.returncode != 0:
        tail = (r.stderr or r.stdout).strip()[-1500:]
        raise ActivityError(f'{" ".join(cmd[:2])} failed (exit {r.returncode}); log {log}:\n{tail}')


def from_simulation(a):
    if not os.path.isfile(a.htmsim):
        raise ActivityError(f'htmsim-rtl not found: {a.htmsim} (build the project)')
    os.makedirs(a.work, exist_ok=True)
    inputs = netlist_inputs(a.netlist) if a.netlist else None
    if a.source == 'bench':
        fst = os.path.join(a.work, f'{a.top}__{a.config}.bench.fst')
        run([a.htmsim, 'lockstep', '--block', a.top, '--config', a.config, '--cycles',
             str(a.cycles), '--seed', str(a.seed), '--waves', fst],
            os.path.join(a.work, f'{a.top}__{a.config}.bench.log'))
        res = measure_fst(a.fst2vcd, fst, a.top, a.clock, inputs)
        res['source'] = {'from': 'bench', 'config': a.config, 'cycles': a.cycles,
                         'seed': a.seed}
        return finish(res, res['ticks'])
    if a.top not in WORKLOAD_INSTANCES:
        raise ActivityError('no workload runs this block (it is not on the system model\'s '
                            f'path; on it: {", ".join(sorted(WORKLOAD_INSTANCES))}): use '
                            '--from bench')
    tm, inst, div = WORKLOAD_INSTANCES[a.top]
    tm, inst = a.tm or tm, a.instance or inst
    if a.instance and not a.instance.startswith('partition'):
        div = 1
    elif a.instance:
        div = 2
    stem = os.path.join(a.work, f'{a.top}__{a.machine}__{a.workload}')
    fst, stats = stem + '.fst', stem + '.stats.json'
    if os.path.exists(fst):
        os.remove(fst)
    run([a.htmsim, 'run', '--workload', a.workload, '--scale', a.scale, '--config', a.machine,
         '--tm', tm, '--seed', str(a.seed), '--rtl', a.top, '--unchecked', '--waves', fst,
         '--waves-instance', inst, '--stats-json', stats], stem + '.log')
    if not os.path.exists(fst):
        raise ActivityError(f'the run wrote no waves for instance {inst} (is it in the '
                            f'{a.machine} machine under {tm}?)')
    with open(stats) as f:
        run_cycles = json.load(f)['cycles']
    res = measure_fst(a.fst2vcd, fst, a.top, a.clock, inputs)
    cycles = max(res['ticks'], -(-run_cycles // div))
    res['source'] = {'from': 'workload', 'workload': a.workload, 'scale': a.scale,
                     'machine': a.machine, 'tm': tm, 'instance': inst, 'seed': a.seed,
                     'run_cycles': run_cycles, 'clock_divider': div}
    return finish(res, cycles)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--vcd', help='measure this VCD')
    ap.add_argument('--htmsim', help='htmsim-rtl, to simulate (without --vcd)')
    ap.add_argument('--top', required=True)
    ap.add_argument('--config', default='default', help='named configuration (bench)')
    ap.add_argument('--from', dest='source', choices=('bench', 'workload'), default='bench')
    ap.add_argument('--cycles', type=int, default=2000, help='bench cycles')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--workload', default='HT1K')
    ap.add_argument('--scale', default='small')
    ap.add_argument('--machine', default='small', help='system model machine (workload)')
    ap.add_argument('--tm', help='TM configuration (workload; default: one that has the block)')
    ap.add_argument('--instance', help='instance to watch (workload; default: the first)')
    ap.add_argument('--work', default='build/area/activity', help='simulation outputs')
    ap.add_argument('--fst2vcd', default='fst2vcd')
    ap.add_argument('--clock', default='clk_i')
    ap.add_argument('--netlist', help='take the input ports from this gate-level netlist')
    ap.add_argument('--out', help='write the rates as JSON')
    a = ap.parse_args()
    if bool(a.vcd) == bool(a.htmsim):
        ap.error('give either --vcd or --htmsim')
    if a.cycles <= 0:
        ap.error('--cycles must be positive')
    if a.out and os.path.exists(a.out):
        os.remove(a.out)
    try:
        if a.vcd:
            inputs = netlist_inputs(a.netlist) if a.netlist else None
            res = measure_file(a.vcd, a.top, a.clock, inputs)
            res['source'] = {'from': 'vcd', 'vcd': a.vcd}
            res = finish(res, res['ticks'])
        else:
            res = from_simulation(a)
    except (ActivityError, OSError, KeyError, ValueError) as e:
        print(f'activity: {a.top}/{a.config}: {logic.error_text(e)}', file=sys.stderr)
        return 1
    if a.out:
        logic.write_json(a.out, res)

    def fmt(key):
        r = res[f'{key}_activity']
        return 'n/a' if r is None else f'{r:.5f} ({res[f"{key}_bits"]} bits)'
    print(f"activity: {a.top} ({res['source']['from']}): {res['cycles']} cycles "
          f"({res['ticks']} simulated); toggles per cycle per bit: inputs {fmt('input')}, "
          f"state {fmt('state')}, all signals {fmt('all')}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
