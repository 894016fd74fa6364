#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The storage arrays (RAM macros) of one block at one named configuration, extracted from the
RTL by Yosys, each with its role (area/array_roles.py) and, with --cacti-dir, CACTI 7's figures
at each node (area/cacti.py).

Yosys elaborates the block with the configuration's parameters and keeps its memories as
$mem_v2 cells (`proc; flatten; opt_clean; memory -nomap; opt_clean`); each cell's SIZE, WIDTH
and read/write ports give the array, so the description cannot drift from the RTL. A read port
and a write port on the same address signal are one read-write port (a single-port RAM); the
other ports are exclusive read or write ports. The memories area/memories.py's is_macro()
accepts are the macros; the rest are flip-flops for the logic flow. A macro whose (block,
memory) has no role is an error. Each block's memory list is kept in the work directory and
reused while the RTL, the include files, the parameters and this file are unchanged.

Called with the same arguments as the synthesis flows (cmake/HtmTesting.cmake passes them from
cmake/HtmConfigs.cmake and tools/rtl_deps.py); --files and --includes are relative to the
source tree (Yosys runs from its root), --work to the current directory:

    area/arrays.py --yosys Y --top T --config C --params "P1 V1;P2 V2" --files "a.sv;b.sv"
                   --includes "-I rtl/include -I build/gen/rtl" --work build/area
                   [--cacti-dir D [--node 40 --node 22] [--cache-dir C]]

or for every block and configuration of a configured build tree:

    area/arrays.py --yosys Y --all build --work build/area [--cacti-dir D ...]

Prints JSON: per block and configuration its arrays (name, entries, width, ports, role, kind,
structure and, with --cacti-dir, "cacti": {node: figures}). Exit status: 0 printed; 1 Yosys
failed, a macro has no role, or CACTI refused a macro (the message names block, configuration
and memory); 2 bad usage. YoWASP Yosys reads and writes only below its working directory: the
work directory must be inside the source tree, and Yosys runs from the tree's root.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
from dataclasses import asdict, dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import array_roles  # noqa: E402
import cacti  # noqa: E402
import memories  # noqa: E402


class ArraysError(Exception):
    """A flow failure, with a message naming block, configuration and memory."""


@dataclass(frozen=True)
class Memory:
    """A $mem_v2 cell of the flattened block."""
    name: str          # the memory's hierarchical name, e.g. "u_table.mem"
    entries: int
    width: int
    rd_ports: int
    wr_ports: int
    rw_ports: int      # read and write ports that share one address (a single-port RAM)
    # Yosys's RD_CLK_ENABLE / WR_CLK_ENABLE per port: whether the cell's port is clocked (a
    # read whose data register Yosys leaves outside the cell, e.g. one behind an enable, is 0).
    rd_clk_enable: tuple
    wr_clk_enable: tuple
    src: str           # where the RTL declares it

    @property
    def bits(self) -> int:
        return self.entries * self.width


def params_of(text: str) -> list[tuple[str, str]]:
    """"P1 V1;P2 V2" (a CMake list, as cmake/HtmConfigs.cmake gives it) -> [(P1, V1), ...]."""
    out = []
    for item in text.split(';'):
        if not item.strip():
            continue
        parts = item.split()
        if len(parts) != 2:
            raise ArraysError(f'parameter "{item}" is not "Name value"')
        out.append((parts[0], parts[1]))
    return out


def rel_to_root(path: str, what: str) -> str:
    rel = os.path.relpath(os.path.abspath(path), ROOT)
    if rel.startswith('..'):
        raise ArraysError(f'{what} {path} is outside the source tree {ROOT}; YoWASP Yosys '
                          f'reads and writes only below its working directory')
    return rel


