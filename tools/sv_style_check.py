#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks SystemVerilog sources against the project's style and Yosys-subset rules.

Usage: sv_style_check.py FILE.sv|FILE.svh [...]

Prints every violation as `path:line: [rule-id] message`, then the summary line
`sv_style_check: N files, M violations`. Exit status: 0 clean, 1 violations, 2 usage error
(no files, a missing/unreadable file, or a file that is not .sv/.svh).

Text rules (applied to the raw file):
  ascii              the file is ASCII only.
  tabs               no tab characters.
  trailing-ws        no trailing whitespace (a CR of a CRLF line ending counts).
  line-length        at most 100 columns per line.
  final-newline      the file ends with exactly one newline (none missing, no trailing blank lines).

Language rules (applied after comments and string literals are blanked out; line numbers kept):
  one-module         a .sv file holds at most one module or package, named like the file stem;
                     a .svh include file holds no module or package at all.
  prefix             module and package names start with `htm_`.
  ports              every ANSI port name (input/output/inout declarations in the module's
                     port list) ends in `_i`, `_o`, `_ni` or `_no`.
  no-import          no `import` statements; use qualified names (htm_pkg::x).
  no-define          no `define outside a directory named `include`.
  no-return          no `return` inside a function (Yosys subset: assign to the function name).
  no-assign-pattern  no assignment patterns `'{...}`.
  no-tick-one-param  no parameter/localparam whose value is `'1` (Yosys makes it 1); use {W{1'b1}}.
  no-struct-array    no packed or unpacked array of a struct typedef. Struct typedefs
                     (`typedef struct packed {...} name_t;`) are collected from ALL files given on
                     the command line first; then `[pkg::]name_t [..] x` and `[pkg::]name_t x [..]`
                     are flagged.
  no-member-of-index no field select on an indexed element, `a[i].f` (Yosys makes an implicit wire).
  unsupported        no `inside`, `foreach`, `interface`, `modport` or `bind`, and no
                     multi-dimensional packed declaration such as `logic [3:0][7:0] x`.
  always-ff          no blocking assignment (`=`, `+=`, ...) in an always_ff body; the `=` of a
                     `for (...)` loop header is allowed.
  unique-case-default every case/casez/casex (unique or not) has a `default` item.
  no-initial         no `initial` outside directories named `formal`, unless inside an
                     `ifdef FORMAL region (bodies of `define macros are not checked).
  no-x-assign        no X literals ('x, 'X, 1'bx, 4'b10x1, 8'hxx, ...).

Code inside `ifdef FORMAL ... `endif is checked by every rule except no-initial.

Waiver: a line containing `// sv-style: allow <rule-id>` (several ids may be separated by commas
or spaces) waives those rules on that line only. Multi-line findings (e.g. a case without a
default) are reported on their first line (the `case` keyword), where the waiver goes.
"""
import bisect
import re
import sys
from pathlib import Path

MAX_COLUMNS = 100
PORT_SUFFIX_RE = re.compile(r"_(?:i|o|ni|no)$")
WAIVER_RE = re.compile(r"//\s*sv-style:\s*allow\s+([\w\-, ]+)")
STRIP_RE = re.compile(r'//[^\n]*|/\*.*?\*/|/\*.*|"(?:\\.|[^"\\\n])*"?', re.S)
TOKEN_RE = re.compile(r"""
  (?P<ws>\s+)
| (?P<num>(?:\d[\d_]*\s*)?'[sS]?[bBoOdDhH]\s*[0-9a-fA-FxXzZ?_]+
        | '[01xXzZ](?![\w'])
        | \d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)
