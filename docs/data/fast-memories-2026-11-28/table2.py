#!/usr/bin/env python3
"""The short table of call2.sh: stencil-bench at 512^3 per tree and round,
and the mini-app's --comm none step per tree, size and round.

usage: table2.py OUT_FOLDER
  OUT_FOLDER/bench/TREE-rN.json  stencil-bench reports (TREE: base, depth1, new)
  OUT_FOLDER/runs/TREE-SIZE-rN.json  stencil-miniapp reports
A missing file is a blank cell: call2.sh skips what time does not allow.
"""
import glob
import json
import os
import re
import sys

TREES = ("base", "depth1", "new")
ROUNDS = (1, 2)
BENCHES = [("copy", "-", "fp32"), ("wave", "R1", "fp32"), ("wave", "R4", "fp32"),
           ("wave", "R8", "fp32"), ("fused_xyz", "R4", "fp32"), ("fused_xyz", "R8", "fp32"),
           ("copy", "-", "fp64"), ("wave", "R4", "fp64")]


def bench_rows(folder):
    """{(tree, round): {(kernel, R, precision): benchmark}} from the bench reports."""
    found = {}
    for path in glob.glob(os.path.join(folder, "bench", "*-r[0-9]*.json")):
        m = re.match(r"(\w+)-r(\d+)(?:-\w+)?\.json$", os.path.basename(path))
        if not m:
            continue
        try:
            data = json.load(open(path))
        except (OSError, ValueError):
            continue
        rows = found.setdefault((m.group(1), int(m.group(2))), {})
        for b in data.get("benchmarks", []):
            if b.get("error_occurred"):
                continue
            parts = [p for p in b["name"].split("/") if p != "manual_time"]
            key = ("copy", "-", parts[1]) if parts[0] == "copy" else tuple(parts[:3])
            rows[key] = b
    return found


def cell(b, is_copy):
    if not b:
        return ""
    if is_copy:
        return "%.0f GB/s" % b.get("GB/s", 0)
    return "%.1f%%" % (100 * b.get("copy_ratio", 0))


def mean_time(found, tree, key):
    times = [found.get((tree, r), {}).get(key, {}).get("real_time") for r in ROUNDS]
    times = [t for t in times if t]
    return sum(times) / len(times) if times else None


def print_rows(header, lines):
    widths = [max(len(str(x)) for x in col) for col in zip(header, *lines)]
    for line in [header] + lines:
        print("  ".join(str(x).rjust(w) for x, w in zip(line, widths)))


def bench_table(folder):
    found = bench_rows(folder)
    print("stencil-bench 512^3: % of the same run's copy (copy: GB/s); base/new: base's time "
          "over new's (above 1: new is faster), the mean of the rounds")
    header = ["kernel"] + ["%s r%d" % (t, r) for t in TREES for r in ROUNDS] + \
        ["base/new", "depth1/new"]
    lines = []
    for key in BENCHES:
        kernel, radius, precision = key
        name = "%s %s %s" % (kernel, radius, precision) if radius != "-" else "copy " + precision
        line = [name] + [cell(found.get((t, r), {}).get(key), kernel == "copy")
                         for t in TREES for r in ROUNDS]
        new = mean_time(found, "new", key)
        for other in ("base", "depth1"):
            t = mean_time(found, other, key)
            line.append("%.3f" % (t / new) if t and new else "")
        lines.append(line)
    print_rows(header, lines)


def app_table(folder):
    print("\nmini-app --comm none, one GPU, R = 4: step (us, max over ranks)")
    header = ["size"] + ["%s r%d" % (t, r) for t in ("base", "new") for r in ROUNDS] + ["base/new"]
    lines = []
    for n in (64, 128, 512):
        line, means = ["%d^3" % n], {}
        for tree in ("base", "new"):
            steps = []
            for r in ROUNDS:
                path = os.path.join(folder, "runs", "%s-%d-r%d.json" % (tree, n, r))
                try:
                    step = json.load(open(path))["phases_ms"]["step"]["max"] * 1000
                except (OSError, ValueError, KeyError, TypeError):
                    line.append("")
                    continue
                steps.append(step)
                line.append("%.1f" % step)
            means[tree] = sum(steps) / len(steps) if steps else None
        line.append("%.3f" % (means["base"] / means["new"]) if means["base"] and means["new"] else "")
        lines.append(line)
    print_rows(header, lines)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    bench_table(sys.argv[1])
    app_table(sys.argv[1])
