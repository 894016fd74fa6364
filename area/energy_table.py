#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The energy per event of the system model (docs/energy.md): writes
machine/include/htm/machine/gpu/energy_costs.def, the costs htmsim multiplies its events by.

    area/energy_table.py [--build BUILD] [--yosys Y] [--cacti-dir D] [--out FILE] [--check]

The TM structures' costs come from CACTI 7 at 40 nm (area/cacti.py) on the RAM macros of each
block's `default` configuration, the papers' sizes, as area/arrays.py extracts them from the
RTL: each event costs the reads and writes the RTL does in the arrays it touches (COMPOSITION
below, the table of docs/energy.md). Flip-flop storage costs its bits at the stated per-bit
assumptions; the baseline GPU's constants are stated in BASELINE. BUILD (default `build`) is a
configured build tree: its CMakeCache.txt gives the blocks' parameters and files and Yosys
(HTM_YOSYS); CACTI comes from `tools/setup.sh --print-area` unless --cacti-dir is given.

--check regenerates the table and compares it with the checked-in file instead of writing it.
Exit status: 0 written (or, with --check, identical); 1 the table differs (--check), or Yosys
or CACTI failed on an array (the message names it); 2 bad usage, or no CACTI or Yosys.
"""
import argparse
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import arrays  # noqa: E402
import cacti  # noqa: E402

OUT = os.path.join(ROOT, 'machine', 'include', 'htm', 'machine', 'gpu', 'energy_costs.def')
NODE_NM = 40  # both papers' node (Chen, Peng & Irving, ISCA 2017, section 4.3)
CONFIG = 'default'

# ---- The baseline GPU (docs/energy.md, "The baseline GPU") -------------------------------------
CORE_MHZ = 1400        # Chen & Peng (HPCA 2016), Table 1; Chen, Peng & Irving (ISCA 2017), Table 2
CORES = 15             # the same tables
TDP_W = 250            # NVIDIA's board specification of the GeForce GTX 480
CONSTANT_SHARE = 0.25  # assumption: the share of the TDP that flows whatever the chip does
FLIT_BITS = 256        # the crossbar's 32 bytes a cycle (Table 1)
FLIT_MM = 10.0         # assumption: half the side of GF100's 529 mm2 die
WIRE_PJ_PER_BIT_MM = 0.2  # assumption: repeated full-swing wires at 40 nm
FF_WRITE_FJ = 5.0      # assumption: one flip-flop bit written at 40 nm
FF_LEAK_NW = 20.0      # assumption: one flip-flop bit's leakage at 40 nm (high-performance cells)
L2_LINES, L2_LINE_BITS = 1024, 1024  # a 128 KB L2 slice of 128-byte lines (Table 1)

# ---- The TM blocks: their RAM macros' accesses per event (docs/energy.md) -----------------------
# A term is (pattern of memory names, 'read' or 'write', times); a pattern may match several
# arrays (the copies), each accessed `times`. Every pattern must match at least one macro.
CU = 'htm_commit_unit'
CU_WORD_INTAKE = [  # a log word taken and stored
    ('ew_q', 'read', 1), ('ew_q', 'write', 1), ('g_ew[*].u_ew.mem', 'write', 1),
    ('u_buf_?.mem', 'write', 1), ('u_free.mem', 'read', 1)]
CU_WORD_RETIRE = [('u_buf_r.mem', 'read', 1), ('u_free.mem', 'write', 1)]
COMPOSITION = {
    'cu_entry_msg_pj': (CU, 'a DoneFill, Skip, Pass or Fail taken: the entry word read and '
                        'written in the intake copy and written in the walkers\' copies; a '
                        'DoneFill\'s reply routes and retire-at-fill id (upper bound: every one)',
                        [('ew_q', 'read', 1), ('ew_q', 'write', 1),
                         ('g_ew[*].u_ew.mem', 'write', 1), ('u_src_?.mem', 'write', 1),
                         ('u_raf.mem', 'write', 1)]),
    'cu_read_word_pj': (CU, 'a read-set word stored: intake (entry word, the buffer\'s copies, '
                        'a free slot, the list heads), the hazard walk (its buffer copy, the '
                        'retire-at-fill id, the LWH set and the recency filter\'s lookup copies, '
                        'the conflict word) and the retire walk (its copy, the free list)',
                        CU_WORD_INTAKE + [('rd_head_q', 'read', 1), ('rd_head_q', 'write', 1),
                                          ('u_rdh_*.mem', 'write', 1),
                                          ('u_buf_f.mem', 'read', 1), ('u_raf.mem', 'read', 1),
                                          ('u_lwh.u_table.mem', 'read', 1),
                                          ('u_lwh.u_bf.gen_table[*].u_l.mem', 'read', 1),
                                          ('u_conf.mem', 'write', 1)] + CU_WORD_RETIRE),
    'cu_write_word_pj': (CU, 'a write-set word stored: intake, the hazard walk (its buffer copy, '
                         'the LWH set read and written), the commit walk (its copy) and the '
                         'retire walk',
                         CU_WORD_INTAKE + [('wr_head_q', 'read', 1), ('wr_head_q', 'write', 1),
                                           ('u_wrh_*.mem', 'write', 1),
                                           ('u_buf_f.mem', 'read', 1),
                                           ('u_lwh.u_table.mem', 'read', 1),
                                           ('u_lwh.u_table.mem', 'write', 1),
                                           ('u_buf_c.mem', 'read', 1)] + CU_WORD_RETIRE),
    'iwcd_mark_pj': ('htm_intra_warp_cd', 'a lane of a Mark row: its bank\'s owner RAM read and '
                     'written (upper bound: the entry claimed)',
                     [('gen_bank[0].u_owner.mem', 'read', 1),
                      ('gen_bank[0].u_owner.mem', 'write', 1)]),
    'iwcd_check_pj': ('htm_intra_warp_cd', 'a lane of a Check row: its bank\'s owner RAM read',
                      [('gen_bank[0].u_owner.mem', 'read', 1)]),
    'tcd_check_pj': ('htm_tcd', 'a lookup: each hash table\'s lookup copy read',
                     [('u_bf.gen_table[*].u_l.mem', 'read', 1)]),
    'tcd_update_pj': ('htm_tcd', 'an update: each hash table\'s update copy read, both copies '
                      'written', [('u_bf.gen_table[*].u_m.mem', 'read', 1),
                              ('u_bf.gen_table[*].u_?.mem', 'write', 1)]),
    'rct_update_pj': ('htm_rct', 'an increment or decrement: the set read and written',
                      [('u_table.mem', 'read', 1), ('u_table.mem', 'write', 1)]),
    'cat_lookup_pj': ('htm_cat', 'a lane looked up: one read of its port\'s copy',
                      [('gen_port[0].u_copy.mem', 'read', 1)]),
    'cat_update_pj': ('htm_cat', 'a delta: the update copy read, every copy written',
                      [('u_upd_copy.mem', 'read', 1), ('*', 'write', 1)]),
    'wt_op_pj': ('htm_writer_table', 'an operation: the set read', [('u_table.mem', 'read', 1)]),
    'wt_write_pj': ('htm_writer_table', 'an entry inserted or removed: the set written',
                    [('u_table.mem', 'write', 1)]),
    'rl_cycle_pj': ('htm_reader_list', 'a cycle of an operation: a set read',
                    [('u_table.mem', 'read', 1)]),
    'rl_write_pj': ('htm_reader_list', 'an entry changed: the set written',
                    [('u_table.mem', 'write', 1)]),
    'pd_op_pj': ('htm_postdate', 'an operation: every RAM read and written (upper bound)',
                 [('*', 'read', 1), ('*', 'write', 1)]),
    'vit_op_pj': ('htm_version_index', 'an operation: the region\'s row read and written back',
                  [('u_rows.mem', 'read', 1), ('u_rows.mem', 'write', 1)]),
}
# Reads every cycle whatever the unit does (the RTL's read-ahead copies, read enable tied high),
# at the commit unit's clock, half the core's (Table 1: 700 MHz).
CU_CLOCKED_READS = ['g_ew[*].u_ew.mem', 'u_src_?.mem', 'u_conf.mem', 'u_rdh_*.mem',
                    'u_wrh_*.mem']
CU_MHZ = CORE_MHZ / 2

# Flip-flop storage: bits written per event, and storage bits per block (the blocks' leakage).
# From the RTL's registers at the default parameters (p: the block's parameters).
FF_EVENTS = {
    'iwcd_begin_pj': ('htm_intra_warp_cd', 'a warp through the detection: every valid bit '
                      'cleared at Begin', lambda p: p['Entries']),
    'pag_check_pj': ('htm_pag_check', 'a check: its request register written (lane mask, hits, '
                     'the lanes\' addresses, the kind)',
                     lambda p: p['WarpSize'] * (2 + p['AddrW']) + 1),
    'simt_command_pj': ('htm_tx_simt_stack', 'a command: the top entry written (type, PC, '
                        'reconvergence PC, mask, Log Index)', lambda p: simt_entry_bits(p)),
    'simt_push_pj': ('htm_tx_simt_stack', 'an entry pushed: one more entry written',
                     lambda p: simt_entry_bits(p)),
}
FF_STORAGE = {  # bits of flip-flop storage per instance, besides the arrays' flip-flop memories
    'htm_intra_warp_cd': ('the valid bits', lambda p: p['Entries']),
    'htm_pag_check': ('the request register', lambda p: p['WarpSize'] * (2 + p['AddrW']) + 1),
    'htm_tx_simt_stack': ('the entries', lambda p: p['Depth'] * simt_entry_bits(p)),
}
# The blocks whose leakage the model charges (energy_model.def), with their cost keys.
LEAKAGE = {
    'htm_commit_unit': 'commit_unit_leak_mw', 'htm_tx_simt_stack': 'simt_stack_leak_mw',
    'htm_intra_warp_cd': 'iwcd_leak_mw', 'htm_tcd': 'tcd_leak_mw', 'htm_rct': 'rct_leak_mw',
    'htm_cat': 'cat_leak_mw', 'htm_pag_check': 'pag_leak_mw', 'htm_version_index': 'vit_leak_mw',
    'htm_writer_table': 'wt_leak_mw', 'htm_reader_list': 'rl_leak_mw',
    'htm_postdate': 'pd_leak_mw',
}


def simt_entry_bits(p):
    return 2 + 2 * p['PcW'] + p['WarpSize'] + p['LogW']


class TableError(Exception):
    pass


def sig(v):
    return float(f'{v:.6g}')


def fmt(v):
    return f'{sig(v):.6g}'


def blocks(build, yosys, cacti_dir):
    """Each TM block's default configuration: its parameters and macros with 40 nm figures."""
    work = os.path.join(build, 'area')
    out = {}
    for job in arrays.build_configs(build):
        if job['config'] != CONFIG or job['top'] not in LEAKAGE:
            continue
        r = arrays.block_result(yosys, job['top'], CONFIG, job['params'], job['files'],
                                job['includes'], work, (NODE_NM,), cacti_dir,
                                os.path.join(work, 'cacti-cache'))
        r['params'] = {k: int(v) for k, v in r['params'].items()}
        out[job['top']] = r
    missing = sorted(set(LEAKAGE) - set(out))
    if missing:
        raise TableError(f'{build} has no {CONFIG} configuration of {", ".join(missing)}')
    return out


