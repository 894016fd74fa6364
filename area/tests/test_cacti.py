#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of area/cacti.py (CACTI 7 on one array) against the CACTI that tools/setup.sh builds.

Run from anywhere:

    python3 area/tests/test_cacti.py --cacti-dir "$(tools/setup.sh --print-area)/cacti"
    HTM_AREA_DIR="$(tools/setup.sh --print-area)" python3 area/tests/test_cacti.py

--cacti-dir is CACTI's directory; HTM_AREA_DIR is the area data directory that holds it (the
option wins). Other arguments go to unittest (-v, -k PATTERN). Without either the tests cannot
run: exit status 2. About 20 s (each CACTI run is a fraction of a second).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
AREA = os.path.dirname(HERE)
sys.path.insert(0, AREA)
import cacti  # noqa: E402
import memories  # noqa: E402

CACTI_DIR = None  # set by main()
CLI = os.path.join(AREA, 'cacti.py')


def ram(entries, width, name='test/ram', **kw):
    return cacti.Array(name, entries, width, **kw)


class Figures(unittest.TestCase):
    def test_ram_1024x32_at_40nm_is_plausible(self):
        # docs/area_power.md's first probe: 0.0116 mm2, 2.3 / 2.8 pJ, 4.8 mW, 0.25 ns.
        f = cacti.run(ram(1024, 32), 40, CACTI_DIR)
        self.assertEqual(f.node_nm, 40)
        self.assertGreater(f.area_mm2, 0.008)
        self.assertLess(f.area_mm2, 0.015)
        for v, lo, hi in ((f.read_pj, 1, 5), (f.write_pj, 1, 5), (f.leakage_mw, 1, 10),
                          (f.access_ns, 0.1, 0.5)):
            self.assertTrue(lo < v < hi, f'{v} outside {lo}..{hi} in {f}')
        self.assertIsNone(f.search_pj)

    def test_45nm_matches_the_reference_measurements(self):
        # The tools reference measured 1024 x 32 at 45 nm: 0.01320 mm2, 2.54 / 3.15 pJ,
        # 0.269 ns; a CAM of 64 x 32: 0.00401 mm2 and 4.93 pJ per search.
        f = cacti.run(ram(1024, 32), 45, CACTI_DIR)
        for v, want in ((f.area_mm2, 0.01320), (f.read_pj, 2.54), (f.write_pj, 3.15),
                        (f.access_ns, 0.269)):
            self.assertAlmostEqual(v / want, 1, delta=0.01, msg=str(f))
        c = cacti.run(ram(64, 32, rw_ports=1, search_ports=1), 45, CACTI_DIR)
        self.assertAlmostEqual(c.area_mm2 / 0.00401, 1, delta=0.01)
        self.assertAlmostEqual(c.search_pj / 4.93, 1, delta=0.01)

    def test_smaller_node_smaller_array(self):
        a40 = cacti.run(ram(1024, 120, rw_ports=0, rd_ports=1, wr_ports=1), 40, CACTI_DIR)
        a22 = cacti.run(ram(1024, 120, rw_ports=0, rd_ports=1, wr_ports=1), 22, CACTI_DIR)
        self.assertLess(a22.area_mm2, a40.area_mm2)
        self.assertLess(a22.read_pj, a40.read_pj)

    def test_more_ports_more_area(self):
        one = cacti.run(ram(1024, 32), 40, CACTI_DIR)
        two = cacti.run(ram(1024, 32, rw_ports=0, rd_ports=1, wr_ports=1), 40, CACTI_DIR)
        self.assertGreater(two.area_mm2, one.area_mm2)

    def test_banks_multiply_leakage(self):
        # CACTI reports leakage per bank; the figure is the whole array's.
        f = cacti.run(ram(4096, 32, banks=4), 40, CACTI_DIR)
        self.assertIn('-UCA bank count 4', f.cfg)
        one = cacti.run(ram(1024, 32), 40, CACTI_DIR)
        # Four banks of 1024 x 32 leak about four times one such array.
        self.assertAlmostEqual(f.leakage_mw / (4 * one.leakage_mw), 1, delta=0.15)


