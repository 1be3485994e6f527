"""The table of tools/gpu.sh peer: each multi-GPU case and halo path against
one GPU's --comm none step of the same box, measured in the same call.

usage: report-table.py peer RESULTS_FOLDER [--out FILE]

Weak cases (the same box per GPU) give one GPU's step over the step of the
case (efficiency, 100% is perfect); the strong case gives the speed-up,
one GPU's step over the case's. Each round's reports are paired with that
round's one-GPU runs; the table shows every round, then the median.
The step is the slowest rank's mean (phases_ms.step.max). With --out, the
table is also written to FILE, a new file (one already there is refused).
A folder with no case and its one-GPU run in the same round is refused.
"""
import glob
import os
import re
import statistics

from tool_errors import ToolError, load_json

CASES = {  # case: (one-GPU baseline, kind)
    "two-weak512": ("one-512", "weak"),
    "two-weak128": ("one-128", "weak"),
    "two-strong256": ("one-256", "strong"),
    "four-weak512": ("one-512", "weak"),
    "four-weak128": ("one-128", "weak"),
    "four-strong256": ("one-256", "strong"),
    "four-strong512": ("one-512", "strong"),
}


def step_ms(path):
    return load_json(path)["phases_ms"]["step"]["max"]


def main(args):
    out = None
    if len(args) == 3 and args[1] == "--out":
        args, out = args[:1], args[2]
    if len(args) != 1 or args[0].startswith("-"):
        raise ToolError("usage: report-table.py peer RESULTS_FOLDER [--out FILE]")
    folder = args[0]
    if out and os.path.exists(out):
        raise ToolError(f"--out {out}: there already; nothing is overwritten")
    if not os.path.isdir(folder):
        raise ToolError(f"{folder}: no such folder")
    runs = {}
    for path in glob.glob(os.path.join(folder, "r*-*.json")):
        m = re.match(r"r(\d+)-(.+)\.json$", os.path.basename(path))
        if m:
            runs[(int(m.group(1)), m.group(2))] = step_ms(path)
    rounds = sorted({r for r, _ in runs})
    rows = [["case", "path", "steps ms (rounds)", "over one GPU, per round", "median"]]
    for case, (base, kind) in CASES.items():
        modes = sorted({n[len(case) + 1:] for _, n in runs if n.startswith(case + "-")})
        for mode in modes:
            steps, ratios = [], []
            for r in rounds:
                if (r, f"{case}-{mode}") in runs and (r, base) in runs:
                    s, one = runs[(r, f"{case}-{mode}")], runs[(r, base)]
                    steps.append(f"{s:.4f}")
                    ratios.append(one / s)
            if not ratios:
                continue
            fmt = (lambda x: f"{100 * x:.0f}%") if kind == "weak" else (lambda x: f"{x:.2f}x")
            rows.append([case, mode, " ".join(steps), " ".join(fmt(x) for x in ratios),
                         fmt(statistics.median(ratios))])
    for r in rounds:
        for base in ("one-512", "one-128", "one-256"):
            if (r, base) in runs:
                rows.append([f"one GPU {base[4:]}^3", "none", f"{runs[(r, base)]:.4f}", f"round {r}", ""])
    if not any(row[0] in CASES for row in rows):
        raise ToolError(f"{folder}: no case run with its one-GPU run in the same round (r1-one-512.json "
                        "beside r1-two-weak512-peer.json): nothing to tabulate")
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    text = "\n".join("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows)
    print(text)
    if out:
        with open(out, "x") as f:
            f.write(text + "\n")
    return 0