def wildcard(pattern):
    """A memory-name pattern as a regular expression: * and ? are the only wildcards (brackets
    are the names' generate indices)."""
    return re.compile(re.escape(pattern).replace(r'\*', '.*').replace(r'\?', '.') + '$')


def matching(block, pattern):
    rx = wildcard(pattern)
    got = [a for a in block['arrays'] if rx.match(a['memory'])]
    if not got:
        raise TableError(f'{block["top"]}/{CONFIG}: no RAM macro matches {pattern!r} (the '
                         f'RTL changed: update area/energy_table.py and docs/energy.md)')
    return got


def compose(block, terms):
    """The energy of `terms` in `block` (pJ) and the text saying what it is made of."""
    total, parts = 0.0, []
    for pattern, op, times in terms:
        each = [a['cacti'][str(NODE_NM)][f'{op}_pj'] for a in matching(block, pattern)]
        total += sum(each) * times
        n = len(each) * times
        e = f'{fmt(each[0])} pJ' if len(set(each)) == 1 else \
            f'{fmt(sum(each) / len(each))} pJ on average'
        parts.append(f'{n} x {pattern} {op} {e}')
    return total, ' + '.join(parts)


def l2_access(cacti_dir, build):
    arr = cacti.Array('baseline/L2 slice (128 KB, 128-byte lines)', L2_LINES, L2_LINE_BITS,
                      rw_ports=1)
    return cacti.run(arr, NODE_NM, cacti_dir, os.path.join(build, 'area', 'cacti-cache'))