def yosys_script(top, params, files, includes, out_json) -> str:
    chparams = ''.join(f' -chparam {n} {v}' for n, v in params)
    return (f'read_verilog -sv -noautowire -defer {includes} {" ".join(files)}\n'
            f'hierarchy -check -top {top}{chparams}\n'
            'proc\nflatten\nopt_clean\nmemory -nomap\nopt_clean\n'
            # Only the memories and the multiplexers in front of their addresses are read:
            # the rest of the netlist (hundreds of MB for the largest blocks) is not written.
            'delete t:* t:$mem_v2 %d t:$mux %d\n'
            f'write_json {out_json}\n')


def param_int(cell, name) -> int:
    v = cell['parameters'][name]
    return v if isinstance(v, int) else int(v, 2)


def param_bits(cell, name, n) -> tuple:
    """A per-port bit parameter (bit i = port i) as a tuple of n booleans."""
    v = cell['parameters'][name]
    v = format(v, f'0{n}b') if isinstance(v, int) else v.rjust(n, '0')
    return tuple(v[len(v) - 1 - i] == '1' for i in range(n))


def port_slices(cell, conn, ports, width_each) -> list[list]:
    bits = cell['connections'][conn]
    return [bits[i * width_each:(i + 1) * width_each] for i in range(ports)]


def undef_mux_sources(module) -> dict:
    """bit -> the bit it equals: through every $mux that proc made with an undefined input
    (`if (en) x = a;` gives a mux of a and x), whose output is the other input."""
    src = {}
    for c in module['cells'].values():
        if c['type'] != '$mux':
            continue
        a, b, y = (c['connections'][k] for k in ('A', 'B', 'Y'))
        for i, bit in enumerate(y):
            if a[i] == 'x':
                src[bit] = b[i]
            elif b[i] == 'x':
                src[bit] = a[i]
    return src


def resolve(bits, src) -> tuple:
    out = []
    for bit in bits:
        seen = set()
        while bit in src and bit not in seen:
            seen.add(bit)
            bit = src[bit]
        out.append(bit)
    return tuple(out)


def memory_of(cell, src) -> Memory:
    p = cell['parameters']
    name = p['MEMID'].lstrip('\\')
    entries, width = param_int(cell, 'SIZE'), param_int(cell, 'WIDTH')
    n_rd, n_wr = param_int(cell, 'RD_PORTS'), param_int(cell, 'WR_PORTS')
    abits = param_int(cell, 'ABITS')
    # Ports Yosys split off a wide port (continuations) are the same port.
    rd_cont = param_bits(cell, 'RD_WIDE_CONTINUATION', n_rd) if n_rd else ()
    wr_cont = param_bits(cell, 'WR_WIDE_CONTINUATION', n_wr) if n_wr else ()
    rd_addr = [resolve(a, src) for a in port_slices(cell, 'RD_ADDR', n_rd, abits)]
    wr_addr = [resolve(a, src) for a in port_slices(cell, 'WR_ADDR', n_wr, abits)]
    rd = [i for i in range(n_rd) if not rd_cont[i]]
    wr = [i for i in range(n_wr) if not wr_cont[i]]
    # A read and a write port on one address signal are one read-write port (a single-port
    # RAM): pair them off.
    rw = 0
    free_wr = list(wr)
    for i in list(rd):
        j = next((j for j in free_wr if wr_addr[j] == rd_addr[i]), None)
        if j is not None:
            free_wr.remove(j)
            rd.remove(i)
            rw += 1
    rd_clk = param_bits(cell, 'RD_CLK_ENABLE', n_rd) if n_rd else ()
    wr_clk = param_bits(cell, 'WR_CLK_ENABLE', n_wr) if n_wr else ()
    src = cell.get('attributes', {}).get('src', '')
    return Memory(name, entries, width, len(rd), len(free_wr), rw, rd_clk, wr_clk, src)


def include_dirs(includes) -> list[str]:
    toks = includes.split()
    out = []
    for i, t in enumerate(toks):
        if t == '-I' and i + 1 < len(toks):
            out.append(toks[i + 1])
        elif t.startswith('-I') and len(t) > 2:
            out.append(t[2:])
    return out


