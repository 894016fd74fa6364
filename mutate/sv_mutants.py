#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Source-level mutants of one SystemVerilog block, and the instrumented copy that holds them all.

A mutant is one small edit of the block's source file, of the kinds a designer gets wrong:

  rel     a comparison changed (< <=, > >=, == !=, in both directions)
  logic   && <-> ||, binary & <-> |, + <-> -
  not     a ! or ~ dropped, or a whole if-condition negated
  term    one term of a top-level && / || chain dropped (taken as true / false)
  const   a literal off by one (N -> N+1, N-1), 1'b0 <-> 1'b1, '0 <-> '1
  stuck   the right-hand side of an assignment stuck at '0 or '1 (a reset value, a default,
          an enable, a next-state term)

Sites are the right-hand sides of `assign` and procedural assignments, if-conditions and
`return` expressions of the module body. Not mutated: declarations and their initial values,
parameters, the module header, instance connections, index and part-select expressions (a
mutated constant index would not be constant), casts' widths, case labels, for-loop headers and
the project's assertion macros.

The instrumented copy holds every mutant behind a selector, so that one build serves them all:
each mutated site becomes `(HtmMutSel == K1 ? (mutant 1) : HtmMutSel == K2 ? ... : (original))`.
With HTM_MUT_SEL defined (Yosys: proofs of one mutant) the selector is a localparam and each
mutant is elaborated on its own. With HTM_MUT_NETLIST (Yosys: the netlist of every mutant,
mutate/mutant_netlist.py) it is an undriven wire that the synthesis script makes a top-level
input, so that one netlist holds every mutant; that copy (--netlist-out) leaves out the
mutants of an asynchronous reset's condition, which a netlist cannot hold behind a selector.
Otherwise (Verilator) it is read once at start-up through the DPI function
htm_mutant_sel(block) (mutate/mutant_dpi.cc: $HTM_MUTANT), and 0 means the original design.

  sv_mutants.py list <file.sv> --block B [--json out.json]
  sv_mutants.py instrument <file.sv> --block B --out <copy.sv> [--netlist-out <copy.sv>]
                [--json out.json]
"""
import argparse
import hashlib
import json
import os
import re
import sys

TOKEN_RE = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\])*")
  | (?P<based>(?:\d[\d_]*)?\s*'[sS]?[bBoOdDhH]\s*[0-9a-fA-FxXzZ?_]+)
  | (?P<fill>'[01xXzZ](?![\w']))
  | (?P<number>\d[\d_]*(?:\.\d+)?)
  | (?P<directive>`[A-Za-z_]\w*)
  | (?P<ident>[A-Za-z_$][\w$]*)
  | (?P<op><<<=|>>>=|<<<|>>>|===|!==|==\?|!=\?|<<=|>>=|==|!=|<=|>=|&&|\|\||<<|>>|->|::|\+:|-:|
            ~&|~\||~\^|\^~|\+\+|--|\+=|-=|\*=|/=|&=|\|=|\^=|'\{|\*\*|.)
""", re.X | re.S)

# Statement-level keywords after which scanning simply goes on.
PASS_KW = {'begin', 'end', 'else', 'unique', 'unique0', 'priority', 'always_comb', 'always_latch',
           'endcase', 'endfunction', 'endgenerate', 'generate', 'endmodule', 'default',
           'final', 'fork', 'join', 'endtask'}
# Keywords that open a declaration or a construct skipped up to its ';'.
DECL_KW = {'localparam', 'parameter', 'typedef', 'logic', 'bit', 'int', 'integer', 'genvar',
           'wire', 'reg', 'import', 'byte', 'shortint', 'longint', 'struct', 'enum', 'string',
           'automatic', 'static', 'const', 'var', 'task', 'function', 'input', 'output',
           'inout'}
REL_SWAP = {'<': '<=', '<=': '<', '>': '>=', '>=': '>', '==': '!=', '!=': '=='}
LOGIC_SWAP = {'&&': '||', '||': '&&', '&': '|', '|': '&', '+': '-', '-': '+'}


class Tok:
    __slots__ = ('kind', 'text', 'pos', 'line')

    def __init__(self, kind, text, pos, line):
        self.kind, self.text, self.pos, self.line = kind, text, pos, line

    def __repr__(self):
        return f'{self.kind}:{self.text}@{self.line}'


def tokenize(src):
    toks = []
    pos = 0
    line = 1
    while pos < len(src):
        m = TOKEN_RE.match(src, pos)
        if not m:
            raise ValueError(f'line {line}: cannot tokenize {src[pos:pos + 20]!r}')
        kind = m.lastgroup
        text = m.group()
        if kind not in ('ws', 'comment'):
            toks.append(Tok(kind, text, pos, line))
        line += text.count('\n')
        pos = m.end()
    return toks


