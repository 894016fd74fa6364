#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The area and power report: reads the per-block results of the area flow
(<build>/reports/area/<top>__<config>.json, written by area/area_flow.py, one per CTest
area.<top>.<config>) and writes <out>/area.md, <out>/area.json and SVG charts: per block and
configuration the storage arrays (CACTI) and the logic (standard cells) with power, then each
paper's figures beside ours.

Usage: area/report.py --build BUILD --out DIR [--cacti-dir D]
  (make area runs it as: area/report.py --build build --out build/report)
--cacti-dir: CACTI for the papers' own organisations (the comparison's middle column); without
it that column is left out. Exit status: 0 written, 1 no results or a malformed one (nothing
written), 2 bad usage.
"""
import argparse
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import array_roles  # noqa: E402
import papers  # noqa: E402
import svg_bars  # noqa: E402

NODES = ('40', '22')
LIBS = (('osu018', 'OSU 0.18 um', 180), ('sky130_hd', 'sky130_fd_sc_hd', 130))
# Logic area at 40 nm, for a block's total beside the papers' CACTI figures: ideal scaling of
# the cell area with the square of the feature size (stated in every table that uses it).
LOGIC_REF_LIB = 'sky130_hd'
LOGIC_REF_NM = 130


class ReportError(Exception):
    pass


def load(build):
    rows = {}
    for path in sorted(glob.glob(os.path.join(build, 'reports', 'area', '*.json'))):
        try:
            with open(path) as f:
                r = json.load(f)
            key = (r['top'], r['config'])
            for a in r['arrays']:
                for n in NODES:
                    a['cacti'][n]['area_mm2']  # noqa: B018 (a KeyError names the gap)
            for lib, _, _ in LIBS:
                r['logic'][lib]['area_um2']  # noqa: B018
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ReportError(f'{path}: malformed area result ({type(e).__name__}: {e})')
        rows[key] = r
    if not rows:
        raise ReportError(f'no area results under {build}/reports/area (run make area)')
    return rows


def kbytes(bits):
    return bits / 8 / 1024


def array_bits(a):
    return a['entries'] * a['width']


def arrays_by_role(r, roles):
    return [a for a in r['arrays'] if a['role'] in roles]


def is_copy(r, a):
    """Whether array `a` of result `r` is a read copy of other storage (area/array_roles.py)."""
    role = array_roles.role_of(r['top'], a['memory'])
    return bool(role and role.copy)


def distinct(r, arrays):
    """`arrays` without the read copies: the storage a multi-ported RAM would hold once."""
    return [a for a in arrays if not is_copy(r, a)]


def sum_fig(arrays, node, key):
    return sum(a['cacti'][node][key] for a in arrays)


def logic_mm2_at_40(r):
    um2 = r['logic'][LOGIC_REF_LIB]['area_um2']
    return um2 * 1e-6 * (40 / LOGIC_REF_NM) ** 2


def shapes(arrays):
    """'4 x 1024 x 96, 1024 x 120': the arrays' shapes, equal ones counted."""
    count = {}
    for a in arrays:
        k = f"{a['entries']} x {a['width']}"
        count[k] = count.get(k, 0) + 1
    return ', '.join(k if n == 1 else f'{n} x {k}' for k, n in count.items())


def fmt(v, digits=4):
    if v is None:
        return '–'
    if v == 0:
        return '0'
    if abs(v) >= 1000:
        return f'{v:,.0f}'
    return f'{v:.{digits}g}'


def ratio(ours, paper):
    if ours is None or not paper:
        return '–'
    return f'{ours / paper:.2f}'


