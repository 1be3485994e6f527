#!/usr/bin/env python3
"""Scaling tables and plots from a folder of stencil-miniapp JSON reports.

usage: collect.py RESULTS_DIR [--out DIR] [--verify]

Reads every *.json report under RESULTS_DIR (written with --report; the job
scripts add --label weak or --label strong, optionally with a suffix such as
weak-nccl). A series is the runs that are comparable: one box per rank
(weak) or one grid (strong), R, precision, periodic edges, model, and the
halo depth, comm, overlap and pack asked for ("auto" where the run chose);
each is measured against its own smallest rank count and named by what
differs from the folder's other series. Rows from runs under 0.5 s of timed
steps are marked. Writes into --out (default RESULTS_DIR):

  scaling.md, scaling.csv   ranks, grid, decomposition, time/step, Gcell/s,
                            efficiency, comm hidden %, imbalance (max/avg step)
  weak_efficiency.png       weak-scaling efficiency against ranks, with ideal
  strong_speedup.png        strong-scaling speed-up against ranks, with ideal
  phases.png                per-phase time per step for each rank count

--verify checks that the PNGs exist, are valid images and are not blank
(exit 1 otherwise). The plots need Debian's python3-matplotlib (nothing from
pip); without it the tables are written and one line says so.
"""
import csv
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from plot_style import count_axis, legend_below, series_style  # noqa: E402
from tool_errors import ToolError, run  # noqa: E402

PHASES = ["interior", "boundary", "pack", "post", "wait", "unpack"]
COLOURS = {"interior": "#4c72b0", "boundary": "#8fb0de", "pack": "#dd8452", "post": "#f1b37a",
           "wait": "#c44e52", "unpack": "#e59a9c"}


def load(folder):
    reports = []
    for root, _, files in os.walk(folder):
        for name in sorted(files):
            if not name.endswith(".json"):
                continue
            try:
                r = json.load(open(os.path.join(root, name)))
            except (OSError, ValueError, RecursionError):
                continue
            if r.get("program") != "stencil-miniapp":
                continue
            if r.get("check", {}).get("bitwise_equal") is False:  # wrong results have no speed
                print(f"collect: {os.path.join(root, name)} failed its --check: left out", file=sys.stderr)
                continue
            r["_path"] = os.path.join(root, name)
            reports.append(r)
    return reports


def study(label):
    return "weak" if label.startswith("weak") else "strong" if label.startswith("strong") else None


def asked(r, setting, value, reason):
    """A setting as the run was asked for it: the report's `asked` (since
    2026-11-27), else `auto` where its reason says the run chose. Auto
    may choose differently at another rank count, and the runs are still
    one study."""
    if isinstance(r.get("asked"), dict) and setting in r["asked"]:
        return str(r["asked"][setting])
    return "auto" if str(reason or "").startswith("auto") else str(value)


# What makes runs comparable: everything that changes the work per rank or
# the physics, and the settings the study asked for (a series' name shows
# those that differ between the folder's series).
KEY = ("label", "box", "R", "precision", "periodic", "halo depth", "comm", "overlap", "pack", "model")


EXCHANGE = (5, 6, 7, 8)  # the key's halo depth, comm, overlap and pack


def series_key(r):
    """The run's series key. A run with no halo face (one rank, no periodic
    edge) has no halo depth, exchange, overlap or pack to speak of: those
    fields are "*", and it is the base of every series it matches."""
    kind = study(r["label"])
    box = r.get("local_rank0") if kind == "weak" else r["grid"]
    key = [r["label"], "x".join(map(str, box or r["grid"])), r["radius"], r.get("precision", "fp32"),
           r.get("periodic") or "none", asked(r, "halo_depth", r.get("halo_depth", 1), r.get("halo_depth_reason")),
           asked(r, "comm", r["comm"], r.get("comm_reason")),
           asked(r, "overlap", "on" if r["overlap"] else "off", r.get("overlap_reason")),
           asked(r, "pack", r.get("halo_pack", "-"), r.get("pack_reason")), r.get("model", "constant")]
    if r.get("halo_faces_rank0", 1) == 0 and r.get("ranks", 1) == 1:
        for i in EXCHANGE:
            key[i] = "*"
    return tuple(key)


def matches(wild, key):
    return all(w == "*" or w == k for w, k in zip(wild, key))