def costs(build, yosys, cacti_dir):
    """[(key, value, unit, source)] in the order of the file."""
    b = blocks(build, yosys, cacti_dir)
    rows = []
    constant_mw = TDP_W * CONSTANT_SHARE * 1e3
    instr_pj = (TDP_W - TDP_W * CONSTANT_SHARE) / (CORES * CORE_MHZ * 1e6) * 1e12
    l2 = l2_access(cacti_dir, build)
    flit_pj = FLIT_BITS * FLIT_MM * WIRE_PJ_PER_BIT_MM
    rows += [
        ('core_clock_mhz', CORE_MHZ, 'MHz',
         'core clock: Chen & Peng (HPCA 2016), Table 1; Chen, Peng & Irving (ISCA 2017), Table 2'),
        ('chip_constant_mw', constant_mw, 'mW',
         f'assumption: {CONSTANT_SHARE:g} of the GTX 480\'s {TDP_W} W TDP (NVIDIA) flows '
         f'whatever the chip does'),
        ('warp_instruction_pj', instr_pj, 'pJ',
         f'assumption: the TDP\'s dynamic share ({TDP_W} W - constant) at the peak issue rate '
         f'of one warp instruction per core per cycle ({CORES} cores, {CORE_MHZ} MHz)'),
        ('l2_access_pj', l2.read_pj, 'pJ',
         f'CACTI {NODE_NM} nm: one read of a {L2_LINES} x {L2_LINE_BITS}-bit RAM (a 128 KB L2 '
         f'slice of 128-byte lines, Table 1)'),
        ('flit_pj', flit_pj, 'pJ',
         f'assumption: {FLIT_BITS} bits x {FLIT_MM:g} mm x {WIRE_PJ_PER_BIT_MM:g} pJ/bit/mm '
         f'(Table 1\'s 32-byte crossbar; half the side of a 529 mm2 die)'),
    ]
    for key, (top, what, terms) in COMPOSITION.items():
        pj, made = compose(b[top], terms)
        rows.append((key, pj, 'pJ', f'CACTI {NODE_NM} nm, {top}/{CONFIG}: {what}: {made}'))
    for key, (top, what, bits) in FF_EVENTS.items():
        n = bits(b[top]['params'])
        rows.append((key, n * FF_WRITE_FJ * 1e-3, 'pJ',
                     f'{top}/{CONFIG}: {what}: {n} flip-flop bits x {FF_WRITE_FJ:g} fJ '
                     f'(assumption)'))
    cu_read, made = compose(b[CU], [(p, 'read', 1) for p in CU_CLOCKED_READS])
    rows.append(('commit_unit_clocked_mw', cu_read * CU_MHZ * 1e-3, 'mW',
                 f'CACTI {NODE_NM} nm, {CU}/{CONFIG}: the read-ahead copies read every cycle at '
                 f'{CU_MHZ:g} MHz (Table 1\'s commit-unit clock): {made}'))
    for top, key in LEAKAGE.items():
        blk = b[top]
        ram = sum(a['cacti'][str(NODE_NM)]['leakage_mw'] for a in blk['arrays'])
        ff = sum(m['entries'] * m['width'] for m in blk['flip_flop_memories'])
        n = len(blk['arrays'])
        what = [f'{n} RAM macro{"" if n == 1 else "s"} {fmt(ram)} mW (CACTI {NODE_NM} nm)']
        if blk['flip_flop_memories']:
            what.append(f'flip-flop memories {ff} bits')
        if top in FF_STORAGE:
            name, bits = FF_STORAGE[top]
            ff += bits(blk['params'])
            what.append(f'{name} {bits(blk["params"])} flip-flop bits')
        mw = ram + ff * FF_LEAK_NW * 1e-6
        rows.append((key, mw, 'mW', f'{top}/{CONFIG}: ' + ', '.join(what) +
                     (f' x {FF_LEAK_NW:g} nW (assumption)' if ff else '')))
    return rows