def block_tables(rows):
    md = ['## Blocks\n',
          'Per block and named configuration: the RAM macros (CACTI 7, itrs-hp cells, one bank; '
          'figures per macro summed) and the logic (everything else, flip-flops included, mapped '
          'by Yosys to the two cell libraries), with the OSU 0.18 um netlist\'s power from '
          'OpenSTA at the measured activity. The arrays of each configuration are listed after '
          'this table.\n',
          '| block / config | macros | kB | area 40 nm (mm2) | leak 40 nm (mW) | area 22 nm '
          '(mm2) | logic OSU 0.18 (um2) | logic sky130 (um2) | flip-flops | logic power OSU '
          '(mW) | at MHz, activity |',
          '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|']
    for (top, cfg), r in sorted(rows.items()):
        arr = r['arrays']
        bits = sum(array_bits(a) for a in arr)
        osu = r['logic']['osu018']
        sky = r['logic']['sky130_hd']
        pw = r.get('power', {}).get('osu018')
        power = fmt(pw['total_mw']) if pw else '–'
        cond = f"{pw['clock_mhz']:g}, {pw['activity']:.3f} ({pw['activity_source']})" if pw else '–'
        md.append(f'| {top} / {cfg} | {len(arr)} | {fmt(kbytes(bits))} | '
                  f'{fmt(sum_fig(arr, "40", "area_mm2"))} | '
                  f'{fmt(sum_fig(arr, "40", "leakage_mw"))} | '
                  f'{fmt(sum_fig(arr, "22", "area_mm2"))} | {fmt(osu["area_um2"])} | '
                  f'{fmt(sky["area_um2"])} | {osu.get("ff_count", "–")} | {power} | {cond} |')
    md.append('\n### Arrays\n')
    md.append('| block / config | array | role | entries x bits | ports | kind | area 40 nm (mm2) '
              '| read (pJ) | write (pJ) | search (pJ) | leak (mW) | access (ns) | area 22 nm (mm2) '
              '| read 22 nm (pJ) |')
    md.append('|---|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|')
    for (top, cfg), r in sorted(rows.items()):
        for a in r['arrays']:
            c, d = a['cacti']['40'], a['cacti']['22']
            md.append(f"| {top} / {cfg} | `{a['name']}` | {a['structure']} | "
                      f"{a['entries']} x {a['width']} | {a['ports']} | {a['kind']} | "
                      f"{fmt(c['area_mm2'])} | {fmt(c['read_pj'])} | {fmt(c['write_pj'])} | "
                      f"{fmt(c.get('search_pj'))} | {fmt(c['leakage_mw'])} | "
                      f"{fmt(c['access_ns'])} | {fmt(d['area_mm2'])} | {fmt(d['read_pj'])} |")
    return md


def cacti_paper_cam(arr, cacti_dir, cache):
    """CACTI at 40 nm on a paper's organisation as a fully associative CAM (one search port):
    how a table the paper does not organise would be searched by address without sets."""
    if cacti_dir is None or not (arr.entries and arr.width):
        return None
    import cacti  # noqa: E402 (only with --cacti-dir)
    return cacti.run(cacti.Array(name=f'paper/{arr.key}/cam', entries=arr.entries,
                                 width=arr.width, search_ports=1), 40, cacti_dir,
                     cache_dir=cache)


def si_reasons(p, ours_kb, area, power, one_area, pc, cam):
    """The measured factors behind a ratio outside 0.75-1.25 (text for the report)."""
    out = []
    if abs(ours_kb / p.kbytes - 1) > 0.05:
        out.append(f'capacity {ours_kb:.3g} kB against {p.kbytes:g} kB (x{ours_kb / p.kbytes:.2f})')
    if one_area < area * 0.95:
        out.append(f'read copies: {area / one_area:.2f}x the area of the storage held once')
    if pc is not None:
        out.append(f'CACTI 7 on the paper\'s own organisation ({p.entries} x {p.width}, one '
                   f'read-write port) gives {pc.area_mm2:.3g} mm2 ({pc.area_mm2 / p.area_mm2:.2f}x '
                   f'the paper\'s area) and {power_at(pc):.3g} mW '
                   f'({power_at(pc) / p.power_mw:.2f}x its power), the tool\'s share of the '
                   'gap; ours against that: the RTL\'s organisation (ports, entry layout)')
    if cam is not None:
        out.append(f'the same as a fully associative CAM: {cam.area_mm2:.3g} mm2 '
                   f'({cam.area_mm2 / p.area_mm2:.2f}x), leakage {cam.leakage_mw:.3g} mW, '
                   f'{cam.search_pj:.3g} pJ per search')
    return '; '.join(out)