def series_names(keys):
    """Each series named by its label, box and R, and what else differs
    between the series of its study in this folder."""
    names = {}
    for key in keys:
        same = [k for k in keys if study(k[0]) == study(key[0])]
        varying = [i for i in range(3, len(KEY)) if len({k[i] for k in same}) > 1]
        parts = ["%s box %s R=%d" % key[:3] if study(key[0]) == "weak" else "%s grid %s R=%d" % key[:3]]
        parts += ["%s %s" % (KEY[i], key[i]) for i in varying]
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
    # A run without halo faces joins every series it matches, as its base.
    for wild in [k for k in series if "*" in k]:
        homes = [k for k in series if "*" not in k and matches(wild, k)]
        for home in homes:
            series[home] = series[wild] + series[home]
        if homes:
            del series[wild]
    names = series_names(list(series))
    rows = []
    for key, runs in sorted(series.items(), key=lambda item: names[item[0]]):
        runs.sort(key=lambda r: r["ranks"])
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
                "grid": "x".join(map(str, r["grid"])), "decomposition": "x".join(map(str, r["procs"])),
                "step_ms": t, "gcells": r["gcells_per_s_total"], "efficiency": efficiency,
                "speedup": speedup, "hidden": r["exchange_hidden_fraction"] if r["comm"] != "none" else None,
                "imbalance": r.get("imbalance", 1.0),
                "phases": {p: r["phases_ms"][p]["avg"] for p in PHASES},
                "device": (r.get("devices") or ["?"])[0], "backend": r.get("backend", "?"),
                "shape": interior_shape(r), "short": bool(r.get("timing_warning")),
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
    return "%dx%d, %d planes, %d rows (%s)" % (s["block_x"], s["block_y"], s["window"], s["rows"],
                                               s["source"])


def write_tables(rows, out):
    header = ["series", "ranks", "grid", "decomposition", "ran with", "time/step ms", "Gcell/s",
              "efficiency", "speed-up", "comm hidden", "imbalance", "interior launch shape"]

    def text(row):
        short = " *" if row["short"] else ""
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
                row["shape"], int(row["short"])]

    with open(os.path.join(out, "scaling.md"), "w") as md:
        devices = sorted({(r["backend"], r["device"]) for r in rows})
        md.write("Devices: %s\n" % "; ".join("%s back-end, %s" % d for d in devices))
        # One table per series, under its name: runs of two series are never one line.
        for name in dict.fromkeys(row["series"] for row in rows):
            md.write("\n### %s\n\n| %s |\n|%s\n" % (name, " | ".join(header[1:]), "---|" * (len(header) - 1)))
            for row in rows:
                if row["series"] == name:
                    md.write("| " + " | ".join(text(row)[1:]) + " |\n")
        md.write("\nEfficiency: weak, T(base)/T(n); strong, speed-up x base ranks / n. The base is each "
                 "series' smallest rank count. Time per step is the slowest rank's. A series holds the "
                 "runs of one box (weak) or grid (strong), R, precision, edges, model and the settings "
                 "asked for (auto where the run chose; \"ran with\" says what it chose).\n")
        if any(row["short"] for row in rows):
            md.write("\n\\* Under 0.5 s of timed steps: the step carries the clocks' and the first "
                     "steps' noise. Rerun with the --steps its report's timing_warning names (about 1 s) "
                     "before publishing it.\n")
    with open(os.path.join(out, "scaling.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["series", "ranks", "grid", "decomposition", "ran with", "step_ms", "gcells_per_s",
                    "efficiency", "speedup", "comm_hidden", "imbalance", "interior_launch_shape",
                    "short_window"])
        for row in rows:
            w.writerow(numbers(row))


def rank_axis(ax, rows, kind):
    """Ranks on a log2 axis, ticked at the rank counts run, named after the back-end."""
    gpu = any(r["backend"] not in ("HOST", "?") for r in rows)
    count_axis(ax, [r["ranks"] for r in rows if r["study"] == kind],
               "ranks (one GPU each)" if gpu else "ranks (HOST back-end: CPU ranks, no GPU)")


