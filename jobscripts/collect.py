#!/usr/bin/env python3
"""Scaling tables and plots from a folder of stencil-miniapp JSON reports.

usage: collect.py RESULTS_DIR [--out DIR] [--verify]

Reads every *.json report under RESULTS_DIR (written with --report; the job
scripts add --label weak or --label strong, optionally with a suffix such as
weak-nccl). A series is the runs that are comparable: one box per rank
(weak) or one grid (strong), R, and every other field of the report that
changes the work or the code (jobscripts/report_rules.py: precision, edges,
model, sponge, OpenMP threads, device, revision, and the halo depth, comm,
overlap and pack asked for, "auto" where the run chose); each is measured
against its own smallest rank count and named by what differs from the
folder's other series. Runs with test aids or a failed --check are left
out, each named. Rows and points from runs under 0.5 s of timed steps are
marked. Writes into --out (default RESULTS_DIR):

  scaling.md, scaling.csv   ranks, grid, decomposition, time/step, Gcell/s,
                            efficiency, comm hidden %, imbalance (max/avg step)
  weak_efficiency.png       weak-scaling efficiency against ranks, with ideal
  strong_speedup.png        strong-scaling speed-up against ranks, with ideal
                            (points of short windows or slow nodes ringed)
  phases.png                per-phase time per step for each run, a bar each
                            (a second run of a rank count too)

Files of these names already in --out are written over only where
collect.py wrote them (scaling.md's first line, scaling.csv's header and
a text chunk of each PNG say so); any other, and a symbolic link of those
names (a write would go into the file it points at), is named, and
nothing is written. --verify checks that the PNGs exist, are valid images and are not blank
(exit 1 otherwise). Each report is checked against schemas/report.json
with Debian's python3-jsonschema: a damaged one is one line naming the
file and the field. The plots need Debian's python3-matplotlib (nothing
from pip); without it the tables are written, older plots of the folder
removed, and one line says so.
"""
import argparse
import csv
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "tools"))
import report_rules  # noqa: E402
import scaling_plots  # noqa: E402
from checked import ToolError, checked  # noqa: E402
from tool_errors import OneLineParser, refuse_constant, run, unique_keys  # noqa: E402

PHASES = scaling_plots.PHASES
PLOTS = ("weak_efficiency.png", "strong_speedup.png", "phases.png")
# scaling.md opens with this line, which marks it as collect.py's to write
# over; a scaling.md without it (a user's notes) is never touched.
MD_MARK = "<!-- written by jobscripts/collect.py, which writes over a scaling.md only where this line opens it -->"
# scaling.csv's header is its mark: a CSV has no place for a comment.
CSV_HEADER = ["series", "ranks", "grid", "decomposition", "ran with", "step_ms", "gcells_per_s", "efficiency",
              "speedup", "comm_hidden", "imbalance", "interior_launch_shape", "short_window", "base_report",
              "slower_than_trial"]


def written_here(path):
    """True where the file at `path`, one of collect.py's outputs, carries
    collect.py's mark."""
    if path.endswith(".png"):
        return scaling_plots.marked(path)
    try:
        with open(path, newline="") as f:
            first = f.readline().rstrip("\r\n")
    except (OSError, UnicodeDecodeError):
        return False  # a folder of that name, or a binary file: not ours
    return first == (MD_MARK if path.endswith(".md") else ",".join(CSV_HEADER))


def refuse_foreign(out):
    """A ToolError, before anything is written, where `out` holds a file of
    an output's name that collect.py did not write, or a symbolic link of
    such a name: writing over the one would lose the user's file, writing
    through the other would change the file it points at, wherever that is."""
    names = ("scaling.md", "scaling.csv") + PLOTS
    linked = [name for name in names if os.path.islink(os.path.join(out, name))]
    if linked:
        raise ToolError(f"{', '.join(linked)} in {out}: symbolic link{'s' if len(linked) > 1 else ''}, and "
                        "collect.py writes through none (the file linked to would change): nothing is written; "
                        f"remove {'them' if len(linked) > 1 else 'it'}, or choose another --out")
    foreign = [name for name in names
               if os.path.lexists(os.path.join(out, name)) and not written_here(os.path.join(out, name))]
    if foreign:
        raise ToolError(f"{', '.join(foreign)} in {out}: there already, and not written by collect.py "
                        "(no mark of it; an older collect.py's carry none): nothing is written; "
                        f"move {'them' if len(foreign) > 1 else 'it'} aside, or choose another --out")


