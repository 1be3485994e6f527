#!/usr/bin/env python3
"""The table of tools/gpu-node.sh: each timed run against one GPU's
--comm none step of the same box, from the same round and the same build.

usage: tools/node-table.py RUNS_FOLDER [--markdown]

Reports are named rN-CASE.json (round N). A run labelled weak is paired with
the one-GPU run whose grid is its box per rank, and shows the efficiency
(one GPU's step over the run's; 100% is perfect). A run labelled strong is
paired with the one-GPU run of the same grid, and shows the speed-up. The
step is the slowest rank's mean (phases_ms.step.max). Each round is shown,
then the median of the rounds.
"""
import glob
import os
import re
import statistics
import sys

from text_table import print_table
from tool_errors import ToolError, load_json, run


def step_ms(report):
    return report["phases_ms"]["step"]["max"]


def baseline_key(report, grid):
    return (report.get("revision"), tuple(grid))


def load_rounds(folder):
    """{round: {case: report}} from the folder's rN-CASE.json files."""
    rounds = {}
    for path in sorted(glob.glob(os.path.join(folder, "r*-*.json"))):
        match = re.match(r"r(\d+)-(.+)\.json$", os.path.basename(path))
        if match:
            report = load_json(path)
            if not isinstance(report, dict) or report.get("program") != "stencil-miniapp":
                raise ToolError(f"{path}: not a stencil-miniapp report")
            rounds.setdefault(int(match.group(1)), {})[match.group(2)] = report
    if not rounds:
        raise ToolError(f"no rN-CASE.json report in {folder}")
    return rounds


def ratios(reports):
    """{case: (report, one-GPU step, ratio)} of one round."""
    ones = {baseline_key(r, r["grid"]): r for r in reports.values()
            if r.get("ranks") == 1 and r.get("comm") == "none"}
    out = {}
    for case, r in reports.items():
        label = r.get("label")
        if label not in ("weak", "strong"):
            continue
        grid = r["local_rank0"] if label == "weak" else r["grid"]
        one = ones.get(baseline_key(r, grid))
        base = step_ms(one) if one else None
        out[case] = (r, base, base / step_ms(r) if base else None)
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        raise ToolError("usage: node-table.py RUNS_FOLDER [--markdown]")
    rounds = load_rounds(args[0])
    per_round = {n: ratios(reports) for n, reports in sorted(rounds.items())}
    cases = sorted({c for table in per_round.values() for c in table})
    rows = []
    for case in cases:
        seen = [table[case] for table in per_round.values() if case in table]
        r = seen[0][0]
        values = [v for _, _, v in seen if v is not None]
        kind = "efficiency" if r["label"] == "weak" else "speed-up"
        shown = [f"{v:.0%}" if kind == "efficiency" else f"{v:.2f}x" for v in values]
        median = statistics.median(values) if values else None
        rows.append([case, str(r["ranks"]), ",".join(map(str, r["procs"])), r["comm"],
                     "on" if r.get("overlap") else "off", str(r.get("halo_depth")),
                     " ".join(f"{step_ms(t[0]):.4f}" for t in seen),
                     " ".join(f"{t[1]:.4f}" if t[1] else "-" for t in seen), kind, " ".join(shown) or "-",
                     "-" if median is None else (f"{median:.0%}" if kind == "efficiency" else f"{median:.2f}x")])
    print_table(["case", "ranks", "procs", "comm", "overlap", "depth", "step ms", "one GPU ms", "shows",
                 "per round", "median"], rows, markdown="--markdown" in sys.argv)


if __name__ == "__main__":
    run(main)