class Configuration(unittest.TestCase):
    def test_cfg_describes_the_array(self):
        f = cacti.run(ram(1024, 120, rw_ports=0, rd_ports=1, wr_ports=1), 40, CACTI_DIR)
        lines = f.cfg.splitlines()
        for want in ('-cache type "ram"', '-technology (u) 0.040', '-size (bytes) 15360',
                     '-block size (bytes) 15', '-output/input bus width 120',
                     '-read-write port 0', '-exclusive read port 1', '-exclusive write port 1',
                     '-UCA bank count 1', '-associativity 1',
                     '-Data array cell type - "itrs-hp"'):
            self.assertIn(want, lines)
        self.assertEqual(sum(ln.startswith('-size') for ln in lines), 1)
        self.assertTrue(f.cfg.endswith('\n'), 'CACTI ignores a last line without newline')

    def test_cam_cfg(self):
        f = cacti.run(ram(64, 40, rw_ports=1, search_ports=1), 40, CACTI_DIR)
        for want in ('-cache type "cam"', '-associativity 0', '-search port 1',
                     '-tag size (b) 40'):
            self.assertIn(want, f.cfg.splitlines())
        self.assertGreater(f.search_pj, 0)

    def test_bits_not_whole_bytes_per_entry(self):
        # 1024 x 12 bits is 1536 bytes, not 1024 entries of 2 bytes.
        f = cacti.run(ram(1024, 12), 40, CACTI_DIR)
        self.assertIn('-size (bytes) 1536', f.cfg.splitlines())

    def test_block_size_does_not_change_a_ram(self):
        # The mapping's premise: at a given capacity and bus width, CACTI's RAM figures do not
        # depend on the block size (it folds sets onto wordlines itself).
        exe = cacti.binary(CACTI_DIR)
        base = cacti.run(ram(1024, 32), 40, CACTI_DIR).cfg
        wide = base.replace('-block size (bytes) 4\n', '-block size (bytes) 32\n')
        self.assertNotEqual(base, wide)
        self.assertEqual(cacti.run_cfg(base, exe, 'block 4'), cacti.run_cfg(wide, exe, 'block 32'))

    def test_narrow_entries_share_a_bus_word(self):
        f = cacti.run(ram(4096, 1), 40, CACTI_DIR)
        lines = f.cfg.splitlines()
        self.assertIn('-output/input bus width 4', lines)
        self.assertIn('-size (bytes) 512', lines)

    def test_smallest_macros_are_modelled(self):
        # Every array memories.is_macro() accepts at its limits gets figures.
        for width in (4, 5, 8, 12, 16, 32, 69, 120, 193, 512, 2048):
            entries = max(memories.MIN_MACRO_ENTRIES, math.ceil(memories.MIN_MACRO_BITS / width))
            self.assertTrue(memories.is_macro(entries, width))
            for node in cacti.NODES:
                for ports in ({}, {'rw_ports': 0, 'rd_ports': 1, 'wr_ports': 1}):
                    with self.subTest(entries=entries, width=width, node=node, ports=ports):
                        cacti.run(ram(entries, width, **ports), node, CACTI_DIR)


class Refusals(unittest.TestCase):
    def test_too_few_rows_names_the_array(self):
        with self.assertRaises(cacti.CactiError) as cm:
            cacti.run(ram(16, 32, name='blk/cfg/tiny.mem'), 40, CACTI_DIR)
        msg = str(cm.exception)
        self.assertIn('blk/cfg/tiny.mem', msg)
        self.assertIn('no valid data array organizations', msg)

    def test_too_small_quotes_cacti(self):
        with self.assertRaises(cacti.CactiError) as cm:
            cacti.run(ram(4, 32, name='blk/cfg/four'), 40, CACTI_DIR)
        self.assertIn('blk/cfg/four', str(cm.exception))
        self.assertIn('Cache size must >=64', str(cm.exception))

    def test_banks_not_a_power_of_two(self):
        with self.assertRaises(cacti.CactiError) as cm:
            cacti.run(ram(4096, 32, name='three', banks=3), 40, CACTI_DIR)
        self.assertIn('power of 2', str(cm.exception))

    def test_no_ports(self):
        with self.assertRaisesRegex(cacti.CactiError, 'at least one port'):
            cacti.run(ram(1024, 32, rw_ports=0), 40, CACTI_DIR)

    def test_node_outside_cacti(self):
        with self.assertRaisesRegex(cacti.CactiError, '10 nm'):
            cacti.run(ram(1024, 32), 10, CACTI_DIR)


