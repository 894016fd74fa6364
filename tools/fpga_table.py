#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints the ECP5 figures of build/reports/{synth,fpga}/*.json as a Markdown table (the tables
in docs/ are pasted from it). Usage: fpga_table.py [build dir] [block ...]"""
import glob
import json
import os
import sys


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    blocks = set(sys.argv[2:])
    rows = {}
    for kind in ('synth', 'fpga'):
        for path in sorted(glob.glob(os.path.join(build, 'reports', kind, '*.json'))):
            with open(path) as f:
                r = json.load(f)
            if blocks and r['top'] not in blocks:
                continue
            rows.setdefault((r['top'], r['config']), {}).update(r)
    if not rows:
        print(f'fpga_table: no reports under {build}/reports (run make fpga)', file=sys.stderr)
        return 1
    print('| block / config | LUT4 | FF | DP16KD | DPR16X4 | CCU2C | Fmax (MHz) |')
    print('|---|---|---|---|---|---|---|')
    for (top, cfg), r in sorted(rows.items()):
        fmax = r.get('fmax_mhz')
        fmax = '–' if fmax is None else f'{fmax:.1f}'
        if r.get('fits_device') is False:
            fmax = 'does not fit'
        print(f"| {top} / {cfg} | {r['lut4']} | {r['ff']} | {r['bram_dp16kd']} | "
              f"{r['lutram_dpr16x4']} | {r['ccu2c']} | {fmax} |")
    return 0


if __name__ == '__main__':
    sys.exit(main())
