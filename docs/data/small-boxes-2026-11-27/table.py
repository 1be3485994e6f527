#!/usr/bin/env python3
"""The table of this folder's calls: each run's step (the slowest rank's
mean, phases_ms.step.max) and what it is against one GPU's --comm none step
of the same box measured in the same call: weak efficiency (one GPU's step
over the run's), strong speed-up (the same), one GPU's periodic step over
its --comm none step (x), and a "-before" run over this tree's twin.
Runs are named CASE[-rN].json; every round's runs pair with that round's
baselines.

usage: table.py RUNS_FOLDER
"""
import glob
import json
import os
import re
import sys

BASELINE = {"w64": "one-64", "w128": "one-128", "w512": "one-512", "s256": "one-256",
            "s512": "one-512", "one-64P": "one-64", "one-128P": "one-128", "one-256P": "one-256",
            "one-512P": "one-512"}


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: table.py RUNS_FOLDER")
    runs = {}
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
        try:
            doc = json.load(open(path))
            if "phases_ms" in doc:  # the mini-app's reports, not the bench's
                runs[os.path.basename(path)[:-5]] = doc
        except (OSError, ValueError, KeyError):
            continue
    if not runs:
        sys.exit("table.py: no reports in " + sys.argv[1])
    print(f"{'run':28s} {'comm':10s} {'overlap':8s} {'step us':>9s}  against")
    for name, doc in runs.items():
        step = doc["phases_ms"]["step"]["max"] * 1000
        base, suffix = re.match(r"(.*?)(-r\d+)?$", name).groups()
        suffix = suffix or ""
        head = base.split("-")[0] if not base.startswith("one-") else "-".join(base.split("-")[:2])
        against = ""
        if base.endswith("-before"):
            twin = runs.get(base[: -len("-before")] + suffix)
            if twin:
                now = twin["phases_ms"]["step"]["max"] * 1000
                against = f"now {now:.1f} us: {step / now:.3f}x before over now"
        elif head in BASELINE and BASELINE[head] + suffix in runs:
            one = runs[BASELINE[head] + suffix]["phases_ms"]["step"]["max"] * 1000
            if head.startswith("w"):
                against = f"{100 * one / step:.1f}% of one GPU ({one:.1f} us)"
            elif head.startswith("s"):
                against = f"{one / step:.2f}x one GPU ({one:.1f} us)"
            else:
                against = f"{step / one:.3f}x its --comm none ({one:.1f} us)"
        overlap = "on" if doc.get("overlap") else "off"
        print(f"{name:28s} {doc['comm']:10s} {overlap:8s} {step:9.1f}  {against}")
        if doc.get("comm_reason", "").startswith("auto: peer") or "not peer" in doc.get(
                "comm_reason", "") or "through" in doc.get("comm_reason", ""):
            print(f"{'':28s} ({doc['comm_reason']})")


if __name__ == "__main__":
    main()
