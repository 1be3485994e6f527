#!/usr/bin/env python3
"""The table of this folder's calls: each run's step (the slowest rank's
mean, phases_ms.step.max), the settings it ran with (auto's choice
included), its host post and wait per step, and for the 2,2,1 runs at 64^3
and 128^3 per GPU the weak efficiency against the same call's one-GPU
--comm none run of that box (sweep-N).

usage: table.py RUNS_FOLDER
"""
import glob
import json
import os
import sys


def load(folder):
    runs = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and "phases_ms" in doc:  # the mini-app's reports only
            runs[os.path.basename(path)[:-5]] = doc
    return runs


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: table.py RUNS_FOLDER")
    runs = load(sys.argv[1])
    if not runs:
        sys.exit("table.py: no reports in " + sys.argv[1])
    print(f"{'run':30s} {'comm':10s} {'ovl':4s} {'K':>2s} {'graphs':6s} {'step us':>8s} "
          f"{'post':>6s} {'wait':>6s}  against")
    for name, doc in runs.items():
        ph = doc["phases_ms"]
        step = ph["step"]["max"] * 1000
        post = ph.get("post", {}).get("avg", 0.0) * 1000
        wait = ph.get("wait", {}).get("avg", 0.0) * 1000
        against = ""
        if name.startswith("w"):
            n = name[1:].split("-")[0]
            one = runs.get(f"sweep-{n}")
            if one:
                base = one["phases_ms"]["step"]["max"] * 1000
                against = f"{100 * base / step:.1f}% of one GPU ({base:.1f} us)"
        overlap = "on" if doc.get("overlap") else "off"
        graphs = str(doc.get("graphs", ""))
        print(f"{name:30s} {doc['comm']:10s} {overlap:4s} {doc.get('halo_depth', 1):>2} "
              f"{graphs[:6]:6s} {step:8.1f} {post:6.1f} {wait:6.1f}  {against}")


if __name__ == "__main__":
    main()
