#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Standard-cell logic area of one block in one named configuration: Yosys maps the block onto
a Liberty cell library and reports the area of its cells. The block's RAM macros (the memories
that area/memories.py's rule calls macros; CACTI estimates them in the array flow) are kept out
of the logic: each stays a black box in the netlist and is listed with its size in the result.

How: Yosys reads the RTL with the configuration's parameters (`hierarchy -chparam`) and runs
`synth -flatten` up to its `fine` step, where every inferred memory is still one `$mem_v2` cell.
This script reads those cells from the checkpoint and turns each macro into an instance of a
black-box module `htm_macro_<n>` (ports as the memory's); the second Yosys run finishes
`synth` (the memories left, the small ones, become flip-flops), then `dfflibmap` and `abc` map
onto the library, and `stat -liberty` counts the cells. With a library that has timing, ABC
maps for the period of --clock-mhz (default 100 MHz) and buffers and sizes the gates (without
it a flip-flop driving a thousand loads through one small gate has slews of microseconds, and
the power tables are read far outside their range); an area-only library is mapped for area.
Every cell left must be a library cell or a macro: an unmapped cell is an error, not an unknown
area. The gate-level netlist (with the black boxes declared as empty modules, so that OpenSTA
links it) is written for area/power.py. Before Yosys runs, the liberty must have an inverter
and a D flip-flop (without them ABC fails with only "Can't open ABC output file").

Called from the repository's root the way fpga/ecp5_flow.py is:
  area/logic.py --yosys Y --top T --config C --params "P1 V1;P2 V2" --files "rtl/a.sv;..."
      --includes "-I rtl/include -I build/gen/rtl" --liberty L --lib-name osu018
      --work DIR --out FILE.json [--clock-mhz 100]
The parameters of every named configuration are in build/CMakeCache.txt after configure
(HTM_CFG_<top>_<config>_Y), the file lists in build/gen/cmake/rtl_deps.cmake
(HTM_RTL_DEPS_REL_<top>). YoWASP Yosys reads only files below its working directory: the work
directory must be below the current directory, and a liberty outside it is copied into the work
directory.

Writes FILE.json (atomically): total, flip-flop, latch and combinational cell area in um^2,
cell counts per type, the macros kept, the memories mapped to flip-flops, the Yosys version and
run time, and the netlist's path. Exit status: 0 written; 1 a failure (the message names the
block, configuration and library; no JSON is left); 2 bad usage.
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
import memories  # noqa: E402  (the shared macro rule, beside this file)


class FlowError(Exception):
    pass


# ---- Liberty ------------------------------------------------------------------------------------