def load(folder):
    """The mini-app's reports under `folder`, each checked against
    schemas/report.json: a hand-edited or damaged report is one line naming
    the file and the field. Other JSON (a tuning cache, a sidecar) is not
    ours and is passed over; a *.json that is not JSON at all is named."""
    reports = []
    for root, _, files in os.walk(folder):
        for name in sorted(files):
            if not name.endswith(".json"):
                continue
            path = os.path.join(root, name)
            try:
                with open(path) as f:
                    r = json.load(f, parse_constant=refuse_constant, object_pairs_hook=unique_keys)
            except ValueError as e:  # NaN and Infinity too: no check would catch them later
                print(f"collect: {path}: not valid JSON ({e}): left out", file=sys.stderr)
                continue
            except (OSError, RecursionError):
                print(f"collect: {path}: not JSON that can be read: left out", file=sys.stderr)
                continue
            if not r or not isinstance(r, dict):
                print(f"collect: {path}: empty, or not a JSON object: left out", file=sys.stderr)
                continue
            if r.get("program") != "stencil-miniapp":
                continue  # a tuning cache, a sidecar: not ours
            checked(r, "report", path, "a stencil-miniapp report")
            if r["ranks"] != r["procs"][0] * r["procs"][1] * r["procs"][2]:
                raise ToolError(f"{path}: ranks {r['ranks']} is not the product of procs "
                                f"{'x'.join(map(str, r['procs']))}")
            why = report_rules.refusal(r)  # a wrong answer, or planted work, has no speed to show
            if why:
                print(f"collect: {path} {why}: left out", file=sys.stderr)
                continue
            r["_path"] = path
            reports.append(r)
    return reports


def study(label):
    return "weak" if label.startswith("weak") else "strong" if label.startswith("strong") else None


def series_key(r):
    """The run's series key: (name, value) pairs, the label, the box per
    rank (weak) or the grid (strong) and R first, then every field
    report_rules.RULES makes a key, and any field it does not know. A
    report from before `asked` (2026-11-27) whose run had no halo face (one
    rank, no periodic edge) cannot say what the study asked of the
    exchange: those fields are "*", and it is the base of a series it
    matches that has no one-rank run of its own."""
    box = r.get("local_rank0") if study(r["label"]) == "weak" else r["grid"]
    key = [("label", r["label"]), ("box", "x".join(map(str, box or r["grid"]))), ("R", r["radius"])]
    key += report_rules.key_parts(r, "collect")
    if "asked" not in r and r.get("halo_faces_rank0", 1) == 0 and r.get("ranks", 1) == 1:
        key = [(name, "*" if name in report_rules.EXCHANGE else value) for name, value in key]
    return tuple(key)


def matches(wild, key):
    return len(wild) == len(key) and all(w == k or w[1] == "*" for w, k in zip(wild, key))


def wildcard(key):
    return any(value == "*" for _, value in key)


def join_faceless(series):
    """Old reports' faceless one-rank runs ("*" keys) become the base of the
    series they match that lack a one-rank run; one that several such runs
    match is ambiguous, and gets none of them."""
    for wild in [k for k in series if wildcard(k)]:
        for home in [k for k in series if not wildcard(k) and matches(wild, k)]:
            if any(r["ranks"] == series[wild][0]["ranks"] for r in series[home]):
                continue
            if sum(1 for w in series if wildcard(w) and matches(w, home)) > 1:
                print(f"collect: several one-rank runs could be the base of {home[0][1]} {home[1][1]}: "
                      "none is taken", file=sys.stderr)
                continue
            series[home] = series[wild] + series[home]
    return {k: v for k, v in series.items() if not wildcard(k)}


def warn_duplicates(name, runs):
    """Two runs of one rank count in one series: both are shown, and said."""
    counts = {}
    for r in runs:
        counts.setdefault(r["ranks"], []).append(os.path.basename(r["_path"]))
    for ranks, paths in sorted(counts.items()):
        if len(paths) > 1:
            rank_s = f"{ranks} rank{'s' if ranks > 1 else ''}"
            what = f"collect: {name}: {len(paths)} runs of {rank_s} ({', '.join(paths)})"
            print(what + ("; all shown, the first the base (named in scaling.md)" if ranks == runs[0]["ranks"]
                          else "; all shown"), file=sys.stderr)