def inputs_key(yosys, script_text, files, includes) -> str:
    """What the memory list depends on: the script, the RTL files, the include files and
    this file (which reads Yosys's answer)."""
    h = hashlib.sha256()
    h.update(f'{os.path.abspath(yosys)}\n{script_text}'.encode())
    with open(__file__, 'rb') as f:
        h.update(f.read())
    paths = list(files)
    for d in include_dirs(includes):
        full = os.path.join(ROOT, d)
        if os.path.isdir(full):
            paths += sorted(os.path.join(d, n) for n in os.listdir(full)
                            if os.path.isfile(os.path.join(full, n)))
    for rel in paths:
        try:
            with open(os.path.join(ROOT, rel), 'rb') as f:
                h.update(rel.encode() + b'\0' + f.read() + b'\0')
        except OSError as e:
            raise ArraysError(f'cannot read {rel}: {e.strerror}') from None
    return h.hexdigest()


def extract(yosys, top, config, params, files, includes, work) -> list[Memory]:
    """Every memory ($mem_v2) of `top` elaborated with `params`, by Yosys run from the tree's
    root; `files` relative to the root, `includes` Yosys -I options. The list is kept in the
    work directory and reused while the script, the RTL and the include files are unchanged."""
    work_rel = rel_to_root(work, 'the work directory')
    os.makedirs(os.path.join(ROOT, work_rel), exist_ok=True)
    stem = os.path.join(work_rel, f'{top}__{config}.arrays')
    script = f'{stem}.ys'
    out_json = f'{stem}.json'
    log = f'{stem}.log'
    saved = os.path.join(ROOT, f'{stem}.memories.json')
    text = yosys_script(top, params, files, includes, out_json)
    key = inputs_key(yosys, text, files, includes)
    try:
        with open(saved) as f:
            data = json.load(f)
        if data.get('key') == key:
            return [Memory(**{k: tuple(v) if isinstance(v, list) else v for k, v in m.items()})
                    for m in data['memories']]
    except (OSError, ValueError, TypeError, KeyError):
        pass  # absent or stale: run Yosys
    with open(os.path.join(ROOT, script), 'w') as f:
        f.write(text)
    try:
        p = subprocess.run([yosys, '-q', '-l', log, '-s', script], cwd=ROOT,
                           capture_output=True, text=True, errors='replace')
    except OSError as e:
        raise ArraysError(f'{top}/{config}: cannot run Yosys {yosys}: {e}') from None
    if p.returncode != 0:
        try:
            with open(os.path.join(ROOT, log), errors='replace') as f:
                tail = f.read()[-2000:]
        except OSError:
            tail = p.stderr[-2000:]
        raise ArraysError(f'{top}/{config}: Yosys failed (exit {p.returncode}); log '
                          f'{log}:\n{tail}')
    with open(os.path.join(ROOT, out_json)) as f:
        design = json.load(f)
    mods = design['modules']
    mod = mods.get(top) or next((m for m in mods.values()
                                 if int(str(m.get('attributes', {}).get('top', '0')), 2)), None)
    if mod is None:
        raise ArraysError(f'{top}/{config}: Yosys wrote no module {top}')
    src = undef_mux_sources(mod)
    mems = [memory_of(c, src) for c in mod['cells'].values() if c['type'] == '$mem_v2']
    unknown = [c['type'] for c in mod['cells'].values()
               if c['type'] in ('$mem', '$memrd', '$memwr', '$meminit')]
    if unknown:
        raise ArraysError(f'{top}/{config}: unexpected memory cells {sorted(set(unknown))} '
                          f'(Yosys should give $mem_v2 after memory -nomap)')
    mems.sort(key=lambda m: m.name)
    with open(f'{saved}.tmp', 'w') as f:
        json.dump({'key': key, 'memories': [asdict(m) for m in mems]}, f, indent=1)
    os.replace(f'{saved}.tmp', saved)
    # The netlist (every memory's INIT spelled out) is large and no longer needed.
    os.remove(os.path.join(ROOT, out_json))
    return mems


