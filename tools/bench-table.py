#!/usr/bin/env python3
"""Short table of a stencil-bench JSON report, and the performance targets.

usage: bench-table.py BENCH.json [--markdown]
"""
import json
import sys

from text_table import print_table


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    data = json.load(open(sys.argv[1]))
    md = "--markdown" in sys.argv
    ctx = data.get("context", {})
    rows = {}
    for b in data["benchmarks"]:
        parts = b["name"].split("/")
        if parts[0] == "copy":
            key = ("copy", "-", parts[1])
        else:
            key = (parts[0], parts[1], parts[2])
        rows[key] = b
    print(f"device: {ctx.get('device')} | {ctx.get('runtime')} | {ctx.get('tuning')} | {ctx.get('date')}")
    header = ["kernel", "R", "size", "ms", "GB/s", "of copy", "Gcell/s"]
    lines = []
    for (name, r, size), b in rows.items():
        lines.append([name, r, size, "%.3f" % b["real_time"], "%.0f" % b.get("GB/s", 0),
                      "%.0f%%" % (100 * b.get("copy_ratio", 0)), "%.1f" % b.get("Gcell/s", 0)])
    print_table(header, lines, md)

    # The targets of the kernels issue, where the run measured them.
    checks = []
    for size in sorted({k[2] for k in rows}):
        fused, wave, three = (rows.get(("fused_xyz", "R4", size)), rows.get(("wave", "R4", size)),
                              rows.get(("baseline_3pass", "R4", size)))
        if fused:
            checks.append((f"fused_xyz R4 {size}: {100*fused['copy_ratio']:.0f}% of copy (target >= 80%)",
                           fused["copy_ratio"] >= 0.80))
        if wave:
            checks.append((f"wave R4 {size}: {100*wave['copy_ratio']:.0f}% of copy (target >= 75%)",
                           wave["copy_ratio"] >= 0.75))
        if fused and three:
            speedup = three["real_time"] / fused["real_time"]
            checks.append((f"fused_xyz vs 3 baseline passes R4 {size}: {speedup:.2f}x (target >= 2x)",
                           speedup >= 2.0))
    for text, ok in checks:
        print(("PASS " if ok else "MISS ") + text)


if __name__ == "__main__":
    main()
