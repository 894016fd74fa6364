#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns the netlist of every mutant of a block into a model with the block's own ports.

The mutation flow's netlist category (docs/verification.md, "Mutation") synthesizes the
block's instrumented copy (mutate/sv_mutants.py, HTM_MUT_NETLIST) with the mutation selector
HtmMutSel made a top-level input by Yosys (`expose -input`), so that one netlist holds every
mutant behind its multiplexers. This step rewrites that netlist in place: the selector leaves
the port list and is read once at start-up through the DPI function htm_mutant_sel(block), as
in the RTL models, so the netlist model has exactly the ports of the block's other models and
$HTM_MUTANT selects the mutant.

  mutant_netlist.py <netlist.v> --block B

Exit 0, or 1 when the netlist does not have the selector input exactly once.
"""
import argparse
import os
import re
import sys

SEL = 'HtmMutSel'


def rewrite(text, block):
    """The netlist with the selector input replaced by a DPI-initialised variable."""
    decl = re.compile(r'^(\s*)input (\[31:0\] )?' + SEL + r';\n', re.M)
    wire = re.compile(r'^\s*wire (\[31:0\] )?' + SEL + r';\n', re.M)
    if len(decl.findall(text)) != 1:
        raise ValueError(f'expected one "input [31:0] {SEL};", found {len(decl.findall(text))}')
    m = re.search(r'^module (\S+)\((.*?)\);', text, re.M | re.S)
    if not m:
        raise ValueError('no module header')
    ports = [p.strip() for p in m.group(2).split(',')]
    if SEL not in ports:
        raise ValueError(f'{SEL} is not a port of module {m.group(1)}')
    ports.remove(SEL)
    text = text[:m.start()] + f'module {m.group(1)}({", ".join(ports)});' + text[m.end():]
    indent = decl.search(text).group(1)
    text = decl.sub(
        f'{indent}// The mutation selector (mutate/mutant_netlist.py): $HTM_MUTANT, read once.\n'
        f'{indent}import "DPI-C" function int unsigned htm_mutant_sel(input string block);\n'
        f'{indent}reg [31:0] {SEL};\n'
        f'{indent}initial {SEL} = htm_mutant_sel("{block}");\n', text, count=1)
    return wire.sub('', text, count=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('netlist')
    ap.add_argument('--block', required=True)
    a = ap.parse_args()
    try:
        text = open(a.netlist).read()
        out = rewrite(text, a.block)
    except (OSError, ValueError) as e:
        print(f'mutant_netlist: {a.netlist}: {e}', file=sys.stderr)
        return 1
    with open(a.netlist + '.tmp', 'w') as f:
        f.write(out)
    os.replace(a.netlist + '.tmp', a.netlist)
    return 0


if __name__ == '__main__':
    sys.exit(main())