def match_close(toks, i):
    """Index of the token closing the bracket at toks[i]."""
    pairs = {'(': ')', '[': ']', '{': '}', "'{": '}'}
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j].text
        if t in pairs:
            depth += 1
        elif t in (')', ']', '}'):
            depth -= 1
            if depth == 0:
                return j
    raise ValueError(f'line {toks[i].line}: unbalanced {toks[i].text}')


def skip_to_semicolon(toks, i):
    """Index of the ';' ending the statement that starts at i (brackets balanced)."""
    j = i
    while j < len(toks):
        t = toks[j].text
        if t in ('(', '[', '{', "'{"):
            j = match_close(toks, j) + 1
            continue
        if t == ';':
            return j
        j += 1
    raise ValueError(f'line {toks[i].line}: no ; after {toks[i].text}')


def const_functions(toks):
    """Functions called in parameter or localparam expressions (kept intact: a constant function
    cannot read the run-time selector)."""
    names = set()
    funcs = set()
    for i, t in enumerate(toks):
        if t.text == 'function':
            j = i + 1
            while j < len(toks) and toks[j].text != '(' and toks[j].text != ';':
                j += 1
            funcs.add(toks[j - 1].text)
    for i, t in enumerate(toks):
        if t.text in ('localparam', 'parameter'):
            end = skip_to_semicolon(toks, i) if t.text == 'localparam' else i + 40
            for k in range(i, min(end, len(toks))):
                if toks[k].text in funcs:
                    names.add(toks[k].text)
    return names


def procedural(toks):
    """proc[i]: toks[i] is inside an always/initial/final block or a function (elsewhere an `if`
    is a generate if, whose condition must stay constant)."""
    n = len(toks)
    proc = [False] * n
    i = 0
    while i < n:
        x = toks[i].text
        if x == 'function':
            end = next(k for k in range(i, n) if toks[k].text == 'endfunction')
            for k in range(i, end + 1):
                proc[k] = True
            i = end + 1
            continue
        if x in ('always_comb', 'always_ff', 'always', 'always_latch', 'initial', 'final'):
            j = i + 1
            if j < n and toks[j].text == '@':
                j = match_close(toks, j + 1) + 1
            if j < n and toks[j].text == 'begin':
                depth = 0
                end = j
                for k in range(j, n):
                    if toks[k].text in ('begin', 'fork'):
                        depth += 1
                    elif toks[k].text in ('end', 'join', 'join_any', 'join_none'):
                        depth -= 1
                        if depth == 0:
                            end = k
                            break
            else:
                end = skip_to_semicolon(toks, j)
                while end + 1 < n and toks[end + 1].text == 'else':
                    end = skip_to_semicolon(toks, end + 2)
            for k in range(i, end + 1):
                proc[k] = True
            i = end + 1
            continue
        i += 1
    return proc


def unpacked_arrays(toks):
    """Names declared with an unpacked dimension (`logic [3:0] name [N];`): a whole-array
    assignment has no '0 / '1 form."""
    names = set()
    n = len(toks)
    starts = [0] + [k + 1 for k, t in enumerate(toks) if t.text == ';']
    for s0 in starts:
        if s0 + 1 >= n:
            continue
        first, second = toks[s0], toks[s0 + 1]
        if not (first.text in DECL_KW or (first.kind == 'ident' and second.kind == 'ident')):
            continue
        k = s0
        while k + 1 < n and toks[k].text != ';':
            if (toks[k].kind == 'ident' and toks[k + 1].text == '[' and k > s0
                    and (toks[k - 1].kind == 'ident' or toks[k - 1].text in (']', ','))):
                names.add(toks[k].text)
            k += 1
    return names


def is_lint_sink(name):
    """A signal named unused_* exists only to consume otherwise unread bits for the linter
    (the lint-waiver convention of the RTL); it has no fan-out, so every mutant of its
    right-hand side is equivalent by construction and none is generated."""
    return name.startswith('unused_')