def series_names(keys):
    """Each series named by its label, box and R, and what else differs
    between the series of its study in this folder."""
    names = {}
    for key in keys:
        kind = study(key[0][1])
        same = [dict(k) for k in keys if study(k[0][1]) == kind]
        varying = [name for name, _ in key[3:] if len({str(k.get(name)) for k in same}) > 1]
        parts = ["%s %s %s R=%d" % (key[0][1], "box" if kind == "weak" else "grid", key[1][1], key[2][1])]
        parts += ["%s %s" % (name, dict(key)[name]) for name in varying]
        names[key] = ", ".join(parts)
    return names


def series_rows(reports):
    """Rows of the table, grouped into series, each against its smallest rank count."""
    series = {}
    for r in reports:
        if study(r.get("label", "")) is None:
            print(f"collect: {r['_path']}: label {r.get('label', '')!r} is neither weak* nor strong*: "
                  "left out", file=sys.stderr)
            continue
        series.setdefault(series_key(r), []).append(r)
    series = join_faceless(series)
    names = series_names(list(series))
    rows = []
    for key, runs in sorted(series.items(), key=lambda item: names[item[0]]):
        runs.sort(key=lambda r: r["ranks"])
        warn_duplicates(names[key], runs)
        base = runs[0]
        t0, n0 = base["phases_ms"]["step"]["max"], base["ranks"]
        for r in runs:
            t, n = r["phases_ms"]["step"]["max"], r["ranks"]
            kind = study(r["label"])
            if kind == "weak":
                efficiency, speedup = t0 / t, None
            else:
                speedup = t0 / t
                efficiency = speedup * n0 / n
            rows.append({
                "series": names[key], "study": kind, "label": r["label"], "ranks": n, "base_ranks": n0,
                "base_report": os.path.basename(base["_path"]),
                "grid": "x".join(map(str, r["grid"])), "decomposition": "x".join(map(str, r["procs"])),
                "step_ms": t, "gcells": r["gcells_per_s_total"], "efficiency": efficiency,
                "speedup": speedup, "hidden": r["exchange_hidden_fraction"] if r["comm"] != "none" else None,
                "imbalance": r.get("imbalance", 1.0),
                "phases": {p: (r["phases_ms"].get(p) or {}).get("avg", 0.0) for p in PHASES},
                "device": (r.get("devices") or ["?"])[0], "backend": r.get("backend", "?"),
                "shape": interior_shape(r), "short": bool(r.get("timing_warning")),
                "slow": bool((r.get("speed_check") or {}).get("slow_warning")),
                "chosen": "%s, overlap %s, depth %s" % (r["comm"], "on" if r["overlap"] else "off",
                                                         r.get("halo_depth", 1)),
            })
    return rows


def interior_shape(report):
    """Rank 0's first (interior) box: its launch shape and where it came from (--tuning)."""
    shapes = report.get("shapes") or []
    if not shapes:
        return "-"  # a report from before --tuning
    s = shapes[0]
    # Reports from before --planes-ahead name no planes: they ran one.
    return "%dx%d, %d planes, %d rows, %d ahead (%s)" % (
        s["block_x"], s["block_y"], s["window"], s["rows"], s.get("planes_ahead", 1), s["source"])