def render(rows):
    lines = [
        '// SPDX-License-Identifier: Apache-2.0',
        '//',
        '// The energy costs of the system model (docs/energy.md), generated by '
        'area/energy_table.py:',
        '// do not edit; regenerate it (area/energy_table.py --check tells when it is out of '
        'date).',
        '//',
        '//   HTM_ENERGY_COST(<key>, <value>, "<unit>", "<what it is and where it comes from>")',
    ]
    for key, value, unit, source in rows:
        if '"' in source or '\\' in source:
            raise TableError(f'{key}: the source text may not hold quotes or backslashes')
        lines.append(f'HTM_ENERGY_COST({key}, {fmt(value)}, "{unit}",\n                '
                     f'"{source}")')
    return '\n'.join(lines) + '\n'


def default_cacti_dir():
    try:
        p = subprocess.run([os.path.join(ROOT, 'tools', 'setup.sh'), '--print-area'],
                           capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise FileNotFoundError(f'tools/setup.sh --print-area failed ({e}): give --cacti-dir')
    return os.path.join(p.stdout.strip().splitlines()[-1], 'cacti')


def default_yosys(build):
    path = os.path.join(build, 'CMakeCache.txt')
    if not os.path.exists(path):
        raise FileNotFoundError(f'{path} is missing: configure the build tree, or give --yosys')
    yosys = arrays.cmake_cache(path).get('HTM_YOSYS')
    if not yosys or not os.access(yosys, os.X_OK):
        raise FileNotFoundError(f'{path} names no Yosys (HTM_YOSYS): give --yosys')
    return yosys


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build', default=os.path.join(ROOT, 'build'),
                    help='a configured build tree (default: build)')
    ap.add_argument('--yosys', help='Yosys (default: the build tree\'s HTM_YOSYS)')
    ap.add_argument('--cacti-dir', help='CACTI (default: tools/setup.sh --print-area + /cacti)')
    ap.add_argument('--out', default=OUT, help='the table (default: %(default)s)')
    ap.add_argument('--check', action='store_true',
                    help='compare with the file instead of writing it (exit 1 when it differs)')
    a = ap.parse_args(argv)
    try:
        yosys = a.yosys or default_yosys(a.build)
        cacti_dir = a.cacti_dir or default_cacti_dir()
        cacti.binary(cacti_dir)
        text = render(costs(a.build, yosys, cacti_dir))
    except FileNotFoundError as e:
        print(f'energy_table: {e}', file=sys.stderr)
        return 2
    except (TableError, arrays.ArraysError, cacti.CactiError) as e:
        print(f'energy_table: {e}', file=sys.stderr)
        return 1
    if a.check:
        try:
            with open(a.out) as f:
                old = f.read()
        except OSError as e:
            print(f'energy_table: cannot read {a.out}: {e.strerror}', file=sys.stderr)
            return 1
        if old != text:
            print(f'energy_table: {a.out} is out of date: run area/energy_table.py',
                  file=sys.stderr)
            return 1
        print(f'energy_table: {a.out} is up to date')
        return 0
    tmp = f'{a.out}.tmp'
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, a.out)
    print(f'energy_table: wrote {a.out}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