def find_sites(toks):
    """The mutable extents: (kind, first token index, last token index, whole-array) of the
    module body."""
    sites = []
    proc = procedural(toks)
    arrays = unpacked_arrays(toks)
    # The body starts after the header's ');' (the first ';' after 'module').
    start = next(i for i, t in enumerate(toks) if t.text == 'module')
    j = start
    while toks[j].text != ';':
        if toks[j].text in ('(', '[', '{', "'{"):
            j = match_close(toks, j)
        j += 1
    body_start = j + 1
    skip_funcs = const_functions(toks)
    i = body_start
    n = len(toks)
    while i < n:
        t = toks[i]
        x = t.text
        if t.kind == 'directive':
            # The project's macros (assertions) with their arguments; `ifdef X and friends.
            if i + 1 < n and toks[i + 1].text == '(':
                i = match_close(toks, i + 1) + 1
            elif x in ('`ifdef', '`ifndef', '`elsif', '`define', '`include', '`undef'):
                i += 2
            else:
                i += 1
            continue
        if x == 'function':
            name_end = i + 1
            while toks[name_end].text not in ('(', ';'):
                name_end += 1
            fname = toks[name_end - 1].text
            hdr_end = skip_to_semicolon(toks, i)
            if fname in skip_funcs:
                i = next(k for k in range(hdr_end, n) if toks[k].text == 'endfunction') + 1
            else:
                i = hdr_end + 1
            continue
        if x in DECL_KW:
            i = skip_to_semicolon(toks, i) + 1
            continue
        if x == 'assign':
            eq = i + 1
            while toks[eq].text != '=':
                if toks[eq].text in ('[', '{', '('):
                    eq = match_close(toks, eq)
                eq += 1
            end = skip_to_semicolon(toks, eq)
            whole = toks[i + 1].text in arrays and toks[i + 2].text == '='
            if not is_lint_sink(toks[i + 1].text):
                sites.append(('assign', eq + 1, end - 1, whole))
            i = end + 1
            continue
        if x == 'if' and i + 1 < n and toks[i + 1].text == '(':
            close = match_close(toks, i + 1)
            if proc[i]:
                sites.append(('cond', i + 2, close - 1, False))
            i = close + 1
            continue
        if x in ('case', 'casez', 'casex', 'for', 'while', 'foreach', 'repeat') or x == '@':
            if i + 1 < n and toks[i + 1].text == '(':
                i = match_close(toks, i + 1) + 1
            else:
                i += 1
            continue
        if x in ('always_ff', 'always', 'initial'):
            i += 1
            continue
        if x == 'return':
            end = skip_to_semicolon(toks, i)
            if end > i + 1:
                sites.append(('return', i + 1, end - 1, False))
            i = end + 1
            continue
        if t.kind == 'ident' and not x.startswith('$') and x not in PASS_KW:
            # An assignment `lhs = rhs;` / `lhs <= rhs;`, else a declaration, an instance, a
            # case label or a call: skipped.
            j = i + 1
            while j < n:
                y = toks[j].text
                if y in ('[', '{'):
                    j = match_close(toks, j) + 1
                elif y == '.' or (toks[j].kind == 'ident' and toks[j - 1].text == '.'):
                    j += 1
                else:
                    break
            if j < n and toks[j].text in ('=', '<='):
                end = skip_to_semicolon(toks, j)
                if proc[i] and not is_lint_sink(x):
                    sites.append(('assign', j + 1, end - 1, x in arrays and j == i + 1))
                i = end + 1
                continue
            if j < n and toks[j].text == ':':
                i = j + 1  # a case label
                continue
            if j < n and toks[j].text in (',',) :
                i = skip_to_semicolon(toks, i) + 1  # a label list or a declaration
                continue
            if j < n and (toks[j].kind == 'ident' or toks[j].text in ('#', '(')):
                i = skip_to_semicolon(toks, i) + 1  # a declaration, an instance, a call
                continue
            i += 1
            continue
        if t.kind == 'ident' and x.startswith('$'):
            i = skip_to_semicolon(toks, i) + 1
            continue
        i += 1
    return sites


def is_operand_end(tok):
    return tok.kind in ('ident', 'number', 'based', 'fill') or tok.text in (')', ']', '}')


