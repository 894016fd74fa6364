#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs independent shell commands in parallel; used at configure time for the Yosys netlists.

    run_jobs.py --jobs N FILE

FILE holds one job per line: "<label>\t<command>". Prints one line per finished job; exits 1
after all jobs have ended if any failed (naming them), 2 on bad usage.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("file")
    a = ap.parse_args()
    if a.jobs < 1:
        print("run_jobs.py: --jobs must be at least 1", file=sys.stderr)
        return 2
    jobs = []
    with open(a.file, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            if "\t" not in line:
                print(f"run_jobs.py: {a.file}:{n}: expected '<label>\\t<command>'", file=sys.stderr)
                return 2
            jobs.append(tuple(line.split("\t", 1)))

    def run(job):
        label, cmd = job
        t0 = time.monotonic()
        rc = subprocess.run(cmd, shell=True).returncode
        return label, rc, time.monotonic() - t0

    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for label, rc, secs in ex.map(run, jobs):
            print(f"-- {label}: {'done' if rc == 0 else 'FAILED'} ({secs:.0f} s)", flush=True)
            if rc != 0:
                failed.append(label)
    if failed:
        print("run_jobs.py: failed: " + ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
