#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that rtl/files.f (the one RTL file list) and the .sv files under rtl/ agree: every
listed file exists, every rtl/**/*.sv is listed once, and the package comes first.
Run from the repository root. Exit 0 when they agree, 1 otherwise."""
import pathlib
import sys


def main():
    root = pathlib.Path('.')
    flist = root / 'rtl' / 'files.f'
    if not flist.is_file():
        sys.exit('check_filelist: rtl/files.f not found (run from the repository root)')
    listed = []
    for line in flist.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith('//'):
            listed.append(line)
    errors = []
    seen = set()
    for f in listed:
        if f in seen:
            errors.append(f'{f} is listed twice')
        seen.add(f)
        if not (root / f).is_file():
            errors.append(f'{f} is listed but does not exist')
    on_disk = {str(p) for p in (root / 'rtl').rglob('*.sv')}
    for f in sorted(on_disk - seen):
        errors.append(f'{f} is in rtl/ but not in rtl/files.f')
    if listed and listed[0] != 'rtl/htm_pkg.sv':
        errors.append('rtl/htm_pkg.sv must be the first file')
    for e in errors:
        print(f'check_filelist: {e}')
    print(f'check_filelist: {len(listed)} files listed, {len(errors)} problems')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