class Cache(unittest.TestCase):
    def test_cache_returns_identical_figures(self):
        with tempfile.TemporaryDirectory() as d:
            a = cacti.run(ram(2048, 40), 22, CACTI_DIR, d)
            files = os.listdir(d)
            self.assertEqual(len(files), 1)
            b = cacti.run(ram(2048, 40), 22, CACTI_DIR, d)
            self.assertEqual(a, b)
            self.assertEqual(os.listdir(d), files)

    def test_cache_is_read(self):
        with tempfile.TemporaryDirectory() as d:
            cacti.run(ram(2048, 40), 40, CACTI_DIR, d)
            path = os.path.join(d, os.listdir(d)[0])
            with open(path) as f:
                data = json.load(f)
            data['area_mm2'] = 123.0
            with open(path, 'w') as f:
                json.dump(data, f)
            self.assertEqual(cacti.run(ram(2048, 40), 40, CACTI_DIR, d).area_mm2, 123.0)
            # Another array or node is another entry.
            cacti.run(ram(2048, 40), 22, CACTI_DIR, d)
            self.assertEqual(len(os.listdir(d)), 2)

    def test_a_broken_entry_is_recomputed(self):
        with tempfile.TemporaryDirectory() as d:
            good = cacti.run(ram(2048, 40), 40, CACTI_DIR, d)
            path = os.path.join(d, os.listdir(d)[0])
            with open(path, 'w') as f:
                f.write('{')
            self.assertEqual(cacti.run(ram(2048, 40), 40, CACTI_DIR, d), good)


class Cli(unittest.TestCase):
    def cli(self, *args):
        return subprocess.run([sys.executable, CLI, '--cacti-dir', CACTI_DIR, *args],
                              capture_output=True, text=True)

    def test_prints_figures(self):
        p = self.cli('--node', '40', '--entries', '1024', '--width', '32', '--name', 'x')
        self.assertEqual(p.returncode, 0, p.stderr)
        d = json.loads(p.stdout)
        self.assertEqual(set(d), {'node_nm', 'area_mm2', 'read_pj', 'write_pj', 'search_pj',
                                  'leakage_mw', 'access_ns', 'cfg'})
        self.assertEqual(d['area_mm2'], cacti.run(ram(1024, 32), 40, CACTI_DIR).area_mm2)

    def test_cam(self):
        p = self.cli('--node', '22', '--entries', '64', '--width', '32', '--cam',
                     '--search-ports', '1')
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertGreater(json.loads(p.stdout)['search_pj'], 0)

    def test_refusal_exits_1(self):
        p = self.cli('--node', '40', '--entries', '16', '--width', '32', '--name', 'blk/c/m')
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stdout, '')
        self.assertTrue(p.stderr.startswith('cacti: blk/c/m'), p.stderr)
        self.assertNotIn('Traceback', p.stderr)

    def test_bad_input_exits_2(self):
        for args in (['--node', '40', '--entries', '0', '--width', '32'],
                     ['--node', '7', '--entries', '64', '--width', '32'],
                     ['--node', '40', '--entries', '64', '--width', 'wide'],
                     ['--node', '40', '--entries', '64', '--width', '32', '--cam'],
                     ['--node', '40', '--entries', '64', '--width', '32', '--search-ports', '1'],
                     ['--node', '40', '--width', '32']):
            with self.subTest(args=args):
                p = self.cli(*args)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertNotIn('Traceback', p.stderr)

    def test_missing_cacti_exits_2(self):
        p = subprocess.run([sys.executable, CLI, '--cacti-dir', '/nonexistent', '--node', '40',
                            '--entries', '64', '--width', '32'], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn('no executable CACTI', p.stderr)


def main():
    global CACTI_DIR
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], add_help=False)
    ap.add_argument('--cacti-dir')
    a, rest = ap.parse_known_args()
    CACTI_DIR = cacti.dir_from(a.cacti_dir)
    if not CACTI_DIR:
        print('test_cacti: give --cacti-dir DIR or set HTM_AREA_DIR (tools/setup.sh '
              '--print-area)', file=sys.stderr)
        return 2
    try:
        cacti.binary(CACTI_DIR)
    except FileNotFoundError as e:
        print(f'test_cacti: {e}', file=sys.stderr)
        return 2
    return 0 if unittest.main(argv=[sys.argv[0], *rest], exit=False).result.wasSuccessful() else 1


if __name__ == '__main__':
    sys.exit(main())