def power_at(fig):
    """Leakage plus one read per cycle at the snapshot-isolation paper's commit-unit clock."""
    return fig.leakage_mw + fig.read_pj * 1e-12 * papers.SI_TABLE_CLOCK_MHZ * 1e6 * 1e3


def cacti_paper(arr, width, cacti_dir, cache):
    """CACTI at 40 nm on a paper's organisation: its entries and width where it gives them,
    else its capacity in entries of `width` bits (ours)."""
    if cacti_dir is None:
        return None
    import cacti  # noqa: E402 (only with --cacti-dir)
    entries = arr.entries or max(16, round(arr.kbytes * 8192 / width))
    w = arr.width or width
    return cacti.run(cacti.Array(name=f'paper/{arr.key}', entries=entries, width=w), 40,
                     cacti_dir, cache_dir=cache)


def paper_tables(rows, cacti_dir, cache, summary, build):
    md = ['## Beside the papers\n',
          'Our figures are CACTI 7 at 40 nm on the arrays Yosys finds in our RTL at the block\'s '
          '`default` (paper-size) configuration; "CACTI, paper\'s organisation" is the same '
          'CACTI on the entries and width the paper states (or its capacity in our entry width '
          'where it states none), which separates the tool\'s version from the organisation. '
          f'Power for one access per cycle at {papers.SI_TABLE_CLOCK_MHZ} MHz (the commit units\' '
          'clock of the snapshot-isolation paper\'s Table 2) plus leakage; the papers do not '
          'state their access rate. A ratio beyond 0.75–1.25 is explained below the table.\n']

    def ours(block, roles):
        r = rows.get((block, 'default'))
        if r is None:
            return None, None
        return r, arrays_by_role(r, roles)

    # KILO TM.
    md.append(f'### KILO TM, per memory partition ({papers.KILO})\n')
    md.append('| structure | paper kB | our kB | our arrays | area 40 nm (mm2) | without the read '
              'copies: kB, mm2 | CACTI, paper\'s capacity (mm2) |')
    md.append('|---|---:|---:|---|---:|---|---:|')
    total_ours = 0.0
    have_all = True
    for p in papers.KILO_ARRAYS:
        r, arr = ours(p.block, p.roles)
        if not arr:
            have_all = False
            md.append(f'| {p.name} | {p.kbytes:g} | – | (no result for {p.block} default) | – | – '
                      '| – |')
            continue
        bits = sum(array_bits(a) for a in arr)
        area = sum_fig(arr, '40', 'area_mm2')
        total_ours += area
        width = max(a['width'] for a in arr)
        pc = cacti_paper(p, width, cacti_dir, cache)
        one = distinct(r, arr)
        one_kb = kbytes(sum(array_bits(a) for a in one))
        one_mm2 = sum_fig(one, '40', 'area_mm2')
        md.append(f'| {p.name} | {p.kbytes:g} | {fmt(kbytes(bits))} | {shapes(arr)} | '
                  f'{fmt(area)} | {fmt(one_kb)}, {fmt(one_mm2)} | '
                  f'{fmt(pc.area_mm2) if pc else "–"} |')
        summary.append({'paper': 'KILO TM', 'structure': p.name, 'paper_kb': p.kbytes,
                        'our_kb': kbytes(bits), 'our_area_mm2': area, 'our_distinct_kb': one_kb,
                        'our_distinct_area_mm2': one_mm2,
                        'paper_capacity_area_mm2': pc.area_mm2 if pc else None})
    r = rows.get(('htm_commit_unit', 'default'))
    if r is not None and have_all:
        logic = logic_mm2_at_40(r)
        tot = sum_fig(r['arrays'], '40', 'area_mm2') + logic
        tot_one = sum_fig(distinct(r, r['arrays']), '40', 'area_mm2') + logic
        md.append(f'\nThe whole commit unit at 40 nm: arrays {fmt(sum_fig(r["arrays"], "40", "area_mm2"))} '
                  f'mm2 + logic {fmt(logic)} mm2 (sky130 cell area scaled by (40/130)^2) = '
                  f'**{fmt(tot)} mm2** against the slides\' {papers.KILO_PARTITION_MM2} mm2 '
                  f'(ratio {ratio(tot, papers.KILO_PARTITION_MM2)}); x {papers.KILO_PARTITIONS} '
                  f'partitions = {fmt(tot * papers.KILO_PARTITIONS)} mm2, '
                  f'{100 * tot * papers.KILO_PARTITIONS / papers.KILO_GPU_MM2:.2f} % of the '
                  f'{papers.KILO_GPU_MM2:g} mm2 GPU (slides: 0.5 %). Without the read copies: '
                  f'**{fmt(tot_one)} mm2** (ratio {ratio(tot_one, papers.KILO_PARTITION_MM2)}).\n')
        summary.append({'paper': 'KILO TM', 'structure': 'commit unit per partition',
                        'paper_area_mm2': papers.KILO_PARTITION_MM2, 'our_area_mm2': tot,
                        'our_distinct_area_mm2': tot_one})

    # Snapshot isolation, Table 1.
    md.append(f'### Snapshot isolation ({papers.SI})\n')
    md.append('| structure | paper: kB, mm2, mW | CACTI, paper\'s organisation: mm2, mW | ours: '
              'arrays | ours: kB, mm2, mW | ratio area, power (ours / paper) | ours without '
              'the read copies: kB, mm2, mW |')
    md.append('|---|---|---|---|---|---|---|')
    clk = papers.SI_TABLE_CLOCK_MHZ * 1e6
    reasons = []
    for p in papers.SI_ARRAYS:
        r, arr = ours(p.block, p.roles)
        pc = cacti_paper(p, p.width, cacti_dir, cache)
        pcs = '–'
        if pc:
            pcs = f'{fmt(pc.area_mm2)}, {fmt(pc.leakage_mw + pc.read_pj * 1e-12 * clk * 1e3)}'
        if not arr:
            md.append(f'| {p.name} | {p.kbytes:g}, {p.area_mm2}, {p.power_mw} | {pcs} | '
                      f'(no result for {p.block} default) | – | – | – |')
            continue

        def si_power(arrays):
            return sum(a['cacti']['40']['leakage_mw'] + a['cacti']['40']['read_pj'] * 1e-12 * clk
                       * 1e3 for a in arrays)
        bits = sum(array_bits(a) for a in arr)
        area = sum_fig(arr, '40', 'area_mm2')
        power = si_power(arr)
        one = distinct(r, arr)
        md.append(f'| {p.name} | {p.kbytes:g}, {p.area_mm2}, {p.power_mw} | {pcs} | '
                  f'{shapes(arr)} | {fmt(kbytes(bits))}, {fmt(area)}, {fmt(power)} | '
                  f'{ratio(area, p.area_mm2)}, {ratio(power, p.power_mw)} | '
                  f'{fmt(kbytes(sum(array_bits(a) for a in one)))}, '
                  f'{fmt(sum_fig(one, "40", "area_mm2"))}, {fmt(si_power(one))} |')
        if not (0.75 <= area / p.area_mm2 <= 1.25 and 0.75 <= power / p.power_mw <= 1.25):
            cam = cacti_paper_cam(p, cacti_dir, cache) if p.key == 'si_wt' else None
            reasons.append(f'* {p.name} (area x{area / p.area_mm2:.2f}, power '
                           f'x{power / p.power_mw:.2f}): '
                           + si_reasons(p, kbytes(bits), area, power,
                                        sum_fig(one, '40', 'area_mm2'), pc, cam) + '.')
        summary.append({'paper': 'SI', 'structure': p.name, 'paper_kb': p.kbytes,
                        'paper_area_mm2': p.area_mm2, 'paper_power_mw': p.power_mw,
                        'our_kb': kbytes(bits), 'our_area_mm2': area, 'our_power_mw': power,
                        'paper_org_area_mm2': pc.area_mm2 if pc else None,
                        'paper_org_power_mw': (pc.leakage_mw + pc.read_pj * 1e-12 * clk * 1e3)
                        if pc else None,
                        'our_distinct_area_mm2': sum_fig(one, '40', 'area_mm2')})

    if reasons:
        md.append('\nWhere ours differ by more than 25 %, measured:\n')
        md += reasons
    # Early conflict resolution, Table 1.
    md.append(f'\n### Early conflict resolution ({papers.ECR})\n')
    md.append('| structure | paper: entries, kB | ours: arrays | ours: kB | area 40 nm (mm2) | '
              'leak 40 nm (mW) | without the read copies: kB, mm2 |')
    md.append('|---|---|---|---:|---:|---:|---|')
    for p in papers.ECR_ARRAYS:
        r, arr = ours(p.block, p.roles)
        if not arr:
            md.append(f'| {p.name} | {p.entries}, {p.kbytes:g} | (no result for {p.block} '
                      'default) | – | – | – | – |')
            continue
        bits = sum(array_bits(a) for a in arr)
        one = distinct(r, arr)
        md.append(f'| {p.name} | {p.entries}, {p.kbytes:g} | {shapes(arr)} | {fmt(kbytes(bits))} '
                  f'| {fmt(sum_fig(arr, "40", "area_mm2"))} | '
                  f'{fmt(sum_fig(arr, "40", "leakage_mw"))} | '
                  f'{fmt(kbytes(sum(array_bits(a) for a in one)))}, '
                  f'{fmt(sum_fig(one, "40", "area_mm2"))} |')
        summary.append({'paper': 'ECR', 'structure': p.name, 'paper_kb': p.kbytes,
                        'our_kb': kbytes(bits), 'our_area_mm2': sum_fig(arr, '40', 'area_mm2')})

    md += localtm_shares(rows, summary, build)
    return md


