# SPDX-License-Identifier: Apache-2.0
"""Reading an htmsim suite output directory (shared by compare_runs.py and speed_table.py)."""
import json
import os


def load(d):
    """The runs of results.jsonl in directory d, by (workload, tm). Raises OSError when the file
    is missing, ValueError naming the line when a line is not JSON, KeyError when a run has no
    workload or tm."""
    runs = {}
    with open(os.path.join(d, "results.jsonl"), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            try:
                j = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{d}/results.jsonl line {n}: {e}") from e
            runs[(j["workload"], j["tm"])] = j
    return runs
