#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The host program (`htmsim proto`) against the Verilated board top (`htm_proto_sim`).

Starts the board simulation behind a pseudo-terminal and runs the host program on it: whole
runs of the three workloads with the golden twin compared counter by counter, a run the board
refuses, malformed commands (each answered with its status code, and the board still serving
afterwards), and the failures the host must report with a message and a non-zero exit: a
missing port, a board that stays mute, a line that corrupts a reply. Every case is named in the
output; the first failure exits 1 with the command and its output.

Usage: proto_host_test.py --sim BUILD/tb/proto/htm_proto_sim --htmsim BUILD/sim/htmsim --dir DIR
"""
import argparse
import os
import re
import subprocess
import sys
import time


class Board:
    """One htm_proto_sim process and its pseudo-terminal."""

    def __init__(self, sim, directory, name, extra=()):
        self.link = os.path.join(directory, name + '.tty')
        if os.path.lexists(self.link):
            os.unlink(self.link)
        self.log = open(os.path.join(directory, name + '.log'), 'w')
        self.proc = subprocess.Popen(
            [sim, '--pty-link', self.link, '--max-seconds', '800', *extra],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while not os.path.lexists(self.link):
            if self.proc.poll() is not None or time.time() > deadline:
                sys.exit(f'FAIL: htm_proto_sim {name} did not come up (see {self.log.name})')
            time.sleep(0.05)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


class Runner:
    def __init__(self, htmsim):
        self.htmsim = htmsim
        self.cases = 0

    def run(self, name, args, rc, patterns=(), absent=(), timeout=600):
        """Runs `htmsim proto ARGS`; its exit status must be `rc` and its output (stdout and
        stderr) must match every pattern and none of `absent`."""
        cmd = [self.htmsim, 'proto', *args]
        t0 = time.time()
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        out = p.stdout + p.stderr
        bad = []
        if p.returncode != rc:
            bad.append(f'exit status {p.returncode}, expected {rc}')
        bad += [f'no match for /{x}/' for x in patterns if not re.search(x, out)]
        bad += [f'unexpected /{x}/' for x in absent if re.search(x, out)]
        if bad:
            print(f'FAIL {name}: {"; ".join(bad)}\n  command: {" ".join(cmd)}\n{out}')
            sys.exit(1)
        self.cases += 1
        print(f'ok   {name} ({time.time() - t0:.1f} s)')
        return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--sim', required=True)
    ap.add_argument('--htmsim', required=True)
    ap.add_argument('--dir', required=True)
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    r = Runner(a.htmsim)
    twin_ok = r'golden twin \(golden::SysModel\): every counter and the check equal'
    check_ok = r'final state checked on the board: OK'

    board = Board(a.sim, a.dir, 'board')
    try:
        port = ['--port', board.link, '--timeout-ms', '5000']
        out = r.run('ident', port + ['--ident'], 0,
                    [r'subsystem: 2 cores x 2 warps x 4 lanes, 2 partitions, 512 words',
                     r'NumCores=2 .*XbarFifoDepth=2'])
        # Whole runs, each compared with the golden twin built from IDENT's parameters.
        r.run('atm', port + ['-w', 'ATM-P', '--threads', '96', '--objects-log2', '5',
                             '--seed', '3', '--twin'], 0,
              [check_ok, twin_ok, r'transactions committed +96\n', r'tries +\d+'])
        r.run('ht', port + ['-w', 'HT-P', '--threads', '64', '--objects-log2', '3',
                            '--seed', '5', '--twin'], 0,
              [check_ok, twin_ok, r'transactions committed +64\n'])
        r.run('eb', port + ['-w', 'EB-P', '--threads', '48', '--objects-log2', '4',
                            '--reads', '2', '--writes', '1', '--cold', '1', '--seed', '7',
                            '--twin'], 0,
              [check_ok, twin_ok, r'transactions committed +48\n'])
        # A run too large for the subsystem's 512 words: refused by the run control (code 4).
        r.run('refused', port + ['-w', 'ATM-P', '--threads', '8', '--objects-log2', '9'], 1,
              [r'the board refused the run: code 4'])
        # Malformed commands: each answered with its status; the board serves on afterwards.
        r.run('bad_crc', port + ['--send', '48 04 00'], 0, [r'reply: 68 01 04 .. \(BadCrc\)'])
        r.run('bad_field', port + ['--send', '48 05 09 ' + crc_hex([0x05, 0x09])], 0,
              [r'reply: 68 03 05 .. \(BadField\)'])
        r.run('unknown_op', port + ['--send', '48 77'], 0, [r'reply: 68 02 77 .. \(UnknownOp\)'])
        time.sleep(0.5)  # the board drops bytes until the line has been quiet for its timeout
        r.run('truncated', port + ['--send', '48 02 00 01'], 0,
              [r'reply: 68 05 02 .. \(BadFrame\)'])
        r.run('still_serving', port + ['-w', 'ATM-P', '--threads', '16', '--objects-log2', '3',
                                       '--seed', '9', '--twin'], 0, [check_ok, twin_ok])
        # htmsim run's small scale (256 threads, 128 accounts), and a run repeated on the same
        # board: every run starts from reset, so it does not depend on the runs before it.
        r.run('atm_small_scale', port + ['-w', 'ATM-P', '--scale', 'small', '--seed', '11',
                                         '--twin'], 0,
              [check_ok, twin_ok, r'transactions committed +256\n'])
        r.run('eb_again', port + ['-w', 'EB-P', '--threads', '48', '--objects-log2', '4',
                                  '--reads', '2', '--writes', '1', '--cold', '1', '--seed', '7',
                                  '--twin'], 0, [check_ok, twin_ok])
    finally:
        board.close()

    # The host's own failures: a message and exit 1, never a hang.
    r.run('missing_port', ['--port', os.path.join(a.dir, 'no_such_tty'), '--ident'], 1,
          [r'cannot open'])
    # A board that never answers, and a line that flips a bit of IDENT's reply.
    for name, extra, expect in (
            ('mute', ['--mute-after', '0'], r'a reply did not come from the board within 500 ms'),
            ('corrupt', ['--corrupt-reply', '12'], r'corrupted reply: CRC')):
        with Board(a.sim, a.dir, name, extra) as b:
            r.run(name, ['--port', b.link, '--timeout-ms', '500', '--ident'], 1, [expect])
    print(f'{r.cases} cases passed')


def crc_hex(data):
    """CRC-8 (0x07) of `data` as two hexadecimal digits (docs/proto.md, "Frames")."""
    c = 0
    for b in data:
        c ^= b
        for _ in range(8):
            c = ((c << 1) ^ 0x07) & 0xFF if c & 0x80 else (c << 1) & 0xFF
    return f'{c:02x}'


if __name__ == '__main__':
    main()