def write_tables(rows, out):
    header = ["series", "ranks", "grid", "decomposition", "ran with", "time/step ms", "Gcell/s",
              "efficiency", "speed-up", "comm hidden", "imbalance", "interior launch shape"]

    def text(row):
        short = (" *" if row["short"] else "") + (" +" if row["slow"] else "")
        return [row["series"], str(row["ranks"]), row["grid"], row["decomposition"], row["chosen"],
                "%.4f%s" % (row["step_ms"], short), "%.3f" % row["gcells"],
                "%.1f%%" % (100 * row["efficiency"]),
                "-" if row["speedup"] is None else "%.2fx" % row["speedup"],
                "-" if row["hidden"] is None else "%.0f%%" % (100 * row["hidden"]), "%.3f" % row["imbalance"],
                row["shape"]]

    def numbers(row):  # the CSV: numbers as numbers, fractions as fractions
        return [row["series"], row["ranks"], row["grid"], row["decomposition"], row["chosen"],
                round(row["step_ms"], 6), round(row["gcells"], 6), round(row["efficiency"], 6),
                "" if row["speedup"] is None else round(row["speedup"], 6),
                "" if row["hidden"] is None else round(row["hidden"], 6), round(row["imbalance"], 6),
                row["shape"], int(row["short"]), row["base_report"], int(row["slow"])]

    with open(os.path.join(out, "scaling.md"), "w") as md:
        md.write(MD_MARK + "\n")
        devices = sorted({(r["backend"], r["device"]) for r in rows})
        md.write("Devices: %s\n" % "; ".join("%s back-end, %s" % d for d in devices))
        # One table per series, under its name: runs of two series are never one line.
        for name in dict.fromkeys(row["series"] for row in rows):
            base = next(row for row in rows if row["series"] == name)
            md.write("\n### %s\n\nBase: %s (%d rank%s).\n\n| %s |\n|%s\n" % (
                name, base["base_report"], base["base_ranks"], "s" if base["base_ranks"] > 1 else "",
                " | ".join(header[1:]), "---|" * (len(header) - 1)))
            for row in rows:
                if row["series"] == name:
                    md.write("| " + " | ".join(text(row)[1:]) + " |\n")
        md.write("\nEfficiency: weak, T(base)/T(n); strong, speed-up x base ranks / n. The base is each "
                 "series' smallest rank count. Time per step is the slowest rank's. A series holds the "
                 "runs of one box (weak) or grid (strong), R, and every other field of the report "
                 "that changes the work or the code (jobscripts/report_rules.py), with the settings "
                 "asked for (auto where the run chose; \"ran with\" says what it chose). Runs with "
                 "test aids or a failed --check are left out.\n")
        if any(row["short"] for row in rows):
            md.write("\n\\* Under 0.5 s of timed steps: the step carries the clocks' and the first "
                     "steps' noise. Rerun with the --steps its report's timing_warning names (about 1 s) "
                     "before publishing it.\n")
        if any(row["slow"] for row in rows):
            md.write("\n\\+ Steps more than 15% slower than the run's own trial of its setting (its report's "
                     "speed_check.slow_warning): the node, not the setting. Rerun before publishing it.\n")
    with open(os.path.join(out, "scaling.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(CSV_HEADER)
        for row in rows:
            w.writerow(numbers(row))


def main():
    ap = OneLineParser(description=__doc__.split("\n\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter,
                       usage="collect.py RESULTS_DIR [--out DIR] [--verify]")
    ap.add_argument("folder", help="a folder of the mini-app's JSON reports (searched below, too)")
    ap.add_argument("--out", help="where the tables and plots go (default RESULTS_DIR)")
    ap.add_argument("--verify", action="store_true", help="check that the PNGs are valid, non-blank images")
    a = ap.parse_args()
    if not os.path.isdir(a.folder):
        raise ToolError(f"{a.folder}: not a folder")
    out = a.out or a.folder
    refuse_foreign(out)
    os.makedirs(out, exist_ok=True)
    rows = series_rows(load(a.folder))
    if not rows:
        raise ToolError(f"no labelled stencil-miniapp reports (weak*/strong*) under {a.folder}")
    write_tables(rows, out)
    with open(os.path.join(out, "scaling.md")) as md:
        print(md.read().split("\n", 1)[1])  # the tables, without the mark
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        stale = [n for n in PLOTS if os.path.exists(os.path.join(out, n))]
        for name in stale:  # plots of other reports must not sit beside these tables (ours: refuse_foreign)
            os.remove(os.path.join(out, name))
        print(f"collect.py: wrote scaling.md and scaling.csv in {out}; the plots need matplotlib, which "
              f"{sys.executable} lacks (apt-get install python3-matplotlib, for /usr/bin/python3)" +
              (f"; removed the older {', '.join(stale)}" if stale else ""))
        return 1 if a.verify else 0
    scaling_plots.plot(rows, out)
    print(f"collect.py: wrote scaling.md, scaling.csv, {', '.join(PLOTS)} in {out}")
    if a.verify and not scaling_plots.verify(out, PLOTS):
        return 1
    return 0


if __name__ == "__main__":
    run(main)
