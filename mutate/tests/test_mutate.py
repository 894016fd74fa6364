# SPDX-License-Identifier: Apache-2.0
"""Tests of the mutation flow's tools: the generator's sites and operators, the instrumented
copy, the report's triage reader and the runner's usage errors."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import equiv_check  # noqa: E402
import merge_results  # noqa: E402
import mutant_netlist  # noqa: E402
import report  # noqa: E402
import sv_mutants  # noqa: E402

SRC = r"""
module htm_demo #(
  parameter int unsigned Depth = 4,
  localparam int unsigned W = $clog2(Depth + 1)
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         a_i,
  input  logic [W-1:0] b_i,
  output logic         y_o,
  output logic [W-1:0] z_o
);
  logic [W-1:0] q_d, q_q;
  logic [W-1:0] arr_q [Depth];
  if (Depth > 1) begin : gen_more
    assign z_o = q_q;
  end else begin : gen_one
    assign z_o = '0;
  end
  assign y_o = a_i && (b_i < W'(3)) && !rst_ni;
  always_comb begin
    q_d = q_q;
    if (a_i) q_d = q_q + 1'b1;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q_q <= '0;
    end else begin
      q_q <= q_d;
      arr_q <= arr_q;
      arr_q[b_i] <= q_d;
    end
  end
  `HTM_ASSERT(Never_A, q_q <= 5)
endmodule
"""


class Generator(unittest.TestCase):
    def setUp(self):
        _, self.muts = sv_mutants.mutants(SRC, 'htm_demo', 'rtl/htm_demo.sv')

    def find(self, op, original, mutant):
        return [m for m in self.muts if m['op'] == op and m['original'] == original
                and m['mutant'] == mutant]

    def test_operators(self):
        rhs = "a_i && (b_i < W'(3)) && ! rst_ni"
        self.assertTrue(self.find('rel', rhs, "a_i && (b_i <= W'(3)) && ! rst_ni"))
        self.assertTrue(self.find('logic', rhs, "a_i || (b_i < W'(3)) && ! rst_ni"))
        self.assertTrue(self.find('not', rhs, "a_i && (b_i < W'(3)) && rst_ni"))
        self.assertTrue(self.find('term', rhs, "1'b1 && (b_i < W'(3)) && ! rst_ni"))
        self.assertTrue(self.find('const', rhs, "a_i && (b_i < W'(4)) && ! rst_ni"))
        self.assertTrue(self.find('stuck', 'q_q + 1\'b1', "'1"))
        self.assertTrue(self.find('const', "'0", "'1"))
        self.assertTrue(self.find('not', 'a_i', '!(a_i)'))

    def test_excluded(self):
        lines = {m['line'] for m in self.muts}
        src = SRC.split('\n')
        # Generate-if conditions, declarations, assertion macros, the header: never.
        for i, text in enumerate(src, 1):
            if ('Depth > 1' in text or 'HTM_ASSERT' in text or 'localparam' in text
                    or 'logic [W-1:0] q_d' in text):
                self.assertNotIn(i, lines, text)
        # A whole unpacked array gets no '0 / '1, an element does.
        self.assertFalse([m for m in self.muts if m['source'].startswith('arr_q <= arr_q')])
        self.assertTrue([m for m in self.muts if m['source'].startswith('arr_q[b_i]')])
        # Nothing inside an index.
        self.assertFalse([m for m in self.muts if '[' in m['original'] and
                          m['original'].split('[')[1] != m['mutant'].split('[')[-1:][0]
                          and m['op'] != 'stuck'])

    def test_keys_stable_and_unique(self):
        keys = [m['key'] for m in self.muts]
        self.assertEqual(len(keys), len(set(keys)))
        shifted = '// a comment line\n' + SRC
        _, again = sv_mutants.mutants(shifted, 'htm_demo', 'rtl/htm_demo.sv')
        self.assertEqual(keys, [m['key'] for m in again])

    def test_repeated_line_keys(self):
        # Two lines with the same text: their mutants differ in key, and the first keeps the
        # key it would have alone.
        src = ("module m (input logic a_i, input logic b_i, output logic x_o);\n"
               "  always_comb begin\n    x_o = a_i && b_i;\n    if (b_i) begin\n"
               "      x_o = a_i && b_i;\n    end\n  end\nendmodule\n")
        _, muts = sv_mutants.mutants(src, 'm', 'm.sv')
        keys = [m['key'] for m in muts]
        self.assertEqual(len(keys), len(set(keys)))
        self.assertTrue([m for m in muts if m['line'] == 5])
        _, alone = sv_mutants.mutants(src.replace("      x_o = a_i && b_i;\n", ''), 'm', 'm.sv')
        self.assertEqual([m['key'] for m in alone if m['line'] == 3],
                         [m['key'] for m in muts if m['line'] == 3])

    def test_instrumented(self):
        text, muts = sv_mutants.instrument(SRC, 'htm_demo', 'rtl/htm_demo.sv')
        for m in muts:
            self.assertEqual(text.count(f"HtmMutSel == 32'd{m['id']} ?"), 1)
        self.assertIn('htm_mutant_sel("htm_demo")', text)
        self.assertIn('`ifdef HTM_MUT_SEL', text)
        # The selector is declared after the header, before the first use.
        self.assertLess(text.index('int unsigned HtmMutSel;'), text.index("32'd1 ?"))

    def test_netlist_copy(self):
        # The asynchronous reset's condition is mutated in the RTL copy only: a netlist cannot
        # hold it behind a run-time selector.
        text, muts = sv_mutants.instrument(SRC, 'htm_demo', 'rtl/htm_demo.sv')
        net, _ = sv_mutants.instrument(SRC, 'htm_demo', 'rtl/htm_demo.sv', netlist=True)
        arst = [m for m in muts if not m['netlist']]
        self.assertTrue(arst)
        self.assertTrue(all('rst_ni' in m['original'] and m['site'] == 'cond' for m in arst))
        for m in muts:
            sel = f"HtmMutSel == 32'd{m['id']} ?"
            self.assertEqual(net.count(sel), 1 if m['netlist'] else 0, m)
            self.assertEqual(text.count(sel), 1)
        self.assertIn('`elsif HTM_MUT_NETLIST', net)

    def test_unparsable(self):
        with self.assertRaises(ValueError):
            sv_mutants.mutants('module m (input a;\n  assign x = (a;\nendmodule\n', 'm', 'm.sv')


class NetlistAndMerge(unittest.TestCase):
    NET = ("module htm_demo(clk_i, a_i, HtmMutSel, y_o);\n  input clk_i;\n  wire clk_i;\n"
           "  input [31:0] HtmMutSel;\n  wire [31:0] HtmMutSel;\n  input a_i;\n"
           "  output y_o;\n  assign y_o = a_i & HtmMutSel[3];\nendmodule\n")

    def test_selector_becomes_dpi(self):
        out = mutant_netlist.rewrite(self.NET, 'htm_demo')
        self.assertIn('module htm_demo(clk_i, a_i, y_o);', out)
        self.assertIn('initial HtmMutSel = htm_mutant_sel("htm_demo");', out)
        self.assertNotIn('input [31:0] HtmMutSel', out)
        self.assertNotIn('wire [31:0] HtmMutSel', out)
        with self.assertRaises(ValueError):
            mutant_netlist.rewrite(out, 'htm_demo')  # no selector input left

    @staticmethod
    def doc(results, seed=1):
        muts = [{'id': i, 'key': f'k{i}', 'results': r,
                 'killed_by': [c for c, v in r.items() if v['status'] != 'survived']}
                for i, r in results.items()]
        cats = sorted({c for r in results.values() for c in r})
        return {'summary': {'block': 'htm_demo', 'generated': 5, 'seed': seed, 'run': len(muts),
                            'categories': cats}, 'mutants': muts}

    def test_merge(self):
        k, s = {'status': 'killed'}, {'status': 'survived'}
        a = self.doc({1: {'lockstep': k}, 2: {'lockstep': s}})
        b = self.doc({2: {'netlist': k}, 3: {'netlist': s}})
        d = merge_results.merge([a, b])['summary']
        self.assertEqual((d['run'], d['killed']), (3, 2))
        self.assertEqual(d['killed_by'], {'lockstep': 1, 'netlist': 1})
        self.assertEqual(d['ran'], {'lockstep': 2, 'netlist': 2})
        with self.assertRaises(ValueError):
            merge_results.merge([a, self.doc({1: {'lockstep': k}}, seed=2)])
        d = merge_results.merge([a, b], only_with='lockstep')['summary']
        self.assertEqual((d['run'], d['killed'], d['ran']), (2, 2, {'lockstep': 2, 'netlist': 1}))


class Triage(unittest.TestCase):
    def test_reads_and_rejects(self):
        with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
            f.write('# comment\nabc123 equivalent the bit is never read\n'
                    'def456 gap CommitUnitDirected.PassAfterFail\n')
        self.assertEqual(report.read_triage(f.name)['abc123'][0], 'equivalent')
        with open(f.name, 'a') as g:
            g.write('xyz maybe something\n')
        with self.assertRaises(ValueError):
            report.read_triage(f.name)
        os.unlink(f.name)

    def test_directory_per_block(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'htm_a.txt'), 'w') as f:
                f.write('abc123 equivalent the bit is never read\n')
            with open(os.path.join(d, 'htm_b.txt'), 'w') as f:
                f.write('abc123 gap BDirected.Case\n')
            self.assertEqual(report.triage_of(d, 'htm_a')['abc123'][0], 'equivalent')
            self.assertEqual(report.triage_of(d, 'htm_b')['abc123'][0], 'gap')
            self.assertEqual(report.triage_of(d, 'htm_c'), {})
            with open(os.path.join(d, 'htm_b.txt'), 'a') as f:
                f.write('abc123 gap again\n')
            with self.assertRaises(ValueError):
                report.triage_of(d, 'htm_b')

    def test_equiv_verdicts(self):
        quals = {'out_valid': [], 'out_data': ['out_valid']}
        self.assertEqual(equiv_check.verdict('Induction step proven: SUCCESS!', quals)[0], 'proved')
        self.assertEqual(equiv_check.verdict(
            'Reached maximum number of time steps -> proof failed.', quals)[0], 'bounded')
        # A failed induction step's table (from an arbitrary state) comes before the verdict and
        # is not the counterexample; the table after it is.
        cex = ('Induction step failed.\n'
               '     2 \\trigger          1         1        1\n'
               'SAT temporal induction proof finished - model found for base case: FAIL!\n'
               '     1 \\gold_out_valid_o 0         0        0\n'
               '     1 \\gate_out_valid_o 0         0        0\n'
               '     1 \\trigger          0         0        0\n'
               '     3 \\gold_out_valid_o 1         1        1\n'
               '     3 \\gate_out_valid_o 1         1        1\n'
               '     3 \\gold_out_data_o  5         5      101\n'
               '     3 \\gate_out_data_o  4         4      100\n'
               '     3 \\trigger          1         1        1\n')
        self.assertEqual(equiv_check.verdict(cex, quals),
                         ('differs', 'cycle 2 after reset: out_data_o gold 5 gate 4'))
        self.assertEqual(equiv_check.verdict('ERROR: syntax', quals)[0], 'error')

    def test_equiv_qualifiers_and_wrapper(self):
        with tempfile.NamedTemporaryFile('w', suffix='.def', delete=False) as f:
            f.write('HTM_IN(a, 1)\nHTM_OUT(v, 1, true)\nHTM_OUT(d, 8, o.v)\n'
                    'HTM_OUT_VEC(e, p.n, 4,\n            o.v && ((o.k >> e) & 1))\n'
                    'HTM_MODEL_OUT(k)\n')
        quals = equiv_check.qualifiers(f.name)
        os.unlink(f.name)
        self.assertEqual(quals, {'v': [], 'd': ['v'], 'e': ['v']})
        ports = {'in_a_i': ('input', 1), 'gold_v_o': ('output', 1), 'gate_v_o': ('output', 1),
                 'gold_d_o': ('output', 8), 'gate_d_o': ('output', 8),
                 'gold_e_o': ('output', 8), 'gate_e_o': ('output', 8), 'trigger': ('output', 1)}
        text = equiv_check.wrapper(ports, quals)
        self.assertIn('(gold_v_o && gold_d_o != gate_d_o)', text)
        self.assertIn('(gold_v_o != gate_v_o)', text)
        with self.assertRaises(ValueError):
            equiv_check.wrapper({**ports, 'gold_z_o': ('output', 1)}, quals)

    def test_wilson(self):
        lo, hi = report.wilson(38, 40)
        self.assertLess(lo, 0.95)
        self.assertGreater(hi, 0.95)
        self.assertEqual(report.wilson(0, 0), (0.0, 1.0))


