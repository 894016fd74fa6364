#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Power of a block's gate-level netlist (area/logic.py's, mapped onto a Liberty library with
power tables, such as OSU 0.18 um) from OpenSTA at a given clock and switching activity.

OpenSTA (Debian's `opensta`, the 2019 `sta`) reads the library and the netlist, clocks `clk_i`
(a virtual clock if the block has none) at --clock-mhz with every other input and output
constrained to that clock, and is given the activity as `set_power_activity -input -activity
A`: every input port makes A transitions per clock cycle, and OpenSTA propagates that rate
through the gates (by their functions) and the flip-flops. That build reads no VCD or SAIF and
its per-pin activity is broken, so the activity is one rate: area/activity.py measures it in a
simulation of the block (the mean transitions per cycle per bit of its input ports). With
--scope global every net gets the rate instead. `report_power` gives internal, switching and
leakage power; the worst path of the same analysis is reported too, to show whether the clock
is one the mapped logic meets (no wire load: the path is optimistic). Switching power counts the
cells' pin capacitances only (no parasitics). RAM macros kept out of the logic (empty modules in
the netlist) draw nothing here: CACTI estimates them.

Usage (any directory):
  area/power.py --sta sta --liberty L --netlist N.v --top T --clock-mhz F
      (--activity A | --activity-json FILE [--per-port]) [--scope input|global]
      [--clock-port clk_i] [--work DIR] --out FILE.json
