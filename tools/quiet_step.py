#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs one step of a make target with its output in a log file and one line on the terminal.

    quiet_step.py --log FILE --label TEXT -- COMMAND [ARG...]

The command's output (stdout and stderr) goes to FILE (its directory is created). The terminal
gets one line: TEXT, with the progress of a Ninja build ("[n/N]" lines) updated in place when
stdout is a terminal (every quarter otherwise), then the time it took. When the command fails,
the last lines of FILE are printed with its name, and the command's exit status is returned.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import time

NINJA = re.compile(r"^\[(\d+)/(\d+)\]")
TAIL = 40


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        print("quiet_step.py: no command", file=sys.stderr)
        return 2
    os.makedirs(os.path.dirname(os.path.abspath(a.log)), exist_ok=True)
    tty = sys.stdout.isatty()
    start = time.monotonic()
    shown = 0

    def show(text, final=False):
        nonlocal shown
        if tty:
            sys.stdout.write("\r" + text + " " * max(0, shown - len(text)) + ("\n" if final else ""))
            shown = 0 if final else len(text)
        else:
            sys.stdout.write(text + "\n")
        sys.stdout.flush()

    show(a.label + " ...", final=not tty)
    tail = collections.deque(maxlen=TAIL)
    quarter = 0
    with open(a.log, "w", encoding="utf-8", errors="replace") as log:
        log.write("$ " + " ".join(cmd) + "\n")
        log.flush()
        try:
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, text=True, errors="replace")
        except OSError as e:
            show(f"{a.label}: cannot run {cmd[0]}: {e}", final=True)
            return 127
        for line in proc.stdout:
            log.write(line)
            tail.append(line)
            m = NINJA.match(line)
            if m:
                done, total = int(m.group(1)), int(m.group(2))
                if tty:
                    show(f"{a.label} [{done}/{total}]")
                elif total and done * 4 // total > quarter:
                    quarter = done * 4 // total
                    show(f"{a.label} [{done}/{total}]")
        rc = proc.wait()
    seconds = time.monotonic() - start
    if rc == 0:
        show(f"{a.label}: done in {seconds:.0f} s (log: {a.log})", final=True)
        return 0
    show(f"{a.label}: FAILED (exit {rc}) after {seconds:.0f} s; the last lines of {a.log}:",
         final=True)
    sys.stdout.write("".join(tail))
    print(f"--- the whole log: {a.log}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