| (?P<id>[A-Za-z_][\w$]*|\$[\w$]+|`\w+|\\[^\s\\]+)
| (?P<op><<<=|>>>=|===|!==|==\?|!=\?|<->|\|->|\|=>|<<=|>>=|<<<|>>>|->|::|<=|>=|==|!=|&&
        |\|\||\+=|-=|\*=|/=|%=|&=|\|=|\^=|\+\+|--|\*\*|<<|>>|~&|~\||~\^|\^~|\#\#|\+:|-:|.)
""", re.X | re.S)
IDENT_RE = re.compile(r"[A-Za-z_][\w$]*$")
KEYWORDS = set("""
always always_comb always_ff always_latch and assert assign assume automatic begin bind bit break
buf byte case casex casez const continue cover default defparam disable do else end endcase
endfunction endgenerate endinterface endmodule endpackage endtask enum export extern final for
foreach forever fork function generate genvar if iff import initial inout input inside int integer
interface join join_any join_none localparam logic longint macromodule modport module negedge
or output package packed parameter posedge priority property real ref reg repeat return shortint
signed static struct task time tri type typedef union unique unique0 unsigned var void wire while
""".split())
DIRECTIONS = {"input", "output", "inout", "ref"}
UNSUPPORTED = {"inside", "foreach", "interface", "modport", "bind"}
CASE_KEYWORDS = {"case", "casez", "casex"}
BLOCKING_OPS = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "<<<=", ">>>="}
NET_TYPES = {"logic", "bit", "reg", "wire", "var"}
OPENERS = {"(": ")", "[": "]", "{": "}"}


class Tok:
    __slots__ = ("text", "line")

    def __init__(self, text, line):
        self.text, self.line = text, line

    def is_ident(self):
        return bool(IDENT_RE.match(self.text)) and self.text not in KEYWORDS


class Source:
    """One input file: raw text, comment/string-free code, tokens and per-line facts."""

    def __init__(self, path, data):
        self.path = path
        self.data = data
        self.text = data.decode("utf-8", errors="replace")
        self.code = STRIP_RE.sub(_blank, self.text)
        self.suffix = Path(path).suffix
        self.stem = Path(path).stem
        parents = set(Path(path).resolve().parent.parts)
        self.in_include_dir = "include" in parents
        self.in_formal_dir = "formal" in parents
        self.tokens = tokenize(self.code)
        self.waivers = {}
        for num, line in enumerate(self.text.split("\n"), 1):
            m = WAIVER_RE.search(line)
            if m:
                self.waivers[num] = set(filter(None, re.split(r"[\s,]+", m.group(1))))
        self.formal_lines, self.define_lines = scan_preprocessor(self.code)


def _blank(m):
    s = m.group(0)
    if s.startswith('"'):
        inner = re.sub(r"[^\n]", " ", s[1:-1] if len(s) > 1 and s.endswith('"') else s[1:])
        return '"' + inner + ('"' if len(s) > 1 and s.endswith('"') else "")
    return re.sub(r"[^\n]", " ", s)


def tokenize(code):
    starts = [0] + [i + 1 for i, c in enumerate(code) if c == "\n"]
    toks = []
    for m in TOKEN_RE.finditer(code):
        if m.lastgroup != "ws":
            toks.append(Tok(m.group(0), bisect.bisect_right(starts, m.start())))
    return toks


def scan_preprocessor(code):
    """Returns (lines inside an `ifdef FORMAL region, lines belonging to a `define body)."""
    formal, defines, stack, continuing = set(), set(), [], False
    for num, line in enumerate(code.split("\n"), 1):
        if continuing or re.match(r"\s*`define\b", line):
            defines.add(num)
            continuing = line.rstrip().endswith("\\")
        m = re.match(r"\s*`(ifdef|ifndef|elsif|else|endif)\b\s*(\w*)", line)
        if m:
            kind, name = m.groups()
            if kind in ("ifdef", "ifndef"):
                stack.append([(kind == "ifdef") == (name == "FORMAL"), name == "FORMAL"])
            elif stack and kind == "elsif":
                stack[-1] = [name == "FORMAL", stack[-1][1] or name == "FORMAL"]
            elif stack and kind == "else":
                # `else of `ifdef FORMAL is not formal; of `ifndef FORMAL it is.
                stack[-1][0] = stack[-1][1] and not stack[-1][0]
            elif stack and kind == "endif":
                stack.pop()
        if any(frame[0] for frame in stack):
            formal.add(num)
    return formal, defines


def match_close(toks, i):
    """Index of the bracket closing toks[i] (or the last token if unbalanced)."""
    opener, closer, depth = toks[i].text, OPENERS[toks[i].text], 0
    for j in range(i, len(toks)):
        if toks[j].text == opener:
            depth += 1
        elif toks[j].text == closer:
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


def text_at(toks, i):
    return toks[i].text if 0 <= i < len(toks) else ""


# ---- Text rules ---------------------------------------------------------------------------------
def check_text(src, report):
    for num, raw in enumerate(src.data.split(b"\n"), 1):
        bad = next((col for col, b in enumerate(raw, 1) if b > 127), None)
        if bad:
            report(num, "ascii", f"non-ASCII byte at column {bad}")
    lines = src.text.split("\n")
    if src.text.endswith("\n"):
        lines.pop()
    for num, line in enumerate(lines, 1):
        if "\t" in line:
            report(num, "tabs", f"tab character at column {line.index(chr(9)) + 1}")
        if line != line.rstrip():
            what = "carriage return (CRLF line ending)" if line.endswith("\r") else "whitespace"
            report(num, "trailing-ws", f"trailing {what}")
        if len(line.rstrip("\r")) > MAX_COLUMNS:
            report(num, "line-length",
                   f"line is {len(line.rstrip(chr(13)))} columns (max {MAX_COLUMNS})")
    if not src.text:
        return
    if not src.text.endswith("\n"):
        report(len(lines), "final-newline", "missing newline at end of file")
        return
    body = src.text.rstrip(" \t\r\n")
    if src.text[len(body):].count("\n") > 1:
        report(body.count("\n") + 2, "final-newline", "trailing blank lines at end of file")


# ---- Design units and ports ---------------------------------------------------------------------
def check_units(src, report):
    toks, units = src.tokens, []
    for i, t in enumerate(toks):
        if t.text in ("module", "macromodule", "package"):
            j = i + 1
            while text_at(toks, j) in ("automatic", "static"):
                j += 1
            if j < len(toks) and toks[j].is_ident():
                units.append(("package" if t.text == "package" else "module", toks[j], j))
    for n, (kind, name, j) in enumerate(units):
        if src.suffix == ".svh":
            report(name.line, "one-module", f"include file declares {kind} {name.text}")
        elif n > 0:
            report(name.line, "one-module", f"second design unit ({kind} {name.text}) in file")
        elif name.text != src.stem:
            report(name.line, "one-module",
                   f"{kind} {name.text} does not match file name stem '{src.stem}'")
        if not name.text.startswith("htm_"):
            report(name.line, "prefix", f"{kind} name {name.text} does not start with htm_")
        if kind == "module":
            check_ports(toks, j + 1, report)


def check_ports(toks, j, report):
    while text_at(toks, j) == "import":
        while j < len(toks) and toks[j].text != ";":
            j += 1
        j += 1
    if text_at(toks, j) == "#" and text_at(toks, j + 1) == "(":
        j = match_close(toks, j + 1) + 1
    if text_at(toks, j) != "(":
        return
    end, items, cur, depth = match_close(toks, j), [], [], 0
    for t in toks[j + 1:end]:
        if t.text in OPENERS:
            depth += 1
        elif t.text in (")", "]", "}"):
            depth -= 1
        if t.text == "," and depth == 0:
            items.append(cur)
            cur = []
        else:
            cur.append(t)
    items.append(cur)
    in_ansi = False
    for item in items:
        item = drop_directives(item)
        if item and item[0].text in DIRECTIONS:
            in_ansi = True
        if not item or not in_ansi:
            continue
        name, depth = None, 0
        for t in item:
            if t.text in OPENERS:
                depth += 1
            elif t.text in (")", "]", "}"):
                depth -= 1
            elif depth == 0 and t.text == "=":
                break  # default value
            elif depth == 0 and IDENT_RE.match(t.text):
                name = t
        if name is not None and name.text not in KEYWORDS and not PORT_SUFFIX_RE.search(name.text):
            report(name.line, "ports",
                   f"port {name.text} must end in _i, _o, _ni or _no")


def drop_directives(item):
    """Removes `ifdef/`ifndef/`elsif NAME, `else and `endif tokens from a port-list item."""
    out, skip = [], False
    for t in item:
        if skip:
            skip = False
        elif t.text in ("`ifdef", "`ifndef", "`elsif"):
            skip = True
        elif t.text not in ("`else", "`endif"):
            out.append(t)
    return out


# ---- Simple token rules -------------------------------------------------------------------------
def check_keywords(src, report):
    toks = src.tokens
    for i, t in enumerate(toks):
        if t.text == "import":
            report(t.line, "no-import", "import statement; use qualified names (htm_pkg::x)")
        elif t.text == "`define" and not src.in_include_dir:
            report(t.line, "no-define", "`define outside an include/ directory")
        elif t.text == "'" and text_at(toks, i + 1) == "{":
            report(t.line, "no-assign-pattern", "assignment pattern '{...} (not in Yosys subset)")
        elif t.text == "]" and text_at(toks, i + 1) == "." and toks[i + 2:i + 3] \
                and IDENT_RE.match(toks[i + 2].text):
            report(t.line, "no-member-of-index",
                   f"field select .{toks[i + 2].text} on an indexed element (Yosys makes an "
                   "implicit wire); copy the element into a struct temporary first")
        elif t.text in UNSUPPORTED:
            report(t.line, "unsupported", f"'{t.text}' is not supported (Yosys subset)")
        elif t.text in NET_TYPES:
            j = i + 1
            if text_at(toks, j) in ("signed", "unsigned"):
                j += 1
            if text_at(toks, j) == "[" and text_at(toks, match_close(toks, j) + 1) == "[":
                report(t.line, "unsupported",
                       "multi-dimensional packed declaration; use a flat vector")
        elif t.text == "initial" and not src.in_formal_dir and t.line not in src.formal_lines \
                and t.line not in src.define_lines:
            report(t.line, "no-initial", "initial block outside `ifdef FORMAL")
        elif t.text.startswith("'") or re.match(r"\d[\d_]*\s*'", t.text):
            m = re.match(r"(?:\d[\d_]*\s*)?'[sS]?(?:[bBoOdDhH]\s*)?(.*)$", t.text)
            if "'" in t.text and m and "x" in m.group(1).lower():
                report(t.line, "no-x-assign", f"X literal {t.text}")


def check_return(src, report):
    depth, prev = 0, ""
    for t in src.tokens:
        if t.text == "function" and prev not in ("import", "export", "extern", "pure"):
            depth += 1
        elif t.text == "endfunction":
            depth = max(0, depth - 1)
        elif t.text == "return" and depth > 0:
            report(t.line, "no-return", "return in a function; assign to the function name")
        prev = t.text


def check_tick_one_param(src, report):
    toks, depth, active = src.tokens, 0, False
    for i, t in enumerate(toks):
        if t.text in ("localparam", "parameter"):
            active, depth = True, 0
        elif not active:
            continue
        elif t.text in OPENERS:
            depth += 1
        elif t.text in (")", "]", "}"):
            depth -= 1
            active = depth >= 0
        elif t.text == ";":
            active = False
        elif t.text == "=" and depth == 0 and text_at(toks, i + 1) == "'1" \
                and text_at(toks, i + 2) in (";", ",", ")"):
            report(t.line, "no-tick-one-param",
                   "parameter value '1 evaluates to 1 in Yosys; write {W{1'b1}}")


# ---- Struct arrays ------------------------------------------------------------------------------
def collect_structs(src):
    toks, names = src.tokens, set()
    for i, t in enumerate(toks):
        if t.text == "typedef" and text_at(toks, i + 1) == "struct":
            j = i + 2
            while j < len(toks) and toks[j].text != "{" and j < i + 6:
                j += 1
            if text_at(toks, j) == "{":
                k = match_close(toks, j) + 1
                if k < len(toks) and toks[k].is_ident():
                    names.add(toks[k].text)
    return names


def check_struct_arrays(src, structs, report):
    toks = src.tokens
    for i, t in enumerate(toks):
        if t.text not in structs or text_at(toks, i - 1) in ("}", "."):
            continue
        nxt = text_at(toks, i + 1)
        is_packed = nxt == "["
        is_unpacked = i + 2 < len(toks) and toks[i + 1].is_ident() and text_at(toks, i + 2) == "["
        if is_packed or is_unpacked:
            report(t.line, "no-struct-array",
                   f"{'packed' if is_packed else 'unpacked'} array of struct type {t.text}: "
                   "store as a plain vector typedef and copy into a struct temporary")


# ---- always_ff bodies ---------------------------------------------------------------------------
def statement_end(toks, i):
    """Index of the last token of the statement starting at toks[i]."""
    n = len(toks)
    while i < n and toks[i].text in ("unique", "unique0", "priority"):
        i += 1
    if i >= n:
        return n - 1
    t = toks[i].text
    if t in ("begin", "fork"):
        depth = 0
        for j in range(i, n):
            if toks[j].text in ("begin", "fork"):
                depth += 1
            elif toks[j].text in ("end", "join", "join_any", "join_none"):
                depth -= 1
                if depth == 0:
                    return j
        return n - 1
    if t in CASE_KEYWORDS:
        depth = 0
        for j in range(i, n):
            if toks[j].text in CASE_KEYWORDS:
                depth += 1
            elif toks[j].text == "endcase":
                depth -= 1
                if depth == 0:
                    return j
        return n - 1
    if t in ("if", "for", "while", "repeat", "foreach") and text_at(toks, i + 1) == "(":
        end = statement_end(toks, match_close(toks, i + 1) + 1)
        if t == "if" and text_at(toks, end + 1) == "else":
            end = statement_end(toks, end + 2)
        return end
    if t in ("forever", "else"):
        return statement_end(toks, i + 1)
    depth = 0
    for j in range(i, n):
        if toks[j].text in OPENERS:
            depth += 1
        elif toks[j].text in (")", "]", "}"):
            depth -= 1
        elif toks[j].text == ";" and depth <= 0:
            return j
    return n - 1


def check_always_ff(src, report):
    toks = src.tokens
    for i, t in enumerate(toks):
        if t.text != "always_ff":
            continue
        j = i + 1
        if text_at(toks, j) == "@":
            j += 1
            j = match_close(toks, j) + 1 if text_at(toks, j) == "(" else j + 1
        end, k = statement_end(toks, j), j
        while k <= end:
            if toks[k].text == "for" and text_at(toks, k + 1) == "(":
                k = match_close(toks, k + 1)
            elif toks[k].text in BLOCKING_OPS:
                report(toks[k].line, "always-ff",
                       f"blocking assignment '{toks[k].text}' in always_ff; use '<='")
            k += 1


def check_case_default(src, report):
    toks, stack = src.tokens, []
    for i, t in enumerate(toks):
        if t.text in CASE_KEYWORDS:
            qualifier = text_at(toks, i - 1)
            kind = f"{qualifier} {t.text}" if qualifier in ("unique", "unique0", "priority") \
                else t.text
            stack.append([t, False, kind])
        elif t.text == "default" and stack \
                and text_at(toks, i + 1) not in ("disable", "clocking"):
            stack[-1][1] = True
        elif t.text == "endcase" and stack:
            case_tok, has_default, kind = stack.pop()
            if not has_default:
                report(case_tok.line, "unique-case-default", f"{kind} without a default item")


# ---- Driver -------------------------------------------------------------------------------------
LANGUAGE_CHECKS = (check_units, check_keywords, check_return, check_tick_one_param,
                   check_always_ff, check_case_default)


def check_file(src, structs):
    found = []

    def report(line, rule, message):
        if rule not in src.waivers.get(line, ()):
            found.append((line, rule, message))

    check_text(src, report)
    for check in LANGUAGE_CHECKS:
        check(src, report)
    check_struct_arrays(src, structs, report)
    return sorted(set(found), key=lambda f: (f[0], f[1], f[2]))


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        stream = sys.stdout if argv else sys.stderr
        print("usage: sv_style_check.py FILE.sv|FILE.svh [...]", file=stream)
        return 0 if argv else 2
    sources = []
    for path in argv:
        if Path(path).suffix not in (".sv", ".svh"):
            print(f"sv_style_check: {path}: not a .sv or .svh file", file=sys.stderr)
            return 2
        try:
            sources.append(Source(path, Path(path).read_bytes()))
        except OSError as err:
            print(f"sv_style_check: {path}: cannot read: {err.strerror}", file=sys.stderr)
            return 2
    structs = set().union(*(collect_structs(src) for src in sources))
    total = 0
    for src in sources:
        for line, rule, message in check_file(src, structs):
            print(f"{src.path}:{line}: [{rule}] {message}")
            total += 1
    print(f"sv_style_check: {len(sources)} files, {total} violations")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