def cache_params(build, top, config):
    """A named configuration's parameters from the build tree's CMakeCache.txt (None if absent)."""
    import arrays  # noqa: E402 (the array flow's reader of the build tree)
    try:
        text = arrays.cmake_cache(os.path.join(build, 'CMakeCache.txt')).get(
            f'HTM_CFG_{top}_{config}_Y')
    except OSError:
        return None
    return dict(arrays.params_of(text)) if text is not None else None


def localtm_shares(rows, summary, build):
    """GPU-LocalTM's storage taken from the compute unit, from our configuration's parameters:
    the LDS bank's layout (data, backup and owner words), the signatures' bits, the masks. The
    parameters come from the flow's result when there is one (its Yosys run takes hours), else
    from the build tree."""
    r = rows.get(('htm_lds_tm', 'default'))
    md = [f'\n### GPU-LocalTM storage shares ({papers.LOCALTM_SOURCE})\n']
    p = r['params'] if r is not None else cache_params(build, 'htm_lds_tm', 'default')
    if p is None:
        return md + ['(no parameters for htm_lds_tm default)\n']
    banks, words = int(p['NumBanks']), int(p['BankWords'])
    wg, wf = int(p['WgSize']), int(p['WfSize'])
    nwf = wg // wf
    user = banks * words                       # user words of the work-group
    shadow = banks * (words + words // 4)      # backup words + owner bytes (one per word)
    prw_regs = banks * wg * 8 // 32            # 8-bit pRWsig per work-item and bank
    swo_regs = banks * nwf * 32 // 32          # 32-bit sWOsig per wavefront and bank
    tcm_regs = nwf * 2                         # a 64-bit mask per wavefront
    owners = user                              # one owner per word
    ours = {
        'shadow': 100 * shadow / (user + shadow),
        'scalar': 100 * (swo_regs + tcm_regs) / papers.LOCALTM_SCALAR_REGS,
        'vector_dcd': 100 * (prw_regs + owners / 32) / papers.LOCALTM_VECTOR_REGS,
        'vector_smdcd': 100 * (prw_regs + 2 * owners / 32) / papers.LOCALTM_VECTOR_REGS,
    }
    md.append(f'Ours: {banks} banks of {words} user words, a work-group of {wg} work-items in '
              f'{nwf} wavefronts (`htm_lds_tm` default); the compute unit of the thesis\'s '
              f'Table 5.6 ({papers.LOCALTM_LDS_BYTES // 1024} KB LDS, '
              f'{papers.LOCALTM_SCALAR_REGS} scalar and {papers.LOCALTM_VECTOR_REGS} vector '
              'registers).\n')
    md.append('| share | thesis | thesis\'s count | ours | ratio |')
    md.append('|---|---:|---|---:|---:|')
    for s in papers.LOCALTM_SHARES:
        md.append(f'| {s.name} | {s.paper_percent:g} % | {s.paper_text} | '
                  f'{ours[s.key]:.1f} % | {ours[s.key] / s.paper_percent:.2f} |')
        summary.append({'paper': 'GPU-LocalTM', 'structure': s.name,
                        'paper_percent': s.paper_percent, 'our_percent': ours[s.key]})
    return md


def charts(rows, out):
    defaults = [(f'{t} / {c}', r) for (t, c), r in sorted(rows.items()) if c == 'default']
    if not defaults:
        defaults = [(f'{t} / {c}', r) for (t, c), r in sorted(rows.items())]
    data = [(label, [sum_fig(r['arrays'], '40', 'area_mm2'), logic_mm2_at_40(r)])
            for label, r in defaults]
    svg = svg_bars.bar_chart('Area at 40 nm per block (paper-size configurations)', data,
                             ['RAM macros (CACTI)', 'logic (sky130 cells x (40/130)^2)'], 'mm2')
    return {'area_40nm.svg': svg}


def write_atomically(path, text):
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--build', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--cacti-dir')
    args = ap.parse_args()
    try:
        rows = load(args.build)
        summary = []
        cache = os.path.join(args.build, 'area', 'cacti_cache')
        md = ['# Area and power\n',
              f'Generated by area/report.py from {len(rows)} block configurations '
              '(`make area`). How the figures are made: docs/area_power.md.\n',
              '![Area at 40 nm](area_40nm.svg)\n']
        md += block_tables(rows)
        md.append('')
        md += paper_tables(rows, args.cacti_dir, cache, summary, args.build)
        svgs = charts(rows, args.out)
    except ReportError as e:
        print(f'area report: {e}', file=sys.stderr)
        return 1
    except Exception as e:  # CACTI's refusal of a paper's organisation, say
        print(f'area report: {type(e).__name__}: {e}', file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    for name, svg in svgs.items():
        write_atomically(os.path.join(args.out, name), svg)
    write_atomically(os.path.join(args.out, 'area.json'),
                     json.dumps({'blocks': {f'{t}/{c}': r for (t, c), r in sorted(rows.items())},
                                 'papers': summary}, indent=1) + '\n')
    write_atomically(os.path.join(args.out, 'area.md'), '\n'.join(md) + '\n')
    print(f'area report: {os.path.join(args.out, "area.md")} ({len(rows)} configurations)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
