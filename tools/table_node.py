"""The table of tools/gpu.sh node: each timed run against one GPU's
--comm none step of the same box, from the same round and the same build.

usage: report-table.py node RUNS_FOLDER [--markdown]

Reports are named rN-CASE.json (round N). A run labelled weak is paired with
the one-GPU run (labelled one, --comm none) whose grid is its box per rank,
and shows the efficiency (one GPU's step over the run's; 100% is perfect).
A run labelled strong is paired with the one-GPU run of the same grid, and
shows the speed-up. A baseline shares the run's revision, radius and
precision; without one the row shows "-". A report of another label, a
step that is no positive number, or a case that differs between rounds is
refused in one line (exit 2). The
step is the slowest rank's mean (phases_ms.step.max). Each round is shown,
then the median of the rounds.
"""
import glob
import os
import re
import statistics

from text_table import print_table
from tool_errors import ToolError, load_json


def step_ms(report):
    return report["phases_ms"]["step"]["max"]


def baseline_key(report, grid):
    """What a baseline shares with the runs it serves: the build, the box,
    the radius and the precision."""
    return (report.get("revision"), tuple(grid), report["radius"], report["precision"])


def is_triple(value):
    return isinstance(value, list) and len(value) == 3 and \
        all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)


def report_problem(r):
    """Why `r` cannot be a row or a baseline of this table, or None."""
    if not isinstance(r, dict) or r.get("program") != "stencil-miniapp":
        return "not a stencil-miniapp report"
    if r.get("label") not in ("weak", "strong", "one"):
        return f"label {r.get('label')!r} is not weak, strong or one (tools/gpu.sh node's labels)"
    try:
        step = step_ms(r)
    except (KeyError, TypeError):
        return "no phases_ms.step.max"
    if isinstance(step, bool) or not isinstance(step, (int, float)) or not 0 < step < float("inf"):
        return f"the step time {step!r} is not a positive number of ms"
    for field in ("grid", "local_rank0", "procs"):
        if not is_triple(r.get(field)):
            return f"{field} is not three positive integers"
    if not isinstance(r.get("ranks"), int) or not isinstance(r.get("radius"), int) or \
            not isinstance(r.get("comm"), str) or not isinstance(r.get("precision"), str):
        return "ranks, radius, comm or precision missing or of another kind"
    return None


def load_rounds(folder):
    """{round: {case: report}} from the folder's rN-CASE.json files."""
    if not os.path.isdir(folder):
        raise ToolError(f"{folder}: no such folder")
    rounds = {}
    for path in sorted(glob.glob(os.path.join(folder, "r*-*.json"))):
        match = re.match(r"r(\d+)-(.+)\.json$", os.path.basename(path))
        if match:
            report = load_json(path)
            if (why := report_problem(report)) is not None:
                raise ToolError(f"{path}: {why}")
            cases = rounds.setdefault(int(match.group(1)), {})
            if match.group(2) in cases:
                raise ToolError(f"{path}: round {int(match.group(1))} has {match.group(2)} twice")
            cases[match.group(2)] = report
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


def main(argv):
    args = [a for a in argv if a != "--markdown"]
    if len(args) != 1 or args[0].startswith("-"):
        raise ToolError("usage: report-table.py node RUNS_FOLDER [--markdown]")
    rounds = load_rounds(args[0])
    per_round = {n: ratios(reports) for n, reports in sorted(rounds.items())}
    cases = sorted({c for table in per_round.values() for c in table})
    rows = []
    for case in cases:
        seen = [table[case] for table in per_round.values() if case in table]
        r = seen[0][0]
        for other, _, _ in seen[1:]:
            if any(other[k] != r[k] for k in ("label", "ranks", "procs", "comm", "grid", "radius", "precision")):
                raise ToolError(f"case {case} is not the same run in every round (label, ranks, procs, "
                                "comm, grid, radius or precision differ)")
        values = [v for _, _, v in seen if v is not None]
        kind = "efficiency" if r["label"] == "weak" else "speed-up"
        shown = [f"{v:.0%}" if kind == "efficiency" else f"{v:.2f}x" for v in values]
        median = statistics.median(values) if values else None
        rows.append([case, str(r["ranks"]), ",".join(map(str, r["procs"])), r["comm"],
                     {True: "on", False: "off"}.get(r.get("overlap"), "-"), str(r.get("halo_depth", "-")),
                     " ".join(f"{step_ms(t[0]):.4f}" for t in seen),
                     " ".join(f"{t[1]:.4f}" if t[1] else "-" for t in seen), kind, " ".join(shown) or "-",
                     "-" if median is None else (f"{median:.0%}" if kind == "efficiency" else f"{median:.2f}x")])
    print_table(["case", "ranks", "procs", "comm", "overlap", "depth", "step ms", "one GPU ms", "shows",
                 "per round", "median"], rows, markdown="--markdown" in argv)

