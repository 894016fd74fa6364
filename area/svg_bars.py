#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A horizontal bar chart as a self-contained SVG (no fonts or scripts outside the file), for the
area report (area/report.py). Bars may be stacked: each row has one value per series."""
from html import escape


PALETTE = ('#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948')


def bar_chart(title: str, rows: list[tuple[str, list[float]]], series: list[str], unit: str,
              log_note: str = '') -> str:
    """`rows`: (label, [value per series]); values >= 0, stacked left to right."""
    if not rows:
        raise ValueError('bar_chart: no rows')
    label_w, bar_w, row_h, top, right = 260, 520, 20, 48, 90
    height = top + row_h * len(rows) + 40
    width = label_w + bar_w + right
    vmax = max(sum(v) for _, v in rows) or 1.0
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="18" text-anchor="middle" font-size="14">'
           f'{escape(title)}</text>']
    x = label_w
    for i, name in enumerate(series):
        colour = PALETTE[i % len(PALETTE)]
        out.append(f'<rect x="{x}" y="28" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{x + 14}" y="37">{escape(name)}</text>')
        x += 20 + 7 * len(name)
    for r, (label, values) in enumerate(rows):
        y = top + r * row_h
        out.append(f'<text x="{label_w - 6}" y="{y + 14}" text-anchor="end">{escape(label)}</text>')
        x = float(label_w)
        for i, v in enumerate(values):
            w = bar_w * v / vmax
            if w > 0:
                out.append(f'<rect x="{x:.1f}" y="{y + 3}" width="{w:.1f}" height="{row_h - 6}" '
                           f'fill="{PALETTE[i % len(PALETTE)]}"/>')
            x += w
        out.append(f'<text x="{x + 4:.1f}" y="{y + 14}">{sum(values):.4g} {escape(unit)}</text>')
    if log_note:
        out.append(f'<text x="{label_w}" y="{height - 12}" fill="#555">{escape(log_note)}</text>')
    out.append('</svg>')
    return '\n'.join(out) + '\n'
