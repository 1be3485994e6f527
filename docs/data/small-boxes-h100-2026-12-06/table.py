#!/usr/bin/env python3
"""The small-box table of one call: Gcell/s and µs a step by variant and box,
each round, the update's own time and the rest of the step, from the
mini-app's JSON reports (FOLDER/VARIANT-N-rROUND.json)."""
import glob
import json
import os
import re
import sys
from collections import defaultdict


def main(folder):
    rows = defaultdict(list)
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        m = re.match(r"(.+)-(\d+)-r(\d+)\.json$", os.path.basename(path))
        if not m:
            continue
        with open(path) as f:
            r = json.load(f)
        step = r["phases_ms"]["step"]["avg"] * 1e3
        update = r["phases_ms"]["interior"]["avg"] * 1e3
        shape = r["shapes"][0] if r.get("shapes") else {}
        rows[(m.group(1), int(m.group(2)))].append(
            (r["gcells_per_s_total"], step, update, r["timed_window_s"], shape.get("body", "tile"),
             r.get("steps_per_graph", 1), "warn" if r.get("timing_warning") else ""))
    print(f"{'variant':<12}{'box':>5}  {'Gcell/s (rounds)':<22}{'step us':>9}{'update':>9}{'rest':>7}  window  body/spg")
    for (variant, n), runs in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        g = " / ".join(f"{x[0]:.1f}" for x in runs)
        step = sum(x[1] for x in runs) / len(runs)
        update = sum(x[2] for x in runs) / len(runs)
        window = min(x[3] for x in runs)
        print(f"{variant:<12}{n:>5}  {g:<22}{step:>9.2f}{update:>9.2f}{step - update:>7.2f}  {window:5.2f}s  "
              f"{runs[0][4]}/{runs[0][5]} {runs[0][6]}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "runs")
