#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of area/activity.py (switching activity from waves) and area/power.py (OpenSTA).

Run from the repository root:
  HTM_OSU018_LIB=... python3 -m unittest discover -s area/tests -v
Environment:
  HTM_OSU018_LIB  the OSU 0.18 um liberty (tools/setup.sh --print-area: osu018/osu018_stdcells.lib)
  HTM_STA         OpenSTA's sta (default: sta on PATH; Debian's opensta)
The power tests are skipped, saying why, without the liberty or sta; the activity tests and
the missing-sta test need nothing.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'area'))
import activity  # noqa: E402

ACTIVITY = os.path.join(ROOT, 'area', 'activity.py')
POWER = os.path.join(ROOT, 'area', 'power.py')
OSU = os.environ.get('HTM_OSU018_LIB', '')
STA = os.environ.get('HTM_STA') or shutil.which('sta') or ''

# Four clock cycles (rising edges at 5, 15, 25, 35). In scope blk: the inputs a_i (1 bit) and
# b_ni (2 bits), the state x_q (3 bits) and mem[0] (2 bits), an output y_o, an internal w;
# TOP's own copy of a_i (the same identifier) must count once.
VCD = """$timescale 1ns $end
$scope module TOP $end
$var wire 1 ! clk_i $end
$var wire 1 " a_i $end
$scope module blk $end
$var parameter 32 ( P [31:0] $end
$var wire 1 ! clk_i $end
$var wire 1 " a_i $end
$var wire 2 # b_ni [1:0] $end
$var logic 3 $ x_q [2:0] $end
$var wire 1 % y_o $end
$var logic 1 & w $end
$scope module mem $end
$var logic 2 ' mem[0] [1:0] $end
$upscope $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
$dumpvars
0!
0"
b00 #
b000 $
0%
x&
b00 '
b101 (
$end
#5
1!
1"
b11 #
#10
0!
b10 #
b111 $
1&
#15
1!
0"
b1 '
#20
0!
b0 #
1%
#25
1!
b110 $
0&
#30
0!
#35
1!
"""