class RunnerUsage(unittest.TestCase):
    def run_tool(self, *args):
        return subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE),
                                                            'run_mutants.py'), *args],
                              capture_output=True, text=True)

    def test_bad_category_and_block(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, 'gen', 'mutate'))
            with open(os.path.join(d, 'gen', 'mutate', 'htm_x.json'), 'w') as f:
                json.dump([], f)
            r = self.run_tool('--build', d, '--binary', '/bin/true', '--block', 'htm_x',
                              '--categories', 'lockstep,wishful', '--out', d)
            self.assertEqual(r.returncode, 2)
            self.assertIn('unknown category wishful', r.stderr)
            r = self.run_tool('--build', d, '--binary', '/bin/true', '--block', 'htm_nope',
                              '--out', d)
            self.assertEqual(r.returncode, 2)
            self.assertIn('no mutants of htm_nope (blocks: htm_x)', r.stderr)
            r = self.run_tool('--build', d, '--binary', '/bin/true', '--block', 'htm_x',
                              '--sample', 'many', '--out', d)
            self.assertEqual(r.returncode, 2)
            self.assertIn('--sample must be', r.stderr)

    def test_report_without_results(self):
        with tempfile.TemporaryDirectory() as d:
            r = subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE), 'report.py'),
                                '--results', os.path.join(d, 'none'), '--out', d],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 2)
            self.assertIn('no results', r.stderr)


if __name__ == '__main__':
    unittest.main()