def cacti_array(top, config, mem: Memory, kind: str) -> cacti.Array:
    """The CACTI description of a macro: its ports as the RTL has them (a CAM gets one search
    port besides)."""
    rw, rd, wr = mem.rw_ports, mem.rd_ports, mem.wr_ports
    return cacti.Array(name=f'{top}/{config}/{mem.name}', entries=mem.entries, width=mem.width,
                       rw_ports=rw, rd_ports=rd, wr_ports=wr,
                       search_ports=1 if kind == 'CAM' else 0)


def ports_text(mem: Memory) -> str:
    parts = [f'{n}{t}' for n, t in ((mem.rw_ports, 'rw'), (mem.rd_ports, 'r'),
                                    (mem.wr_ports, 'w')) if n]
    return ' '.join(parts) or 'none'


def macros_of(top, config, mems) -> list[dict]:
    """The macros among `mems` with their roles; ArraysError for a macro without one."""
    out = []
    for m in mems:
        if not memories.is_macro(m.entries, m.width):
            continue
        role = array_roles.role_of(top, m.name)
        if role is None:
            raise ArraysError(
                f'{top}/{config}: memory {m.name} ({m.entries} x {m.width} bits, {m.src}) is a '
                f'RAM macro with no role: add {array_roles.pattern_of(m.name)!r} to '
                f'ROLES[{top!r}] in area/array_roles.py')
        d = asdict(m)
        d.update(name=f'{top}/{config}/{m.name}', memory=m.name, bits=m.bits,
                 ports=ports_text(m), kind=role.kind, role=role.key, structure=role.structure,
                 part=role.part, copy=role.copy)
        out.append(d)
    return out


def with_figures(top, config, macros, mems, nodes, cacti_dir, cache_dir):
    by_name = {m.name: m for m in mems}
    for d in macros:
        arr = cacti_array(top, config, by_name[d['memory']], d['kind'])
        d['cacti'] = {}
        for n in nodes:
            fig = cacti.run(arr, n, cacti_dir, cache_dir).to_json()
            del fig['cfg']
            d['cacti'][str(n)] = fig


def block_result(yosys, top, config, params, files, includes, work, nodes=(), cacti_dir=None,
                 cache_dir=None) -> dict:
    mems = extract(yosys, top, config, params, files, includes, work)
    macros = macros_of(top, config, mems)
    if cacti_dir:
        with_figures(top, config, macros, mems, nodes, cacti_dir, cache_dir)
    flops = [m for m in mems if not memories.is_macro(m.entries, m.width)]
    return {'top': top, 'config': config, 'params': dict(params), 'arrays': macros,
            'flip_flop_memories': [{'memory': m.name, 'entries': m.entries, 'width': m.width}
                                   for m in flops]}


def cmake_sets(path) -> dict[str, str]:
    """set(NAME "value") lines of a generated .cmake file."""
    out = {}
    with open(path) as f:
        for m in re.finditer(r'^set\((\S+) "([^"]*)"\)', f.read(), re.M):
            out[m.group(1)] = m.group(2)
    return out


def cmake_cache(path) -> dict[str, str]:
    out = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'^([A-Za-z_][A-Za-z0-9_]*):[A-Z]+=(.*)$', line.rstrip('\n'))
            if m:
                out[m.group(1)] = m.group(2)
    return out