class ActivityTest(unittest.TestCase):
    def test_hand_written_vcd(self):
        r = activity.finish(activity.measure(VCD.splitlines(True), 'blk'), 4)
        self.assertEqual(r['ticks'], 4)
        # a_i: 0->1->0 = 2; b_ni: 00->11->10->00 = 2 + 1 + 1 = 4; over 3 bits and 4 cycles.
        self.assertEqual((r['input_bits'], r['input_toggles']), (3, 6))
        self.assertAlmostEqual(r['input_activity'], 6 / 12)
        # x_q: 000->111->110 = 3 + 1; mem[0]: 00->01 = 1; 5 bits.
        self.assertEqual((r['state_bits'], r['state_toggles']), (5, 5))
        self.assertAlmostEqual(r['state_activity'], 5 / 20)
        # All but the clock and the parameter: inputs 6, state 5, y_o 1, w 1 (x->1 is none).
        self.assertEqual((r['all_bits'], r['all_toggles']), (10, 13))
        self.assertEqual(r['inputs'], {'a_i': {'bits': 1, 'toggles': 2, 'activity': 0.5},
                                       'b_ni': {'bits': 2, 'toggles': 4, 'activity': 0.5}})

    def test_cli_and_netlist_inputs(self):
        with tempfile.TemporaryDirectory() as d:
            vcd = os.path.join(d, 'w.vcd')
            with open(vcd, 'w') as f:
                f.write(VCD)
            net = os.path.join(d, 'n.v')
            with open(net, 'w') as f:
                f.write('module htm_macro_0 (A);\n  input [0:0] A;\nendmodule\n'
                        'module blk(clk_i, a_i, b_ni, y_o);\n  input clk_i;\n  wire w;\n'
                        '  input a_i;\n  input [1:0] b_ni;\n  output y_o;\nendmodule\n')
            self.assertEqual(activity.netlist_inputs(net), ['clk_i', 'a_i', 'b_ni'])
            out = os.path.join(d, 'a.json')
            r = subprocess.run([sys.executable, ACTIVITY, '--vcd', vcd, '--top', 'blk',
                                '--netlist', net, '--out', out], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                self.assertAlmostEqual(json.load(f)['input_activity'], 0.5)
            r = subprocess.run([sys.executable, ACTIVITY, '--vcd', vcd, '--top', 'nosuch',
                                '--out', out], capture_output=True, text=True)
            self.assertEqual(r.returncode, 1)
            self.assertIn('no scope named nosuch', r.stderr)
            self.assertNotIn('Traceback', r.stderr)
            self.assertFalse(os.path.exists(out))

    def test_toggles_with_x(self):
        self.assertEqual(activity._toggles('0101', '1100'), 2)
        self.assertEqual(activity._toggles('1', '0110'), 3)  # '1' extends to 0001
        self.assertEqual(activity._toggles('x01', '110'), 2)  # the x bit is no transition
        self.assertEqual(activity._toggles('z', '0000'), 0)


# Two flip-flops in a row and an inverter: all its power follows the input's activity.
NETLIST = """module tiny (clk_i, d_i, q_o);
  input clk_i;
  input d_i;
  output q_o;
  wire q1, q2;
  DFFPOSX1 f1 (.CLK(clk_i), .D(d_i), .Q(q1));
  DFFPOSX1 f2 (.CLK(clk_i), .D(q1), .Q(q2));
  INVX1 i1 (.A(q2), .Y(q_o));
endmodule
"""


def run_power(sta, d, act, extra=()):
    net = os.path.join(d, 'tiny.v')
    with open(net, 'w') as f:
        f.write(NETLIST)
    out = os.path.join(d, f'p{act}.json')
    r = subprocess.run([sys.executable, POWER, '--sta', sta, '--liberty', OSU or 'x.lib',
                        '--netlist', net, '--top', 'tiny', '--clock-mhz', '100', '--activity',
                        str(act), '--out', out, *extra], capture_output=True, text=True)
    return r, out


def need_power_tools():
    if not STA:
        raise unittest.SkipTest('no OpenSTA sta (set HTM_STA or install opensta)')
    if not os.path.isfile(OSU):
        raise unittest.SkipTest('no OSU 0.18 um liberty (set HTM_OSU018_LIB)')


def power_cli(netlist, out, *args):
    return subprocess.run([sys.executable, POWER, '--sta', STA, '--liberty', OSU, '--netlist',
                           netlist, '--top', 'tiny', '--clock-mhz', '100', '--out', out, *args],
                          capture_output=True, text=True)


class PowerTest(unittest.TestCase):
    def test_power_grows_with_activity(self):
        need_power_tools()
        res = {}
        with tempfile.TemporaryDirectory() as d:
            for act in (0.0, 0.1, 0.4):
                r, out = run_power(STA, d, act)
                self.assertEqual(r.returncode, 0, r.stderr)
                with open(out) as f:
                    res[act] = json.load(f)
        for p in res.values():
            self.assertGreater(p['total_mw'], 0)  # the clock alone draws power
            self.assertAlmostEqual(p['total_mw'], p['internal_mw'] + p['switching_mw'] +
                                   p['leakage_mw'], delta=1e-4 * p['total_mw'])
            self.assertEqual(p['clock_port'], 'clk_i')
        self.assertEqual(res[0.0]['switching_mw'], 0)
        self.assertLess(res[0.0]['total_mw'], res[0.1]['total_mw'])
        self.assertLess(res[0.1]['total_mw'], res[0.4]['total_mw'])
        self.assertLess(res[0.1]['switching_mw'], res[0.4]['switching_mw'])
        self.assertGreater(res[0.1]['worst_path_ns'], 0)

    def test_per_port(self):
        """Each input port at its own rate: the one data input at 0 leaves only the clock's
        power, as a mean activity of 0 does."""
        need_power_tools()
        with tempfile.TemporaryDirectory() as d:
            act = os.path.join(d, 'act.json')
            with open(act, 'w') as f:
                json.dump({'input_activity': 0.4, 'all_activity': 0.25, 'source': {'from': 'test'},
                           'inputs': {'d_i': {'bits': 1, 'toggles': 0, 'activity': 0.0}}}, f)
            r, out = run_power(STA, d, 0.0)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                zero = json.load(f)
            r, out = run_power(STA, d, 0.4)
            with open(out) as f:
                mean = json.load(f)
            r = power_cli(os.path.join(d, 'tiny.v'), out, '--activity-json', act, '--per-port')
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                per_port = json.load(f)
            r = power_cli(os.path.join(d, 'tiny.v'), out, '--activity-json', act, '--scope',
                          'global')
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                self.assertEqual(json.load(f)['activity'], 0.25)  # all signals' rate
        self.assertEqual(per_port['activity_per_port'], {'d_i': 0.0})
        self.assertEqual(per_port['activity_source'], {'from': 'test'})
        self.assertAlmostEqual(per_port['total_mw'], zero['total_mw'], places=6)
        self.assertGreater(mean['total_mw'], per_port['total_mw'])

    def test_missing_sta(self):
        with tempfile.TemporaryDirectory() as d:
            r, out = run_power(os.path.join(d, 'no-sta-here'), d, 0.1)
            self.assertEqual(r.returncode, 1)
            self.assertIn("power: tiny: OpenSTA's sta not found", r.stderr)
            self.assertIn('opensta', r.stderr)
            self.assertNotIn('Traceback', r.stderr)
            self.assertFalse(os.path.exists(out))

    def test_bad_netlist(self):
        need_power_tools()
        with tempfile.TemporaryDirectory() as d:
            net = os.path.join(d, 'bad.v')
            with open(net, 'w') as f:
                f.write(NETLIST.replace('INVX1', 'NOSUCHCELL'))
            out = os.path.join(d, 'p.json')
            r = power_cli(net, out, '--activity', '0.1')
            self.assertEqual(r.returncode, 1, r.stdout)
            self.assertIn('power: tiny:', r.stderr)
            self.assertNotIn('Traceback', r.stderr)
            self.assertFalse(os.path.exists(out))


if __name__ == '__main__':
    unittest.main()
