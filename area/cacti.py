#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CACTI 7 on one storage array: area, energy per access, leakage and access time at one
technology node.

The CACTI build and its data come from tools/setup.sh (`--print-area`, directory `cacti/`).
As a module (area/arrays.py, area/report.py):

    import cacti
    fig = cacti.run(cacti.Array('htm_rct/default/u_table.mem', entries=1024, width=120,
                                rw_ports=0, rd_ports=1, wr_ports=1), 40, cacti_dir, cache_dir)

As a command, printing the Figures as JSON:

    area/cacti.py --cacti-dir D --node 40 --entries 1024 --width 32 [--rw-ports 1]
                  [--rd-ports 0] [--wr-ports 0] [--cam --search-ports 1] [--banks 1]
                  [--name NAME] [--cache-dir C]

Exit status: 0 figures printed; 1 CACTI refused the array (`cacti: <message>` on stderr);
2 bad usage or no usable CACTI.

How an array is given to CACTI (its configuration file is CACTI's own cache.cfg with these
lines replaced):
  * `-cache type "ram"` (associativity 1) or `"cam"` (associativity 0, `-search port`, and
    `-tag size` = the entry width: a CAM's cells are its tag array);
  * `-output/input bus width` = the entry width in bits: one access reads or writes one entry;
    a RAM entry narrower than 4 bits (CACTI's narrowest RAM bus) is packed several to a bus
    word, and an access reads or writes that word;
  * `-size` = entries x width rounded up to whole bytes (the array's bits, not entries of
    whole bytes); `-block size` = the entry width rounded up to bytes, the smallest block that
    holds the bus (CACTI requires block x 8 >= bus width). For a RAM the block size does not
    change the figures: CACTI folds sets onto a wordline (Nspd, from bus/block up) and so
    already explores every row width, several narrow entries per row included;
  * one bank unless given (`-UCA bank count`; leakage is reported per bank and multiplied
    here); itrs-hp cells and periphery, 360 K, no ECC, CACTI's default optimisation (ED^2);
  * `-technology (u)` = the node: CACTI interpolates between its 90, 65, 45, 32 and 22 nm
    parameters, so 40 nm (the papers' node) lies between 45 and 32 nm.

CACTI's constraints (io.cc error_checking, parameter.cc calc_subarr_rc and init_CAM; it
prints a refusal and mostly exits 0, so a run is accepted only when its result file, written
after a successful search, holds every figure):
  * at least 64 bytes per bank; banks a power of two; at least one read or write port;
  * block x 8 >= bus width (always true here);
  * more than one set (entries >= 2);
  * a RAM's bus at least 4 bits (each of a mat's 4 subarrays gives one bit or more);
  * a RAM bank is at least one mat of 2 x 2 subarrays of at least 16 rows (MINSUBARRAYROWS),
    and a row holds at least one bus word, so a RAM needs about 31 entries per bank or more
    (ceil(bytes / (2 x bus bytes)) >= 16): with fewer CACTI finds "no valid data array
    organizations" (area/memories.py's smallest macro has 32);
  * a CAM needs at least one search port and at least two subarrays;
  * nodes from 22 to 90 nm.
"""
import argparse
import dataclasses
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass

# The nodes of the area flow: the papers' (40 nm) and a recent one CACTI has data for.
NODES = (40, 22)
MIN_NODE_NM, MAX_NODE_NM = 22, 90
# A RAM access takes at least one bit from each of a mat's four subarrays (parameter.cc:
# num_do_b_mat >= subarrays per mat), so CACTI's RAM bus is at least 4 bits wide.
MIN_RAM_BUS_BITS = 4
TIMEOUT_S = 600


class CactiError(Exception):
    """CACTI refused an array or gave no figures; the message names the array."""


@dataclass(frozen=True)
class Array:
    name: str              # e.g. "htm_rct/default/u_table.mem", used in every message
    entries: int
    width: int             # bits per entry
    rw_ports: int = 1
    rd_ports: int = 0      # exclusive read ports
    wr_ports: int = 0      # exclusive write ports
    search_ports: int = 0  # > 0: content-addressable (CAM) search ports
    banks: int = 1

    @property
    def cam(self) -> bool:
        return self.search_ports > 0


@dataclass
class Figures:
    """CACTI's figures for one array at one node: energies per access (one bank accessed),
    area and leakage of the whole array."""
    node_nm: int
    area_mm2: float
    read_pj: float
    write_pj: float
    search_pj: float | None
    leakage_mw: float
    access_ns: float
    cfg: str  # the configuration CACTI was given

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


def check(array: Array, node_nm: int) -> None:
    """Rejects what is not an array description at all (CACTI's own limits are left to
    CACTI, whose refusal is reported)."""
    if not array.name:
        raise CactiError('an array needs a name')
    for field in ('entries', 'width', 'banks'):
        if getattr(array, field) < 1:
            raise CactiError(f'{array.name}: {field} must be at least 1, not '
                             f'{getattr(array, field)}')
    for field in ('rw_ports', 'rd_ports', 'wr_ports', 'search_ports'):
        if getattr(array, field) < 0:
            raise CactiError(f'{array.name}: {field} must not be negative')
    if not MIN_NODE_NM <= node_nm <= MAX_NODE_NM:
        raise CactiError(f'{array.name}: node {node_nm} nm is outside CACTI\'s '
                         f'{MIN_NODE_NM}-{MAX_NODE_NM} nm')


def packing(array: Array) -> int:
    """Entries per bus word: 1, or for a RAM narrower than MIN_RAM_BUS_BITS enough entries to
    fill that bus (an access reads the word holding its entry, as a column-multiplexed SRAM
    does)."""
    if array.cam or array.width >= MIN_RAM_BUS_BITS:
        return 1
    return math.ceil(MIN_RAM_BUS_BITS / array.width)


def settings(array: Array, node_nm: int) -> dict[str, str]:
    """The cfg lines (key prefix -> whole line) that describe `array` at `node_nm`."""
    pack = packing(array)
    bus = array.width * pack
    block = math.ceil(bus / 8)
    size = math.ceil(math.ceil(array.entries / pack) * bus / 8)
    kind = 'cam' if array.cam else 'ram'
    lines = {
        '-size (bytes)': f'-size (bytes) {size}',
        '-block size (bytes)': f'-block size (bytes) {block}',
        '-associativity': f'-associativity {0 if array.cam else 1}',
        '-read-write port': f'-read-write port {array.rw_ports}',
        '-exclusive read port': f'-exclusive read port {array.rd_ports}',
        '-exclusive write port': f'-exclusive write port {array.wr_ports}',
        '-single ended read ports': '-single ended read ports 0',
        '-search port': f'-search port {array.search_ports}',
        '-UCA bank count': f'-UCA bank count {array.banks}',
        '-technology (u)': f'-technology (u) {node_nm / 1000:.3f}',
        '-output/input bus width': f'-output/input bus width {bus}',
        '-cache type': f'-cache type "{kind}"',
        '-tag size (b)': f'-tag size (b) {array.width}' if array.cam
                         else '-tag size (b) "default"',
        '-Add ECC': '-Add ECC - "false"',
        '-Cache model': '-Cache model (NUCA, UCA)  - "UCA"',
    }
    for cell in ('Data array cell type', 'Data array peripheral type', 'Tag array cell type',
                 'Tag array peripheral type'):
        lines[f'-{cell}'] = f'-{cell} - "itrs-hp"'
    lines['-operating temperature (K)'] = '-operating temperature (K) 360'
    return lines


def make_cfg(array: Array, node_nm: int, template: str) -> str:
    """CACTI's template with the array's lines in place of its own (those the template lacks
    are appended); ends with a newline, which CACTI's parser needs on the last line."""
    want = settings(array, node_nm)
    done = set()
    out = []
    for line in template.splitlines():
        key = next((k for k in want if line.startswith(k)), None)
        if key is None:
            out.append(line)
        elif key not in done:
            out.append(want[key])
            done.add(key)
    out += [want[k] for k in want if k not in done]
    return '\n'.join(out) + '\n'


def binary(cacti_dir: str) -> str:
    exe = os.path.join(cacti_dir, 'cacti')
    if not os.access(exe, os.X_OK):
        raise FileNotFoundError(f'{exe}: no executable CACTI (run tools/setup.sh; the '
                                f'directory is tools/setup.sh --print-area + /cacti)')
    for need in ('cache.cfg', 'tech_params'):
        if not os.path.exists(os.path.join(cacti_dir, need)):
            raise FileNotFoundError(f'{cacti_dir}: no {need} (run tools/setup.sh)')
    return exe


def dir_from(option: str | None) -> str | None:
    """CACTI's directory: `option` when given, else $HTM_AREA_DIR/cacti (HTM_AREA_DIR: the area
    data directory, tools/setup.sh --print-area), else None."""
    if option:
        return option
    area = os.environ.get('HTM_AREA_DIR')
    return os.path.join(area, 'cacti') if area else None


_binary_hashes: dict[str, str] = {}


def binary_hash(exe: str) -> str:
    st = os.stat(exe)
    key = f'{exe}:{st.st_mtime_ns}:{st.st_size}'
    if key not in _binary_hashes:
        with open(exe, 'rb') as f:
            _binary_hashes[key] = hashlib.sha256(f.read()).hexdigest()
    return _binary_hashes[key]


# Columns of CACTI's result file (<cfg>.out, written only when it found an organisation).
CSV_COLUMNS = {
    'access_ns': 'Access time (ns)',
    'search_nj': 'Dynamic search energy (nJ)',
    'read_nj': 'Dynamic read energy (nJ)',
    'write_nj': 'Dynamic write energy (nJ)',
    'leakage_bank_mw': 'Standby leakage per bank(mW)',
    'area_mm2': 'Area (mm2)',
}


def refusal(stdout: str, stderr: str) -> str:
    """CACTI's own words for a refusal: what it wrote on stderr (its input checks) and its
    ERROR lines on stdout (the organisation search), else the end of its output."""
    err = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    out = [ln.strip() for ln in stdout.splitlines() if ln.strip()]
    picked = err + [ln for ln in out if ln.startswith(('ERROR', 'Invalid'))] or out[-3:]
    return '; '.join(picked) if picked else 'no output'


def parse_result(path: str, what: str) -> dict[str, float | None]:
    with open(path) as f:
        rows = [r for r in f.read().splitlines() if r.strip()]
    if len(rows) != 2:
        raise CactiError(f'{what}: CACTI\'s result file {path} has {len(rows)} lines, '
                         f'not a header and one row')
    head = [h.strip() for h in rows[0].split(',')]
    vals = [v.strip() for v in rows[1].split(',')]
    if len(vals) != len(head):
        raise CactiError(f"{what}: CACTI's result file has {len(head)} columns and "
                         f'{len(vals)} values')
    out = {}
    for key, col in CSV_COLUMNS.items():
        if col not in head:
            raise CactiError(f'{what}: CACTI\'s result file lacks "{col}"')
        text = vals[head.index(col)]
        if key == 'search_nj' and text == 'N/A':
            out[key] = None
            continue
        try:
            v = float(text)
        except ValueError:
            raise CactiError(f'{what}: CACTI gave "{text}" for {col}') from None
        if not math.isfinite(v) or v < 0 or (v == 0 and key in ('area_mm2', 'access_ns')):
            raise CactiError(f'{what}: CACTI gave {text} for {col}')
        out[key] = v
    return out


def run_cfg(cfg: str, exe: str, what: str) -> dict[str, float | None]:
    """Runs CACTI (`exe`, beside its tech_params/) on the configuration text `cfg`; returns
    the figures of its result file (CSV_COLUMNS' keys). CactiError names `what`."""
    with tempfile.TemporaryDirectory(prefix='htm-cacti-') as tmp:
        # CACTI reads tech_params/ from its working directory and writes <cfg>.out beside the
        # configuration: a private directory per run keeps runs apart.
        os.symlink(os.path.join(os.path.dirname(os.path.abspath(exe)), 'tech_params'),
                   os.path.join(tmp, 'tech_params'))
        with open(os.path.join(tmp, 'array.cfg'), 'w') as f:
            f.write(cfg)
        try:
            p = subprocess.run([os.path.abspath(exe), '-infile', 'array.cfg'], cwd=tmp,
                               capture_output=True, text=True, errors='replace',
                               timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise CactiError(f'{what}: CACTI did not finish in {TIMEOUT_S} s') from None
        result = os.path.join(tmp, 'array.cfg.out')
        if not os.path.exists(result):
            raise CactiError(f'{what}: CACTI refused it (exit {p.returncode}): '
                             f'{refusal(p.stdout, p.stderr)}')
        if p.returncode != 0:
            raise CactiError(f'{what}: CACTI exited {p.returncode}: '
                             f'{refusal(p.stdout, p.stderr)}')
        return parse_result(result, what)


def sig(v: float) -> float:
    """CACTI prints six significant digits; unit conversions keep them (no 0.447069000001)."""
    return float(f'{v:.6g}')


def run(array: Array, node_nm: int, cacti_dir: str, cache_dir: str | None = None) -> Figures:
    """CACTI's figures for `array` at `node_nm` (22 to 90 nm). Raises CactiError when CACTI
    refuses the array (its message quoted), FileNotFoundError when there is no CACTI."""
    check(array, node_nm)
    exe = binary(cacti_dir)
    with open(os.path.join(cacti_dir, 'cache.cfg')) as f:
        cfg = make_cfg(array, node_nm, f.read())
    key = hashlib.sha256((binary_hash(exe) + '\n' + cfg).encode()).hexdigest()[:32]
    cached = os.path.join(cache_dir, f'{key}.json') if cache_dir else None
    if cached and os.path.exists(cached):
        try:
            with open(cached) as f:
                data = json.load(f)
            if data.get('cfg') == cfg:
                data['node_nm'] = node_nm
                return Figures(**data)
        except (OSError, ValueError, TypeError):
            pass  # an unreadable entry is recomputed and rewritten
    r = run_cfg(cfg, exe, f'{array.name} ({describe(array)}, {node_nm} nm)')
    if array.cam and r['search_nj'] is None:
        raise CactiError(f'{array.name}: CACTI gave no search energy for a CAM')
    fig = Figures(node_nm=node_nm, area_mm2=r['area_mm2'], read_pj=sig(r['read_nj'] * 1e3),
                  write_pj=sig(r['write_nj'] * 1e3),
                  search_pj=None if r['search_nj'] is None else sig(r['search_nj'] * 1e3),
                  leakage_mw=sig(r['leakage_bank_mw'] * array.banks), access_ns=r['access_ns'],
                  cfg=cfg)
    if cached:
        os.makedirs(cache_dir, exist_ok=True)
        tmp_path = f'{cached}.{os.getpid()}.tmp'
        with open(tmp_path, 'w') as f:
            json.dump(fig.to_json(), f, indent=1)
            f.write('\n')
        os.replace(tmp_path, cached)
    return fig


def describe(array: Array) -> str:
    ports = []
    for n, tag in ((array.rw_ports, 'rw'), (array.rd_ports, 'r'), (array.wr_ports, 'w'),
                   (array.search_ports, 's')):
        if n:
            ports.append(f'{n}{tag}')
    kind = 'CAM' if array.cam else 'RAM'
    banks = f', {array.banks} banks' if array.banks != 1 else ''
    return f'{kind} {array.entries} x {array.width} bits, {" ".join(ports) or "no ports"}{banks}'


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--cacti-dir', required=True,
                    help='CACTI directory (tools/setup.sh --print-area + /cacti)')
    ap.add_argument('--node', type=int, required=True, help='technology node in nm (22-90)')
    ap.add_argument('--entries', type=int, required=True)
    ap.add_argument('--width', type=int, required=True, help='bits per entry')
    ap.add_argument('--rw-ports', type=int)
    ap.add_argument('--rd-ports', type=int, default=0)
    ap.add_argument('--wr-ports', type=int, default=0)
    ap.add_argument('--cam', action='store_true', help='content-addressable (needs search ports)')
    ap.add_argument('--search-ports', type=int, default=0)
    ap.add_argument('--banks', type=int, default=1)
    ap.add_argument('--name', default='array')
    ap.add_argument('--cache-dir', help='keep results here (key: configuration and binary)')
    a = ap.parse_args(argv)
    if a.cam and a.search_ports < 1:
        ap.error('--cam needs --search-ports 1 or more')
    if a.search_ports and not a.cam:
        ap.error('--search-ports is for a CAM: add --cam')
    rw = a.rw_ports
    if rw is None:  # one read-write port unless exclusive ports are given
        rw = 0 if (a.rd_ports or a.wr_ports) else 1
    array = Array(a.name, a.entries, a.width, rw, a.rd_ports, a.wr_ports, a.search_ports,
                  a.banks)
    try:
        check(array, a.node)
    except CactiError as e:
        ap.error(str(e))
    try:
        fig = run(array, a.node, a.cacti_dir, a.cache_dir)
    except FileNotFoundError as e:
        print(f'cacti: {e}', file=sys.stderr)
        return 2
    except CactiError as e:
        print(f'cacti: {e}', file=sys.stderr)
        return 1
    json.dump(fig.to_json(), sys.stdout, indent=1)
    print()
    return 0


if __name__ == '__main__':
    sys.exit(main())