def scaling_plot(plt, rows, by_series, kind, path, device):
    """Weak efficiency or strong speed-up against ranks, one line per series.
    Series that coincide stay apart: each has its own marker, dash and
    marker size (the first the largest, hollow), and the values are written
    on the points only when there is one series."""
    fig, ax = plt.subplots(figsize=(8, 5.5))
    mine = [(name, runs) for (k, name), runs in sorted(by_series.items()) if k == kind]
    for i, (name, runs) in enumerate(mine):
        ranks = [r["ranks"] for r in runs]
        values = [100 * r["efficiency"] if kind == "weak" else r["speedup"] * r["base_ranks"] for r in runs]
        ax.plot(ranks, values, label=name, **series_style(i, len(mine)))
        for x, y in (zip(ranks, values) if len(mine) == 1 else ()):
            ax.annotate("%.0f%%" % y if kind == "weak" else "%.2fx" % y, (x, y), textcoords="offset points",
                        xytext=(0, 7), ha="center", fontsize=8)
    if kind == "weak":
        ax.axhline(100, color="grey", ls="--", label="ideal (100%)")
        ax.set_ylabel("weak-scaling efficiency, % of the smallest run's pace")
        top = max([110] + [100 * r["efficiency"] + 10 for r in rows if r["study"] == kind])
        ax.set_ylim(0, top)
        ax.set_title("Weak scaling: same cells per rank, more ranks\n(flat at 100% is perfect)")
    else:
        ideal = sorted({r["ranks"] for r in rows if r["study"] == kind} | {1})
        ax.plot(ideal, ideal, "--", color="grey", label="ideal (speed-up = ranks)")
        ax.set_yscale("log", base=2)
        # Powers of two from below the slowest series to above the ideal.
        low = min([1.0] + [r["speedup"] * r["base_ranks"] for r in rows if r["study"] == kind])
        ticks = [2.0 ** e for e in range(math.floor(math.log2(low)), math.ceil(math.log2(max(ideal))) + 2)]
        ax.set_yticks(ticks)
        ax.set_yticklabels(["%g" % v if v >= 1 else "1/%d" % round(1 / v) for v in ticks])
        ax.set_ylabel("speed-up over one rank (log scale)")
        ax.set_title("Strong scaling: one grid, more ranks\n(on the dashed line is perfect)")
    rank_axis(ax, rows, kind)
    ax.grid(True, alpha=0.3)
    if mine:
        legend_below(ax)
    else:
        ax.text(0.5, 0.5, "no %s-scaling runs in this folder" % kind, transform=ax.transAxes, ha="center")
    fig.text(0.99, 0.01, device, ha="right", fontsize=7, color="grey")
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def phases_plot(plt, rows, by_series, path, device):
    """Per-phase time per step for each series and rank count, a panel per series."""
    groups = sorted(by_series.items())
    columns = min(3, max(1, len(groups)))
    rows_of_plots = (len(groups) + columns - 1) // columns or 1
    fig, axes = plt.subplots(rows_of_plots, columns, figsize=(5.2 * columns + 1.5, 4.4 * rows_of_plots + 1.0),
                             squeeze=False)
    for ax in axes.flat[len(groups):]:
        ax.set_visible(False)
    for ax, ((kind, name), runs) in zip(axes.flat, groups):
        labels = [str(r["ranks"]) for r in runs]
        bottom = [0.0] * len(runs)
        for phase in PHASES:
            values = [r["phases"][phase] for r in runs]
            ax.bar(labels, values, bottom=bottom, color=COLOURS[phase], label=phase)
            bottom = [b + v for b, v in zip(bottom, values)]
        ax.plot(labels, [r["step_ms"] for r in runs], "k_", markersize=30, mew=2.5, label="measured step")
        ax.set_ylim(0, 1.08 * max(bottom + [r["step_ms"] for r in runs] + [1e-9]))  # no bar cut off
        ax.set_title(name.replace(", ", ",\n", 2), fontsize=8)
        ax.set_xlabel("ranks")
        ax.set_ylabel("ms per step (average over ranks)")
        ax.grid(True, axis="y", alpha=0.3)
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles[::-1], names[::-1], fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.suptitle("Where a time step goes. Kernels (blue) overlap the exchange (red/orange) when overlap is on,\n"
                 "so the bars may stand above the measured step (black line).", fontsize=10)
    fig.text(0.99, 0.0, device, ha="right", fontsize=7, color="grey")
    fig.tight_layout()
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def plot(rows, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    device = ", ".join(sorted({"%s (%s)" % (r["device"], r["backend"]) for r in rows}))
    by_series = {}
    for r in rows:
        by_series.setdefault((r["study"], r["series"]), []).append(r)
    scaling_plot(plt, rows, by_series, "weak", os.path.join(out, "weak_efficiency.png"), device)
    scaling_plot(plt, rows, by_series, "strong", os.path.join(out, "strong_speedup.png"), device)
    phases_plot(plt, rows, by_series, os.path.join(out, "phases.png"), device)


def verify(out):
    import matplotlib.image as mpimg
    ok = True
    for name in ("weak_efficiency.png", "strong_speedup.png", "phases.png"):
        path = os.path.join(out, name)
        try:
            with open(path, "rb") as f:
                valid = f.read(8) == b"\x89PNG\r\n\x1a\n"
            image = mpimg.imread(path)
            colours = len({tuple(p) for p in image.reshape(-1, image.shape[-1])[::97]})
            fine = valid and image.shape[0] > 200 and image.shape[1] > 200 and colours > 8
            print("%s: %dx%d, %d colours sampled: %s" % (name, image.shape[1], image.shape[0], colours,
                                                         "ok" if fine else "BAD"))
        except (OSError, ValueError, RecursionError) as e:
            print("%s: %s" % (name, e))
            fine = False
        ok = ok and fine
    return ok


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) < 1 or "--help" in sys.argv:
        sys.exit(__doc__)
    folder = args[0]
    if not os.path.isdir(folder):
        raise ToolError(f"{folder}: not a folder")
    out = folder
    if "--out" in sys.argv:
        out = sys.argv[sys.argv.index("--out") + 1]
        args = [a for a in args if a != out]
    os.makedirs(out, exist_ok=True)
    rows = series_rows(load(folder))
    if not rows:
        raise ToolError(f"no labelled stencil-miniapp reports (weak*/strong*) under {folder}")
    write_tables(rows, out)
    print(open(os.path.join(out, "scaling.md")).read())
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print(f"collect.py: wrote scaling.md and scaling.csv in {out}; the plots need matplotlib "
              "(apt-get install python3-matplotlib)")
        return 1 if "--verify" in sys.argv else 0
    plot(rows, out)
    print("collect.py: wrote scaling.md, scaling.csv, weak_efficiency.png, strong_speedup.png, phases.png in %s" % out)
    if "--verify" in sys.argv and not verify(out):
        return 1
    return 0


if __name__ == "__main__":
    run(main)