def extent_mutants(toks, kind, a, b, whole=False):
    """Mutants of the extent toks[a..b]: a list of (op, replacement token texts of the extent)."""
    texts = [t.text for t in toks[a:b + 1]]
    out = []
    # Positions inside [] (indices, part selects), '{} and after a width cast are not mutated.
    frozen = [False] * len(texts)
    k = 0
    while k < len(texts):
        if texts[k] in ('[', "'{"):
            close = match_close(toks, a + k) - a
            for q in range(k, close + 1):
                frozen[q] = True
            k = close + 1
            continue
        k += 1
    for k, tx in enumerate(texts):
        if frozen[k]:
            continue
        tok = toks[a + k]
        prev = toks[a + k - 1] if k > 0 else None
        nxt = texts[k + 1] if k + 1 < len(texts) else None
        binary = prev is not None and is_operand_end(prev)
        if tx in REL_SWAP and binary:
            out.append(('rel', k, REL_SWAP[tx]))
        elif tx in LOGIC_SWAP and binary:
            out.append(('logic', k, LOGIC_SWAP[tx]))
        elif tx in ('!', '~') and not binary:
            out.append(('not', k, ''))
        elif tok.kind == 'fill' and tx in ("'0", "'1"):
            out.append(('const', k, "'1" if tx == "'0" else "'0"))
        elif tok.kind == 'based':
            m = re.fullmatch(r"(\d+)'([sS]?)([bBdDhH])([0-9a-fA-F_]+)", tx.replace(' ', ''))
            if m and '_' not in m.group(4):
                width, sgn, base, digits = m.groups()
                radix = {'b': 2, 'd': 10, 'h': 16}[base.lower()]
                val = int(digits, radix)
                if width == '1':
                    out.append(('const', k, f"1'{sgn}{base}{1 - val}"))
                else:
                    fmt = {2: 'b', 10: 'd', 16: 'x'}[radix]
                    mask = (1 << int(width)) - 1
                    out.append(('const', k, f"{width}'{sgn}{base}{format((val + 1) & mask, fmt)}"))
                    if val > 0:
                        out.append(('const', k, f"{width}'{sgn}{base}{format(val - 1, fmt)}"))
        elif tok.kind == 'number' and '.' not in tx and nxt != "'":
            val = int(tx.replace('_', ''))
            out.append(('const', k, str(val + 1)))
            if val > 0:
                out.append(('const', k, str(val - 1)))
    muts = []
    for op, k, rep in out:
        new = list(texts)
        new[k] = rep
        muts.append((op, new))
    # Top-level && / || chains: drop one term (taken as 1'b1 in an && chain, 1'b0 in an ||).
    depth = 0
    splits = []
    for k, tx in enumerate(texts):
        if tx in ('(', '[', '{', "'{"):
            depth += 1
        elif tx in (')', ']', '}'):
            depth -= 1
        elif depth == 0 and tx in ('&&', '||'):
            splits.append(k)
        elif depth == 0 and tx in ('?', ':'):
            splits = None
            break
    if splits:
        ops = {texts[k] for k in splits}
        if len(ops) == 1:
            neutral = "1'b1" if ops == {'&&'} else "1'b0"
            bounds = [-1] + splits + [len(texts)]
            for s in range(len(bounds) - 1):
                new = list(texts)
                for q in range(bounds[s] + 1, bounds[s + 1]):
                    new[q] = ''
                new[bounds[s] + 1] = neutral
                muts.append(('term', new))
    single_literal = len(texts) == 1 and toks[a].kind in ('based', 'fill', 'number')
    if kind == 'cond':
        if not (len(texts) == 2 and texts[0] == '!'):  # `!x` negated is the dropped `!`
            muts.append(('not', ['!('] + texts + [')']))
    elif kind == 'assign' and not whole and not single_literal:  # a literal has its const
        for v in ("'0", "'1"):
            if texts != [v]:
                muts.append(('stuck', [v]))
    return muts


def render(texts):
    out = ''
    for tx in texts:
        if not tx:
            continue
        if tx == "'" or tx == "'{" or (out and out[-1] == "'"):
            pass  # a cast or an assignment pattern: no space around the apostrophe
        elif out and (out[-1].isalnum() or out[-1] in "_$") and (tx[0].isalnum() or tx[0] in "_$'"):
            out += ' '
        elif (out and tx not in (')', ']', ',', ';', '[') and out[-1] not in '(['
              and not (tx == '(' and (out[-1].isalnum() or out[-1] in "_$'"))):
            out += ' '
        out += tx
    return out


def mutants(src, block, path):
    toks = tokenize(src)
    lines = src.split('\n')
    result = []
    seen = set()
    key_count = {}
    for kind, a, b, whole in find_sites(toks):
        if b < a:
            continue
        orig = render([t.text for t in toks[a:b + 1]])
        for op, new in extent_mutants(toks, kind, a, b, whole):
            mut = render(new)
            if mut == orig or (a, mut) in seen:
                continue
            seen.add((a, mut))
            line = toks[a].line
            key_src = f'{op}|{lines[line - 1].strip()}|{orig}|{mut}'
            # The same mutation of a line whose text recurs in the file: the n-th repeat
            # (n > 0, in file order) gets a key of its own, the first keeps the plain one.
            repeat = key_count.get(key_src, 0)
            key_count[key_src] = repeat + 1
            if repeat:
                key_src += f'|{repeat}'
            result.append({
                'id': len(result) + 1, 'block': block, 'file': path, 'line': line,
                'op': op, 'site': kind, 'source': lines[line - 1].strip(),
                'original': orig, 'mutant': mut,
                'key': hashlib.sha1(key_src.encode()).hexdigest()[:12],
                # A mutant of an asynchronous reset's condition cannot sit behind a
                # run-time selector in a netlist (the flip-flops' reset would no longer be a
                # signal): the netlist category does not run it.
                'netlist': not (kind == 'cond' and re.search(r'\brst_ni\b', orig)),
                '_a': a, '_b': b})
    return toks, result