--activity-json takes `input_activity` (with --scope global `all_activity`, the rate over all
the RTL's signal bits) and its source from area/activity.py's JSON; with
--per-port each input port gets its own measured rate (`set_power_activity -input_ports`,
which this build honours, unlike -pins) over the mean. Writes
FILE.json atomically: power in mW (total, internal, switching, leakage; sequential and
combinational), the clock, the activity and its source, the worst path. Exit status: 0 written;
1 a failure (named; no JSON is left); 2 bad usage.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import logic  # noqa: E402  (the Liberty reader, beside this file)


class PowerError(Exception):
    pass


_NUM = r'([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)'
_ROW = re.compile(r'^(Sequential|Combinational|Macro|Pad|Total)\s+' + r'\s+'.join([_NUM] * 4))


_KEYWORDS = {'module', 'endmodule', 'input', 'output', 'inout', 'wire', 'reg', 'assign',
             'always', 'initial', 'parameter', 'localparam'}


def unknown_cells(text, liberty_cells):
    """Cell types instantiated in a structural netlist that are neither library cells nor
    modules of the netlist (OpenSTA would link them silently as empty black boxes)."""
    modules = set(re.findall(r'^\s*module\s+\\?(\S+?)\s*[(;]', text, flags=re.M))
    types = set(re.findall(r'^\s*\\?([A-Za-z_$][\w$]*)\s+(?:#\s*\(.*?\)\s*)?\\?\S+\s*\(',
                           text, flags=re.M | re.S))
    return sorted(types - _KEYWORDS - modules - set(liberty_cells))


def netlist_ports(path, top):
    """(inputs, outputs) of module `top` in a Verilog netlist, and the netlist's text."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise PowerError(f'cannot read the netlist {path}: {e.strerror}') from None
    m = re.search(r'^\s*module\s+\\?' + re.escape(top) + r'\b(.*?)^\s*endmodule', text,
                  flags=re.M | re.S)
    if not m:
        raise PowerError(f'the netlist {path} has no module {top}')
    body = m.group(1)

    def names(kind):
        return [n.lstrip('\\') for n in re.findall(
            r'^\s*' + kind + r'\s+(?:\[[^\]]*\]\s*)?(\\?\S+?)\s*;', body, flags=re.M)]
    return names('input'), names('output'), text


def tcl_script(a, liberty, netlist, period_ns, has_clock, port_rates):
    clk_port = f' [get_ports {{{a.clock_port}}}]' if has_clock else ''
    inputs = (f'[delete_from_list [all_inputs] [get_ports {{{a.clock_port}}}]]' if has_clock
              else '[all_inputs]')
    scope = '-global' if a.scope == 'global' else '-input'
    return (f'read_liberty {{{liberty}}}\n'
            f'read_verilog {{{netlist}}}\n'
            f'link_design {a.top}\n'
            'set_cmd_units -time ns\n'
            f'create_clock -name htm_clk -period {period_ns:.6g}{clk_port}\n'
            f'set_input_delay 0 -clock htm_clk {inputs}\n'
            'set_output_delay 0 -clock htm_clk [all_outputs]\n'
            f'set_power_activity {scope} -activity {a.activity:.9g}\n' +
            ''.join(f'set_power_activity -input_ports [get_ports {{{n}}}] -activity {r:.9g}\n'
                    for n, r in sorted(port_rates.items())) +
            'puts "HTM-POWER"\n'
            'report_power -digits 6\n'
            'puts "HTM-PATH"\n'
            'report_checks -path_delay max -group_count 1 -digits 4\n'
            'puts "HTM-END"\n')


def parse_report(out):
    if 'HTM-END' not in out:
        raise PowerError('OpenSTA stopped before the end of its script')
    errors = [ln.strip() for ln in out.splitlines() if ln.startswith('Error')]
    if errors:
        raise PowerError('OpenSTA: ' + '; '.join(errors[:3]))
    power = out[out.index('HTM-POWER'):out.index('HTM-PATH')]
    rows = {}
    for ln in power.splitlines():
        m = _ROW.match(ln.strip())
        if m:
            # W -> mW, to the report's six digits
            rows[m.group(1).lower()] = [float(f'{float(x) * 1e3:.6g}') for x in m.groups()[1:]]
    if 'total' not in rows:
        raise PowerError('no Total line in the report of report_power')
    res = {}
    for k, (internal, switching, leakage, total) in rows.items():
        res[k] = {'internal_mw': internal, 'switching_mw': switching, 'leakage_mw': leakage,
                  'total_mw': total}
    arrival = slack = None
    for path in out[out.index('HTM-PATH'):out.index('HTM-END')].split('Startpoint:')[1:]:
        if not re.search(r'^Path Group: htm_clk\s*$', path, flags=re.M):
            continue  # the reset's recovery checks (**async_default**)
        m = re.search(_NUM + r'\s+data arrival time', path)
        s = re.search(_NUM + r'\s+slack \((?:MET|VIOLATED)\)', path)
        if m and s:
            arrival, slack = float(m.group(1)), float(s.group(1))
    return res, arrival, slack


def analyse(a):
    exe = shutil.which(a.sta) if os.sep not in a.sta else (a.sta if os.access(a.sta, os.X_OK)
                                                            else None)
    if not exe:
        raise PowerError(f"OpenSTA's sta not found ({a.sta}): install Debian's opensta "
                         '(apt-get install opensta)')
    for path, what in ((a.liberty, 'liberty'), (a.netlist, 'netlist')):
        if not os.path.isfile(path):
            raise PowerError(f'the {what} {path} does not exist')
    if not a.clock_mhz > 0:
        raise PowerError(f'the clock must be positive (--clock-mhz {a.clock_mhz})')
    source = {'from': 'command line'}
    if a.activity_json:
        try:
            with open(a.activity_json) as f:
                act = json.load(f)
            # -input takes the input ports' rate; -global the rate over all the RTL's signals
            a.activity = float(act['all_activity' if a.scope == 'global' else 'input_activity'])
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise PowerError(f'no activity in {a.activity_json}: {e}') from None
        source = act.get('source', {'from': a.activity_json})
    port_rates = {}
    if a.per_port:
        if a.scope == 'global':
            raise PowerError('--per-port sets input ports: it goes with --scope input')
        if not a.activity_json:
            raise PowerError('--per-port takes the ports\' rates from --activity-json')
        try:
            port_rates = {n: float(p['activity']) for n, p in act['inputs'].items()}
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise PowerError(f'no per-port rates in {a.activity_json}: {e}') from None
    if not 0 <= a.activity:
        raise PowerError(f'the activity must be 0 or more (got {a.activity})')
    inputs, _, text = netlist_ports(a.netlist, a.top)
    try:
        cells = logic.library_cells(a.liberty)
    except logic.FlowError as e:
        raise PowerError(str(e)) from None
    unknown = unknown_cells(text, cells)
    if unknown:
        raise PowerError(f'cells of the netlist not in the liberty {a.liberty}: '
                         f'{", ".join(unknown[:5])}')
    has_clock = a.clock_port in inputs
    lost = sorted(set(port_rates) - set(inputs))
    if lost:
        raise PowerError(f'ports of {a.activity_json} not inputs of the netlist: '
                         f'{", ".join(lost[:5])}')
    port_rates.pop(a.clock_port, None)
    work = a.work or os.path.dirname(os.path.abspath(a.out))
    os.makedirs(work, exist_ok=True)
    stem = os.path.join(work, os.path.splitext(os.path.basename(a.out))[0])
    script = stem + '.sta.tcl'
    period = 1e3 / a.clock_mhz
    with open(script, 'w') as f:
        f.write('# Generated by area/power.py.\n')
        f.write(tcl_script(a, os.path.abspath(a.liberty), os.path.abspath(a.netlist), period,
                           has_clock, port_rates))
    t0 = time.monotonic()
    try:
        r = subprocess.run([exe, '-no_init', '-exit', script], capture_output=True, text=True,
                           errors='replace')
    except OSError as e:
        raise PowerError(f'cannot run {exe}: {e.strerror}') from None
    seconds = time.monotonic() - t0
    log = stem + '.sta.log'
    with open(log, 'w') as f:
        f.write(r.stdout + r.stderr)
    if r.returncode != 0:
        raise PowerError(f'OpenSTA failed (exit {r.returncode}); log {log}')
    groups, arrival, slack = parse_report(r.stdout + r.stderr)
    total = groups['total']
    return {
        'top': a.top, 'netlist': a.netlist, 'liberty': a.liberty,
        'clock_mhz': a.clock_mhz, 'clock_port': a.clock_port if has_clock else None,
        'activity': a.activity, 'activity_scope': a.scope, 'activity_source': source,
        'activity_per_port': port_rates or None,
        'total_mw': total['total_mw'], 'internal_mw': total['internal_mw'],
        'switching_mw': total['switching_mw'], 'leakage_mw': total['leakage_mw'],
        'groups': {k: v for k, v in groups.items() if k != 'total'},
        'worst_path_ns': arrival, 'worst_slack_ns': slack,
        'sta_seconds': round(seconds, 2), 'sta_log': log,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--sta', default='sta', help="OpenSTA's sta")
    ap.add_argument('--liberty', required=True)
    ap.add_argument('--netlist', required=True, help="area/logic.py's gate-level netlist")
    ap.add_argument('--top', required=True)
    ap.add_argument('--clock-mhz', type=float, required=True)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument('--activity', type=float, help='transitions per clock cycle')
    src.add_argument('--activity-json', help="area/activity.py's result")
    ap.add_argument('--scope', choices=('input', 'global'), default='input',
                    help='where the activity is set (input ports, or every net)')
    ap.add_argument('--per-port', action='store_true',
                    help="each input port at its own measured rate (--activity-json's inputs) "
                    'instead of all at the mean')
    ap.add_argument('--clock-port', default='clk_i')
    ap.add_argument('--work', help='directory of the OpenSTA script and log (default: '
                    "the output's)")
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    if os.path.exists(a.out):
        os.remove(a.out)
    try:
        res = analyse(a)
    except (PowerError, OSError) as e:
        print(f'power: {a.top}: {logic.error_text(e)}', file=sys.stderr)
        return 1
    logic.write_json(a.out, res)
    path = (f"; worst path {res['worst_path_ns']:.3g} ns" if res['worst_path_ns'] is not None
            else '')
    how = a.scope + (', per port' if a.per_port else '')
    print(f"power: {a.top}: {res['total_mw']:.4g} mW at {a.clock_mhz:g} MHz, activity "
          f"{res['activity']:.4g} ({how}): internal {res['internal_mw']:.4g}, switching "
          f"{res['switching_mw']:.4g}, leakage {res['leakage_mw']:.3g} mW{path}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
