#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What each RAM macro of the RTL is: per block (top module) and memory (the hierarchical name
Yosys gives it after flattening, generate indices written [*]), RAM or CAM, the structure it
belongs to as the papers name it, and what of that structure it holds.

area/arrays.py looks every macro it extracts up here and stops with an error when one has no
entry; area/tests/test_arrays.py checks that every entry matches a macro in some named
configuration of its block. `key` groups a block's arrays into one paper structure (the area
report, area/papers.py, compares by key). Not a command: imported by area/arrays.py.

Papers, by the short form of docs/references.md: KILO TM (Fung et al., MICRO 2011); WarpTM
(Fung & Aamodt, MICRO 2013); early conflict resolution (Chen & Peng, HPCA 2016); snapshot
isolation (Chen, Peng & Irving, ISCA 2017); GPU-LocalTM (Villegas, PhD thesis, 2018).
"""
import re
from dataclasses import dataclass

RAM, CAM = 'RAM', 'CAM'


@dataclass(frozen=True)
class Role:
    kind: str       # RAM or CAM (CACTI's cache type)
    key: str        # the structure's short key
    structure: str  # its name in the papers (or, for a primitive, what it is)
    part: str       # what this memory holds of it
    # A read copy: the same contents as another memory (or flip-flops) of the block, kept so
    # that more ports can read in one cycle. The report gives the storage both as built and
    # with the copies left out (what a multi-ported RAM would hold once).
    copy: bool = False


LWH = 'Last Writer History'
LWH_TABLE = Role(RAM, 'lwh', LWH, 'table: per set, ways of address and last writer')
LWH_FILTER = 'recency Bloom filter of evicted writers'
RING = 'transaction status ring'
BUF = 'read/write-set buffer'
RECENCY = 'recency Bloom filter'
TCD = 'last-written-time table (temporal conflict detection, WarpTM)'
LTT = 'Logical Timestamp Table'
LDS = 'LDS bank (GPU-LocalTM)'
LDS_LANE = 'one byte lane of the bank: user data, backup words and owner bytes'


def _recency(prefix, key, structure):
    """A htm_sig_recency_ram's two copies per hash table: u_l is read by lookups, u_m by the
    read-modify-write of updates; both are written together."""
    return {
        f'{prefix}gen_table[*].u_l.mem': Role(RAM, key, structure,
                                              'slot values, the lookups\' copy (one per hash)'),
        f'{prefix}gen_table[*].u_m.mem': Role(RAM, key, structure,
                                              'slot values, the updates\' copy (one per hash)',
                                              copy=True),
    }


def _ring(part, copy=False):
    return Role(RAM, 'ring', RING, part, copy)


ROLES: dict[str, dict[str, Role]] = {
    # Early conflict resolution: the Conflict Address Table of a SIMT core.
    'htm_cat': {
        'gen_port[*].u_copy.mem': Role(RAM, 'cat', 'Conflict Address Table',
                                       'sets of address ways, a read copy per lookup port',
                                       copy=True),
        'u_upd_copy.mem': Role(RAM, 'cat', 'Conflict Address Table',
                               'sets of address ways, the update copy'),
    },
    # KILO TM's commit unit, with its Last Writer History.
    'htm_commit_unit': {
        **{f'u_buf_{w}.mem': Role(RAM, 'buffer', BUF,
                                  f'linked words of the read and write sets, the {name} '
                                  f'walker\'s copy', copy=(w != 'c'))
           for w, name in (('f', 'fail'), ('p', 'pass'), ('c', 'commit'), ('r', 'retire'))},
        'u_free.mem': Role(RAM, 'buffer', BUF, 'free list of buffer slots'),
        'ew_q': _ring('entry words (flags), the intake\'s copy'),
        'g_ew[*].u_ew.mem': _ring('entry words (flags), a walker\'s read-ahead copy', True),
        'rd_head_q': _ring('read-set list heads, the intake\'s copy'),
        'wr_head_q': _ring('write-set list heads, the intake\'s copy'),
        **{f'u_rdh_{w}.mem': _ring('read-set list heads, a walker\'s copy', True)
           for w in ('r', 'rn', 'p', 'f', 'fn')},
        **{f'u_wrh_{w}.mem': _ring('write-set list heads, a walker\'s copy', True)
           for w in ('r', 'rn', 'c', 'cn', 'f', 'fn')},
        'u_raf.mem': _ring('retire pointer at the entry\'s first message'),
        'u_src_p.mem': _ring('reply route, the pass pointer\'s copy'),
        'u_src_r.mem': _ring('reply route, the retire pointer\'s copy', True),
        'u_conf.mem': _ring('conflict flag and youngest conflicting writer'),
        'u_lwh.u_table.mem': LWH_TABLE,
        **_recency('u_lwh.u_bf.', 'lwh', f'{LWH}, {LWH_FILTER}'),
    },
    # WarpTM's intra-warp conflict detection (with early conflict resolution's Early-Abort).
    'htm_intra_warp_cd': {
        'gen_bank[*].u_owner.mem': Role(RAM, 'owner', 'intra-warp ownership table',
                                        'owner lane per entry, one RAM per bank'),
    },
    'htm_lds_bank': {
        'gen_lane[*].u_ram.mem': Role(RAM, 'lds', LDS, LDS_LANE),
    },
    'htm_lds_tm': {
        'gen_bank[*].u_bank.gen_lane[*].u_ram.mem': Role(RAM, 'lds', LDS, LDS_LANE),
    },
    'htm_lwh': {
        'u_table.mem': LWH_TABLE,
        **_recency('u_bf.', 'lwh', f'{LWH}, {LWH_FILTER}'),
    },
    'htm_sig_recency_ram': _recency('', 'recency_filter', RECENCY),
    'htm_tcd': _recency('u_bf.', 'tcd', TCD),
    # Snapshot isolation.
    'htm_postdate': {
        'u_cts_a.mem': Role(RAM, 'timestamps', LTT, 'commit timestamps, operand a\'s copy'),
        'u_cts_b.mem': Role(RAM, 'timestamps', LTT, 'commit timestamps, operand b\'s copy',
                            copy=True),
        'u_pd_a.mem': Role(RAM, 'timestamps', LTT,
                           'post-dated timestamps and their set flags, operand a\'s copy'),
        'u_pd_b.mem': Role(RAM, 'timestamps', LTT,
                           'post-dated timestamps and their set flags, operand b\'s copy',
                           copy=True),
        'u_pv.mem': Role(RAM, 'timestamps', LTT,
                         'previous timestamps and committed flags'),
    },
    'htm_reader_list': {
        'u_table.mem': Role(RAM, 'reader_list', 'Scalable Reader List',
                            'per set, ways of address, type and readers'),
    },
    'htm_writer_table': {
        'u_table.mem': Role(RAM, 'writer_table', 'Writer Table',
                            'per set, ways of address and writer'),
    },
    'htm_version_index': {
        'u_rows.mem': Role(RAM, 'versions', 'Version Index Table',
                           'version rows: per region, the versions\' creation times'),
        'scan_desc_mem': Role(RAM, 'versions', 'Version Index Table',
                              'region descriptors, the scan\'s copy (the regions are '
                              'flip-flops)', copy=True),
    },
    # Early conflict resolution: the Reference Count Table of a commit unit.
    'htm_rct': {
        'u_table.mem': Role(RAM, 'rct', 'Reference Count Table',
                            'per set, ways of address and reference count'),
    },
    # Primitives (in their own configurations; inside a block they take the block's role).
    'htm_fifo': {
        'mem_q': Role(RAM, 'fifo', 'FIFO storage (primitive)', 'the entries'),
    },
    'htm_ram_1r1w': {
        'mem': Role(RAM, 'ram', 'RAM (primitive, one read and one write port)', 'the words'),
    },
    'htm_ram_sp': {
        'mem': Role(RAM, 'ram', 'RAM (primitive, single port)', 'the words'),
    },
}

# The FPGA prototype's memory partition (docs/htm_sys_part.md): its slice of global memory, its
# reply queues, and the commit unit inside it with the commit unit's roles.
ROLES['htm_sys_part'] = {
    'u_mem.mem': Role(RAM, 'memory', 'global memory (FPGA prototype)', 'the partition\'s words'),
    'u_lq.mem_q': Role(RAM, 'replies', 'reply queues (FPGA prototype)', 'load values'),
    'u_aq.mem_q': Role(RAM, 'replies', 'reply queues (FPGA prototype)', 'Alloc replies'),
    'u_cq.mem_q': Role(RAM, 'replies', 'reply queues (FPGA prototype)',
                       'Pass, Fail and DoneCommit replies'),
    **{f'u_cu.{name}': role for name, role in ROLES['htm_commit_unit'].items()},
}

# The FPGA prototype's SIMT core (docs/htm_sys_core.md): per warp slot its read and write logs,
# the lanes' choices and registers (LUT RAM on the FPGA); the walker's commit ids.
_CORE = 'SIMT core state (FPGA prototype)'
ROLES['htm_sys_core'] = {
    'g_slot[*].rl_addr_q': Role(RAM, 'logs', 'read and write logs (FPGA prototype)',
                                'read log: addresses'),
    'g_slot[*].rl_val_q': Role(RAM, 'logs', 'read and write logs (FPGA prototype)',
                               'read log: values'),
    'g_slot[*].wl_addr_q': Role(RAM, 'logs', 'read and write logs (FPGA prototype)',
                                'write log: addresses'),
    'g_slot[*].wl_val_q': Role(RAM, 'logs', 'read and write logs (FPGA prototype)',
                               'write log: values'),
    **{f'g_slot[*].{r}_q': Role(RAM, 'lanes', _CORE, f'the lanes\' {what}')
       for r, what in (('c0', 'first choices'), ('c1', 'second choices'),
                       ('c2', 'third choices'), ('r0', 'register r0'), ('r1', 'register r1'),
                       ('r2', 'register r2'))},
    'cid_q': Role(RAM, 'lanes', _CORE, 'the walker\'s commit id per lane'),
}

# The prototype's run control (docs/htm_sys.md): the initialisation queue and the counters.
ROLES['htm_sys_run'] = {
    'u_queue.mem_q': Role(RAM, 'fifo', 'FIFO storage (primitive)', 'the initialisation queue'),
    'ctr_q': Role(RAM, 'counters', 'performance counters (FPGA prototype)', 'the counters'),
}

# The subsystem (docs/htm_sys.md): its blocks with their roles.
ROLES['htm_sys'] = {
    **{f'g_core[*].u_core.{n}': r for n, r in ROLES['htm_sys_core'].items()},
    **{f'g_part[*].u_part.{n}': r for n, r in ROLES['htm_sys_part'].items()},
    **{f'u_run.{n}': r for n, r in ROLES['htm_sys_run'].items()},
    'u_req_xbar.g_dst[*].u_fifo.mem_q': Role(RAM, 'fifo', 'FIFO storage (primitive)',
                                             'request crossbar queues'),
    'u_rep_xbar.g_dst[*].u_fifo.mem_q': Role(RAM, 'fifo', 'FIFO storage (primitive)',
                                             'reply crossbar queues'),
}

_INDEX = re.compile(r'\[\d+\]')


def pattern_of(memory: str) -> str:
    """A memory's name with its generate indices as [*] (gen_bank[3].u_ram.mem ->
    gen_bank[*].u_ram.mem): the form ROLES uses."""
    return _INDEX.sub('[*]', memory)


def role_of(top: str, memory: str) -> Role | None:
    return ROLES.get(top, {}).get(pattern_of(memory))


def check_table() -> list[str]:
    """Malformed entries of ROLES (an empty list when the table is sound)."""
    bad = []
    for top, table in ROLES.items():
        for name, role in table.items():
            where = f'{top}: {name}'
            if role.kind not in (RAM, CAM):
                bad.append(f'{where}: kind {role.kind!r} is neither RAM nor CAM')
            if not (role.key and role.structure and role.part):
                bad.append(f'{where}: key, structure and part must all be given')
            if pattern_of(name) != name:
                bad.append(f'{where}: write generate indices as [*]')
    return bad