def instrument(src, block, path, netlist=False):
    """The instrumented copy; with netlist, the copy that Yosys synthesizes with the selector
    as an input, without the mutants a netlist cannot hold ('netlist': False)."""
    toks, muts = mutants(src, block, path)
    by_site = {}
    for m in muts:
        if netlist and not m['netlist']:
            continue
        by_site.setdefault((m['_a'], m['_b']), []).append(m)
    # Splice from the end so that earlier offsets stay valid.
    out = src
    for (a, b), ms in sorted(by_site.items(), key=lambda kv: -kv[0][0]):
        start = toks[a].pos
        end = toks[b].pos + len(toks[b].text)
        orig = src[start:end]
        expr = ''.join(f"HtmMutSel == 32'd{m['id']} ? ({m['mutant']}) : " for m in ms)
        out = out[:start] + f'({expr}({orig}))' + out[end:]
    # The selector, declared at the top of the module body.
    j = next(i for i, t in enumerate(toks) if t.text == 'module')
    while toks[j].text != ';':
        if toks[j].text in ('(', '[', '{', "'{"):
            j = match_close(toks, j)
        j += 1
    decl = (f"\n  // Mutation selector (mutate/sv_mutants.py): 0 is the original design.\n"
            f"`ifdef HTM_MUT_SEL\n"
            f"  localparam int unsigned HtmMutSel = `HTM_MUT_SEL;\n"
            f"`elsif HTM_MUT_NETLIST\n"
            f"  logic [31:0] HtmMutSel;  // undriven: the netlist flow makes it an input\n"
            f"`else\n"
            f"  import \"DPI-C\" function int unsigned htm_mutant_sel(input string block);\n"
            f"  int unsigned HtmMutSel;\n"
            f"  initial HtmMutSel = htm_mutant_sel(\"{block}\");\n"
            f"`endif\n")
    # Offsets after the header are unchanged only if no site precedes it (none can).
    hdr_end = toks[j].pos + 1
    out = out[:hdr_end] + decl + out[hdr_end:]
    return out, muts


def public(muts):
    return [{k: v for k, v in m.items() if not k.startswith('_')} for m in muts]


def write_if_changed(path, text):
    """Writes path unless it holds text already: an unchanged copy keeps its time stamp, so
    the build (Ninja's restat) does not redo the models that read it."""
    try:
        if open(path).read() == text:
            return
    except OSError:
        pass
    with open(path + '.tmp', 'w') as f:
        f.write(text)
    os.replace(path + '.tmp', path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('cmd', choices=['list', 'instrument'])
    ap.add_argument('file')
    ap.add_argument('--block', required=True)
    ap.add_argument('--path', help='the file as named in reports (default: as given)')
    ap.add_argument('--out', help='instrumented copy (instrument)')
    ap.add_argument('--netlist-out',
                    help='the copy for the netlist of every mutant (instrument)')
    ap.add_argument('--json', help='the mutants as JSON')
    a = ap.parse_args()
    try:
        src = open(a.file).read()
    except OSError as e:
        print(f'sv_mutants: {e}', file=sys.stderr)
        return 2
    path = a.path or a.file
    try:
        if a.cmd == 'instrument':
            if not a.out:
                print('sv_mutants: instrument needs --out', file=sys.stderr)
                return 2
            outs = [(a.out, False)] + ([(a.netlist_out, True)] if a.netlist_out else [])
            for out, net in outs:
                text, muts = instrument(src, a.block, path, netlist=net)
                write_if_changed(out, text)
        else:
            _, muts = mutants(src, a.block, path)
    except (ValueError, StopIteration) as e:
        print(f'sv_mutants: {a.file}: cannot parse: {e}', file=sys.stderr)
        return 1
    if a.json:
        write_if_changed(a.json, json.dumps(public(muts), indent=1))
    if a.cmd == 'list' and not a.json:
        for m in muts:
            print(f"{m['id']:5d} {path}:{m['line']} {m['op']:6s} {m['original']}  ->  {m['mutant']}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