def build_configs(build) -> list[dict]:
    """Every block and named configuration of a configured build tree: its parameters
    (CMakeCache.txt, from cmake/HtmConfigs.cmake), its files (gen/cmake/rtl_deps.cmake) and
    the include options, as cmake/HtmTesting.cmake passes them to a flow."""
    cache_path = os.path.join(build, 'CMakeCache.txt')
    deps_path = os.path.join(build, 'gen', 'cmake', 'rtl_deps.cmake')
    for p in (cache_path, deps_path):
        if not os.path.exists(p):
            raise ArraysError(f'{p} is missing: configure the build tree first (make configure)')
    cache = cmake_cache(cache_path)
    deps = cmake_sets(deps_path)
    gen_rtl = rel_to_root(os.path.join(build, 'gen', 'rtl'), 'the generated RTL directory')
    includes = f'-I rtl/include -I {gen_rtl}'
    out = []
    for top in [b for b in cache.get('HTM_BLOCKS', '').split(';') if b]:
        files = deps.get(f'HTM_RTL_DEPS_REL_{top}')
        if files is None:
            raise ArraysError(f'{deps_path} lists no files for {top}')
        for cfg in [c for c in cache.get(f'HTM_BLOCK_{top}_CONFIGS', '').split(';') if c]:
            key = f'HTM_CFG_{top}_{cfg}_Y'
            if key not in cache:
                raise ArraysError(f'{cache_path} has no {key}')
            out.append({'top': top, 'config': cfg, 'params': params_of(cache[key]),
                        'files': [f for f in files.split(';') if f], 'includes': includes})
    if not out:
        raise ArraysError(f'{cache_path} lists no blocks (HTM_BLOCKS)')
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--yosys', required=True)
    ap.add_argument('--top')
    ap.add_argument('--config')
    ap.add_argument('--params', default='', help='"Name value;Name value" (CMake list)')
    ap.add_argument('--files', help='RTL files, relative to the source tree, ;-separated')
    ap.add_argument('--includes', default='', help='Yosys -I options')
    ap.add_argument('--all', metavar='BUILD',
                    help='every block and configuration of this configured build tree')
    ap.add_argument('--work', required=True, help='work directory (inside the source tree)')
    ap.add_argument('--cacti-dir', help='CACTI directory: add its figures per node')
    ap.add_argument('--node', type=int, action='append',
                    help='technology node in nm (repeatable; default: '
                         f'{" and ".join(map(str, cacti.NODES))})')
    ap.add_argument('--cache-dir', help='CACTI result cache (default <work>/cacti-cache)')
    a = ap.parse_args(argv)
    if a.all:
        if a.top or a.config or a.files or a.params:
            ap.error('--all takes the blocks from the build tree: no --top/--config/--files/'
                     '--params')
    elif not (a.top and a.config and a.files):
        ap.error('give --top, --config and --files (or --all BUILD)')
    nodes = tuple(a.node or cacti.NODES)
    if a.node and not a.cacti_dir:
        ap.error('--node needs --cacti-dir')
    for n in nodes:
        if not cacti.MIN_NODE_NM <= n <= cacti.MAX_NODE_NM:
            ap.error(f'--node {n}: CACTI models {cacti.MIN_NODE_NM} to {cacti.MAX_NODE_NM} nm')
    cache_dir = a.cache_dir or (os.path.join(a.work, 'cacti-cache') if a.cacti_dir else None)
    # Usage errors (exit 2): what the arguments say, before any tool runs.
    try:
        rel_to_root(a.work, 'the work directory')
        if a.cacti_dir:
            cacti.binary(a.cacti_dir)
        if a.all:
            jobs = build_configs(a.all)
        else:
            files = [f for f in a.files.split(';') if f]
            for f in files:
                if os.path.isabs(f) or not os.path.isfile(os.path.join(ROOT, f)):
                    raise ArraysError(f'--files: {f} is not a file relative to the source '
                                      f'tree {ROOT}')
            jobs = [{'top': a.top, 'config': a.config, 'params': params_of(a.params),
                     'files': files, 'includes': a.includes}]
    except (ArraysError, FileNotFoundError) as e:
        ap.error(str(e))
    try:
        results = [block_result(a.yosys, j['top'], j['config'], j['params'], j['files'],
                                j['includes'], a.work, nodes, a.cacti_dir, cache_dir)
                   for j in jobs]
    except (ArraysError, cacti.CactiError) as e:
        print(f'arrays: {e}', file=sys.stderr)
        return 1
    json.dump(results if a.all else results[0], sys.stdout, indent=1)
    print()
    return 0


if __name__ == '__main__':
    sys.exit(main())