_LIB_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}();:,]|[^\s{}();:,"]+')


def _lib_tokens(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'\\\r?\n', ' ', text)  # line continuations
    return _LIB_TOKEN.findall(text)


class LibGroup:
    """One Liberty group: `kind (args) { attributes; groups }`."""

    def __init__(self, kind, args):
        self.kind, self.args, self.attrs, self.groups = kind, args, {}, []

    def sub(self, kind):
        return [g for g in self.groups if g.kind == kind]


def parse_liberty(text):
    """The library group of a Liberty text (attributes unquoted; complex attributes keep their
    argument list)."""
    toks = _lib_tokens(text)
    pos = 0

    def args_list():
        nonlocal pos
        out, cur = [], []
        pos += 1  # '('
        while pos < len(toks) and toks[pos] != ')':
            t = toks[pos]
            if t == ',':
                out.append(' '.join(cur))
                cur = []
            else:
                cur.append(t.strip('"'))
            pos += 1
        if cur:
            out.append(' '.join(cur))
        pos += 1  # ')'
        return out

    def body(group):
        nonlocal pos
        while pos < len(toks):
            t = toks[pos]
            if t == '}':
                pos += 1
                return
            if t == ';':
                pos += 1
                continue
            name = t
            pos += 1
            if pos < len(toks) and toks[pos] == ':':
                pos += 1
                val = []
                while pos < len(toks) and toks[pos] not in (';', '}'):
                    val.append(toks[pos].strip('"'))
                    pos += 1
                group.attrs[name] = ' '.join(val)
            elif pos < len(toks) and toks[pos] == '(':
                args = args_list()
                if pos < len(toks) and toks[pos] == '{':
                    pos += 1
                    g = LibGroup(name, args)
                    group.groups.append(g)
                    body(g)
                else:
                    group.attrs[name] = args
            else:
                raise FlowError(f'liberty syntax near token {pos}: {name!r}')
        if group.kind != '<top>':
            raise FlowError('liberty syntax: a group is not closed')

    top = LibGroup('<top>', [])
    body(top)
    libs = top.sub('library')
    if not libs:
        raise FlowError('no library group')
    return libs[0]


def _norm_func(f):
    return re.sub(r'[\s()]', '', f or '')


def library_cells(path):
    """{cell: {'area', 'seq' ('ff', 'latch' or None), 'inverter', 'buffer', 'input_cap' (of a
    one-input cell), 'dff', 'timed' (has timing arcs)}} of a Liberty file."""
    try:
        with open(path, errors='replace') as f:
            lib = parse_liberty(f.read())
    except OSError as e:
        raise FlowError(f'cannot read the liberty {path}: {e.strerror}') from None
    cells = {}
    for c in lib.sub('cell'):
        if not c.args:
            continue
        name = c.args[0]
        try:
            area = float(c.attrs.get('area', 0))
        except ValueError:
            area = 0.0
        pins = {p.args[0]: p for p in c.sub('pin') if p.args}
        ins = [n for n, p in pins.items() if p.attrs.get('direction') == 'input']
        outs = [n for n, p in pins.items() if p.attrs.get('direction') == 'output']
        ffs, latches = c.sub('ff'), c.sub('latch')
        inverter = (len(ins) == 1 and len(outs) == 1 and not ffs and not latches and
                    _norm_func(pins[outs[0]].attrs.get('function')) in
                    ('!' + ins[0], ins[0] + "'"))
        buffer = (len(ins) == 1 and len(outs) == 1 and not ffs and not latches and
                  _norm_func(pins[outs[0]].attrs.get('function')) == ins[0])
        try:
            cap = float(pins[ins[0]].attrs.get('capacitance', 0)) if len(ins) == 1 else 0.0
        except ValueError:
            cap = 0.0
        dff = any(_norm_func(g.attrs.get('next_state')) in ins and
                  _norm_func(g.attrs.get('clocked_on')).lstrip('!') in ins for g in ffs)
        cells[name] = {'area': area, 'seq': 'ff' if ffs else ('latch' if latches else None),
                       'inverter': inverter, 'buffer': buffer, 'input_cap': cap, 'dff': dff,
                       'timed': any(p.sub('timing') for p in pins.values())}
    return cells


# ---- Memories in the RTLIL checkpoint -----------------------------------------------------------

_CELL = re.compile(r'^(\s*)cell (\S+) (\S+)\s*$')
_PARAM = re.compile(r'^\s*parameter (?:(?:signed|real) )*\\(\S+) (.*?)\s*$')
_CONNECT = re.compile(r'^(\s*)connect \\(\S+) (.*)$')


def _rtlil_int(v):
    v = v.strip()
    if re.fullmatch(r'-?\d+', v):
        return int(v)
    m = re.fullmatch(r"(\d+)'([01xz]+)", v)
    if m and set(m.group(2)) <= set('01'):
        return int(m.group(2), 2)
    raise FlowError(f'unexpected memory parameter value {v[:40]!r}')


def memory_cells(rtlil_lines):
    """[(line index of `cell $mem_v2`, cell name, {param: value text})] of an RTLIL text."""
    out, cur = [], None
    for i, line in enumerate(rtlil_lines):
        m = _CELL.match(line)
        if m:
            cur = (i, m.group(3), {}) if m.group(2) == '$mem_v2' else None
            if cur:
                out.append(cur)
            continue
        if cur:
            p = _PARAM.match(line)
            if p:
                cur[2][p.group(1)] = p.group(2)
            elif line.strip() == 'end':
                cur = None
    return out


def macro_ports(p):
    """(port, direction, width) of a kept memory, from its $mem_v2 parameters; ports of width
    0 (a ROM's write ports) are left out."""
    rd, wr = _rtlil_int(p['RD_PORTS']), _rtlil_int(p['WR_PORTS'])
    width, abits = _rtlil_int(p['WIDTH']), _rtlil_int(p['ABITS'])
    ports = [('RD_CLK', 'input', rd), ('RD_EN', 'input', rd), ('RD_ARST', 'input', rd),
             ('RD_SRST', 'input', rd), ('RD_ADDR', 'input', rd * abits),
             ('RD_DATA', 'output', rd * width), ('WR_CLK', 'input', wr),
             ('WR_EN', 'input', wr * width), ('WR_ADDR', 'input', wr * abits),
             ('WR_DATA', 'input', wr * width)]
    return [x for x in ports if x[2] > 0]


def macro_module(name, ports, blackbox):
    decl = '\n'.join(f'  {d} [{w - 1}:0] {n};' for n, d, w in ports)
    attr = '(* blackbox *)\n' if blackbox else ''
    return (f'{attr}module {name} ({", ".join(n for n, _, _ in ports)});\n{decl}\nendmodule\n')


def keep_macros(rtlil_text):
    """Rewrites the checkpoint: every macro memory becomes an instance of its own black-box
    module. Returns (new text, macros, memories left to flip-flops, stub Verilog)."""
    lines = rtlil_text.split('\n')
    mems = memory_cells(lines)
    macros, small, stubs = [], [], []
    retype = {}
    for idx, name, p in mems:
        size, width = _rtlil_int(p['SIZE']), _rtlil_int(p['WIDTH'])
        info = {'cell': name.lstrip('\\'), 'memid': p.get('MEMID', '').strip('"').lstrip('\\'),
                'size': size, 'width': width, 'bits': size * width,
                'rd_ports': _rtlil_int(p['RD_PORTS']), 'wr_ports': _rtlil_int(p['WR_PORTS'])}
        if memories.is_macro(size, width):
            mod = f'htm_macro_{len(macros)}'
            info['module'] = mod
            ports = macro_ports(p)
            stubs.append((mod, ports))
            retype[idx] = (mod, {n for n, _, _ in ports})
            macros.append(info)
        else:
            small.append(info)
    out, cur = [], None
    for i, line in enumerate(lines):
        if i in retype:
            cur = retype[i]
            m = _CELL.match(line)
            out.append(f'{m.group(1)}cell \\{cur[0]} {m.group(3)}')
            continue
        if cur:
            if line.strip() == 'end':
                cur = None
            elif _PARAM.match(line):
                continue
            else:
                c = _CONNECT.match(line)
                if c and c.group(2) not in cur[1]:
                    continue  # a zero-width port
        out.append(line)
    return '\n'.join(out), macros, small, stubs


# ---- The flow -----------------------------------------------------------------------------------

def error_text(e):
    """The message of a flow's error or of an OSError (without a traceback)."""
    return f'{e.strerror}: {e.filename}' if isinstance(e, OSError) else str(e)


def write_json(path, data):
    """Writes `data` to `path` atomically (a reader never sees half a file)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + '.tmp', 'w') as f:
        json.dump(data, f, indent=1)
        f.write('\n')
    os.replace(path + '.tmp', path)


def run_yosys(yosys, script, log):
    t0 = time.monotonic()
    try:
        r = subprocess.run([yosys, '-q', '-l', log, '-s', script], capture_output=True, text=True)
    except OSError as e:
        raise FlowError(f'cannot run Yosys {yosys}: {e.strerror}') from None
    if r.returncode != 0:
        tail = ''
        if os.path.exists(log):
            with open(log, errors='replace') as f:
                tail = ''.join(f.readlines()[-15:])
        tail = tail or (r.stderr + r.stdout)[-2000:]
        raise FlowError(f'Yosys failed (exit {r.returncode}); log {log}:\n{tail.rstrip()}')
    return time.monotonic() - t0


def below_cwd(path):
    rel = os.path.relpath(os.path.abspath(path))
    return not (rel == '..' or rel.startswith('..' + os.sep))


def flow(a):
    if not os.path.isfile(a.liberty):
        raise FlowError(f'the liberty {a.liberty} does not exist')
    cells = library_cells(a.liberty)
    if not cells:
        raise FlowError(f'the liberty {a.liberty} has no cells')
    missing = [w for w, k in (('inverter', 'inverter'), ('D flip-flop', 'dff'))
               if not any(c[k] for c in cells.values())]
    if missing:
        raise FlowError(f'the liberty {a.liberty} has no {" and no ".join(missing)}: Yosys '
                        '(dfflibmap, abc) cannot map onto it')
    if not below_cwd(a.work):
        raise FlowError(f'the work directory {a.work} is not below the current directory '
                        '(YoWASP Yosys reads only files below it): run from the repository root')
    work = os.path.relpath(a.work)
    os.makedirs(work, exist_ok=True)
    if below_cwd(a.liberty):
        lib = os.path.relpath(a.liberty)
    else:
        lib = os.path.join(work, f'{a.lib_name}.lib')
        shutil.copyfile(a.liberty, lib)
    name = f'{a.top}__{a.config}'
    chparams = ''.join(f' -chparam {p.strip()}' for p in a.params.split(';') if p.strip())
    files = ' '.join(f for f in a.files.split(';') if f.strip())
    if not files:
        raise FlowError('no RTL files given (--files)')
    coarse = os.path.join(work, f'{name}.coarse.il')
    s1 = os.path.join(work, f'{name}.coarse.ys')
    with open(s1, 'w') as f:
        f.write(f'# Generated by area/logic.py: {a.top}/{a.config} up to synth\'s fine step.\n'
                f'read_verilog -sv -noautowire -defer {a.includes} {files}\n'
                f'hierarchy -check -top {a.top}{chparams}\n'
                f'synth -flatten -top {a.top} -run begin:fine\n'
                f'write_rtlil {coarse}\n')
    seconds = run_yosys(a.yosys, s1, os.path.join(work, f'{name}.coarse.log'))
    with open(coarse) as f:
        text, macros, small, stubs = keep_macros(f.read())
    kept = os.path.join(work, f'{name}.kept.il')
    with open(kept, 'w') as f:
        f.write(text)
    stub_v = os.path.join(work, f'{name}.macros.v')
    with open(stub_v, 'w') as f:
        f.write('// Generated by area/logic.py: the RAM macros kept out of the logic.\n')
        f.write(''.join(macro_module(m, p, True) for m, p in stubs))
    # With a timed library ABC maps for the clock's period and, given a buffer to drive the
    # inputs and a load (four buffer inputs) on the outputs, buffers and sizes: an unbuffered
    # net of a thousand loads would have slews of microseconds (and power tables far outside
    # their range). An area-only library (no timing arcs) is mapped for area alone.
    delay_ps = 1e6 / a.clock_mhz
    bufs = sorted((c['area'], n) for n, c in cells.items() if c['buffer'] and c['timed'])
    if bufs:
        buf = bufs[0][1]
        constr = os.path.join(work, f'{a.lib_name}.abc.constr')
        with open(constr, 'w') as f:
            f.write(f'set_driving_cell {buf}\n'
                    f'set_load {4 * (cells[buf]["input_cap"] or 0.01):g}\n')
        abc = f'abc -D {delay_ps:.0f} -constr {constr} -liberty {lib}'
    else:
        buf, delay_ps, abc = None, None, f'abc -liberty {lib}'
    stat_json = os.path.join(work, f'{name}.{a.lib_name}.stat.json')
    net_tmp = os.path.join(work, f'{name}.{a.lib_name}.gates.v')
    s2 = os.path.join(work, f'{name}.{a.lib_name}.ys')
    with open(s2, 'w') as f:
        f.write(f'# Generated by area/logic.py: {a.top}/{a.config} onto {a.lib_name}.\n'
                f'read_rtlil {kept}\n' + (f'read_verilog -lib {stub_v}\n' if stubs else '') +
                f'synth -top {a.top} -run fine:\n'
                'delete t:$scopeinfo\n'
                f'dfflibmap -liberty {lib}\n'
                f'{abc}\n'
                'opt_clean\n'
                f'tee -q -o {stat_json} stat -json -liberty {lib}\n'
                # OpenSTA's Verilog reader takes no concatenation on the left of an assign and
                # no x: the undefined bits (of nets that drive nothing) are tied to 0.
                'setundef -zero\n'
                f'write_verilog -noattr -simple-lhs {net_tmp}\n')
    for p in (stat_json, net_tmp):
        if os.path.exists(p):
            os.remove(p)
    seconds += run_yosys(a.yosys, s2, os.path.join(work, f'{name}.{a.lib_name}.log'))
    with open(stat_json) as f:
        stat_text = f.read()
    stat = json.loads(stat_text[stat_text.index('{'):])
    mods = stat.get('modules', {})
    top = mods.get('\\' + a.top) or mods.get(a.top)
    if top is None:
        raise FlowError(f'Yosys stat has no module {a.top}')
    by_type = top.get('num_cells_by_type', {})
    macro_mods = {m['module'] for m in macros}
    unmapped = sorted(t for t in by_type if t not in cells and t not in macro_mods)
    if unmapped:
        raise FlowError(f'cells left unmapped to the library: {", ".join(unmapped)}')
    types, area, n = {}, {'ff': 0.0, 'latch': 0.0, None: 0.0}, {'ff': 0, 'latch': 0, None: 0}
    for t, k in sorted(by_type.items()):
        if t in macro_mods:
            continue
        c = cells[t]
        types[t] = {'count': k, 'area_um2': round(k * c['area'], 4)}
        area[c['seq']] += k * c['area']
        n[c['seq']] += k
    total = sum(area.values())
    y_area = float(top.get('area', total))
    if abs(y_area - total) > 1e-6 * max(1.0, total):
        raise FlowError(f'the cell area summed from the liberty ({total:.3f}) differs from '
                        f"Yosys's ({y_area:.3f})")
    netlist = os.path.join(work, f'{name}.{a.lib_name}.v')
    with open(net_tmp) as f:
        gates = f.read()
    with open(netlist + '.tmp', 'w') as f:
        f.write('// Generated by area/logic.py: the RAM macros kept out of the logic (empty).\n')
        f.write(''.join(macro_module(m, p, False) for m, p in stubs))
        f.write(gates)
    os.replace(netlist + '.tmp', netlist)
    version = stat.get('creator', '')
    m = re.match(r'(Yosys \S+)', version)
    return {
        'top': a.top, 'config': a.config, 'library': a.lib_name, 'liberty': a.liberty,
        'params': dict(p.strip().split(None, 1) for p in a.params.split(';') if p.strip()),
        'area_um2': round(total, 4), 'cells': sum(n.values()),
        'ff_count': n['ff'], 'ff_area_um2': round(area['ff'], 4),
        'latch_count': n['latch'], 'latch_area_um2': round(area['latch'], 4),
        'comb_count': n[None], 'comb_area_um2': round(area[None], 4),
        'cells_by_type': types, 'macros': macros, 'memories_as_ff': small,
        # Cells the library gives no area (OSU 0.18 um's LATCH has `area : 0`).
        'cells_without_area': sorted(t for t in types if not cells[t]['area'] > 0),
        'abc_delay_target_ps': round(delay_ps) if delay_ps else None, 'abc_buffer': buf,
        'yosys': m.group(1) if m else version, 'yosys_seconds': round(seconds, 2),
        'netlist': netlist,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--yosys', required=True)
    ap.add_argument('--top', required=True)
    ap.add_argument('--config', required=True)
    ap.add_argument('--params', default='', help='"Name value;Name value" (CMake list)')
    ap.add_argument('--files', required=True, help='RTL files, relative, ;-separated')
    ap.add_argument('--includes', default='', help='Yosys -I options')
    ap.add_argument('--liberty', required=True, help='Liberty cell library')
    ap.add_argument('--lib-name', required=True, help='short name of the library (osu018, ...)')
    ap.add_argument('--work', required=True, help='work directory, below the current one')
    ap.add_argument('--out', required=True, help='result JSON')
    ap.add_argument('--clock-mhz', type=float, default=100.0,
                    help="ABC's delay target (default 100 MHz: 10 000 ps)")
    a = ap.parse_args()
    if not a.clock_mhz > 0:
        ap.error('--clock-mhz must be positive')
    if os.path.exists(a.out):
        os.remove(a.out)  # no stale result survives a failure
    try:
        res = flow(a)
    except (FlowError, OSError) as e:
        print(f'logic: {a.top}/{a.config} on {a.lib_name}: {error_text(e)}', file=sys.stderr)
        return 1
    write_json(a.out, res)
    kept = ', '.join(f"{m['size']} x {m['width']}" for m in res['macros']) or 'none'
    print(f"logic: {a.top}/{a.config} on {a.lib_name}: {res['area_um2']:.0f} um2, "
          f"{res['cells']} cells ({res['ff_count']} flip-flops, {res['ff_area_um2']:.0f} um2); "
          f"macros kept: {kept}; Yosys {res['yosys_seconds']} s")
    return 0


if __name__ == '__main__':
    sys.exit(main())
