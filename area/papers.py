#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The papers' own area, power and storage figures, as data, with the structure each paper
describes (entries x bits where the paper gives them), for the comparisons of the area report
(area/report.py). Every figure cites its paper by the short form of docs/references.md.

Each structure says which of our blocks (and which of that block's arrays, by role) it is
compared with, so that the report can put three figures side by side: the paper's, CACTI's on
the paper's own organisation, and CACTI's on our RTL's arrays at the same capacity.
"""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PaperArray:
    """A storage structure as a paper sizes it."""
    key: str
    name: str                    # the paper's name for it
    source: str                  # short citation with table/slide
    kbytes: float                # the paper's stated capacity (kB = 1024 bytes)
    entries: int | None = None   # the paper's organisation, where it gives one
    width: int | None = None     # bits per entry
    area_mm2: float | None = None
    power_mw: float | None = None
    block: str | None = None     # our block, default configuration
    roles: tuple = ()            # our arrays' roles that make up the structure
    note: str = ''


KILO = 'Fung et al., MICRO 2011 (slides, "Implementation Complexity")'
SI = 'Chen, Peng & Irving, ISCA 2017, Table 1 and Section 4.3'
ECR = 'Chen & Peng, HPCA 2016, Table 1'

# KILO TM: per commit unit (one per memory partition), CACTI 5.3 at 40 nm, 0.40 mm2 per
# partition for the three together, x 6 partitions = 0.5 % of a 520 mm2 GPU. The slides give
# capacities only, no organisation.
KILO_PARTITION_MM2 = 0.40
KILO_PARTITIONS = 6
KILO_GPU_MM2 = 520.0
KILO_ARRAYS = (
    PaperArray('kilo_lwh', 'Last Writer History', KILO, 5, block='htm_commit_unit',
               roles=('lwh',)),
    PaperArray('kilo_status', 'transaction status', KILO, 19, block='htm_commit_unit',
               roles=('ring',)),
    PaperArray('kilo_rwbuf', 'read-set and write-set buffer', KILO, 32, block='htm_commit_unit',
               roles=('buffer',)),
)

# Snapshot isolation, Table 1 (CACTI, 40 nm) with the entry layouts of Section 4.3. The
# paper's "Power" column does not say at what access rate; the report states ours.
SI_ARRAYS = (
    PaperArray('si_wt', 'Writer Table', SI, 15, entries=3000, width=40, area_mm2=0.12,
               power_mw=31.5, block='htm_writer_table', roles=('writer_table',),
               note='3000 entries of 30-bit block address + 10-bit writer id'),
    PaperArray('si_ltt', 'Logical Timestamp Table', SI, 12, entries=1024, width=72,
               area_mm2=0.01, power_mw=37.8, block='htm_postdate', roles=('timestamps',),
               note='1024 transactions x three 24-bit logical timestamps'),
    PaperArray('si_vit', 'Version Index Table', SI, 1, entries=42, width=193, area_mm2=0.005,
               power_mw=3.2, block='htm_version_index', roles=('versions',),
               note='42 regions of 2 x 30-bit addresses, 5-bit size, 8 x 32-bit creation times'),
    PaperArray('si_srl', 'Scalable Reader List', SI, 740, entries=87856, width=69,
               area_mm2=5.0, power_mw=2330, block='htm_reader_list', roles=('reader_list',),
               note='87 856 entries of 30-bit address, 2 type bits, 37 content bits'),
)
# The commit units' clock of the snapshot-isolation paper's machine (Table 2), at which the
# report gives a table's dynamic power for one access per cycle.
SI_TABLE_CLOCK_MHZ = 700

# Early conflict resolution, Table 1: capacities (no area or power given).
ECR_ARRAYS = (
    PaperArray('ecr_cat', 'Conflict Address Table (per SIMT core)', ECR, 12, entries=3072,
               width=32, block='htm_cat', roles=('cat',)),
    PaperArray('ecr_rct', 'Reference Count Table (per commit unit)', ECR, 15, entries=3072,
               width=40, block='htm_rct', roles=('rct',)),
)


@dataclass(frozen=True)
class LocalTmShare:
    """A storage share of GPU-LocalTM (Villegas's thesis, Section 5.3 "Storage overhead" and
    Table 5.6): how much of a resource of the compute unit one transactional work-group takes."""
    key: str
    name: str
    paper_percent: float
    paper_text: str


LOCALTM_SOURCE = "Villegas, PhD thesis, 2018, Section 5.3 and Table 5.6"
# The compute unit of the thesis's Table 5.6 (AMD Southern Islands on Multi2Sim 4.2).
LOCALTM_LDS_BYTES = 64 * 1024
LOCALTM_SCALAR_REGS = 2048
LOCALTM_VECTOR_REGS = 65536
LOCALTM_SHARES = (
    LocalTmShare('shadow', 'shadow area of the LDS (per work-group)', 56.0,
                 '29,127 bytes of user data + 29,127 backup + 7,282 owner bytes'),
    LocalTmShare('scalar', 'scalar registers (sWOsig + TCMs)', 7.0,
                 '128 sWOsig + 8 TCM registers of 2,048'),
    LocalTmShare('vector_dcd', 'vector registers, DCD (pRWsig + state bits)', 3.5,
                 '2,048 pRWsig + 228 state-bit registers of 65,536'),
    LocalTmShare('vector_smdcd', 'vector registers, SMDCD (pRWsig + state bits)', 3.8,
                 '2,048 pRWsig + 456 state-bit registers of 65,536'),
)
