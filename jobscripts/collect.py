#!/usr/bin/env python3
"""Scaling tables and plots from a folder of stencil-miniapp JSON reports.

usage: collect.py RESULTS_DIR [--out DIR] [--verify]

Reads every *.json report under RESULTS_DIR (written with --report; the job
scripts add --label weak or --label strong, optionally with a suffix such as
weak-nccl). Each series (label, R, comm, overlap) is measured against its
own smallest rank count. Writes into --out (default RESULTS_DIR):

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
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
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
            reports.append(r)
    return reports


def study(label):
    return "weak" if label.startswith("weak") else "strong" if label.startswith("strong") else None


def series_rows(reports):
    """Rows of the table, grouped into series, each against its smallest rank count."""
    series = {}
    for r in reports:
        kind = study(r.get("label", ""))
        if kind is None:
            continue
        key = (r["label"], r["radius"], r["comm"], r["overlap"])
        series.setdefault(key, []).append(r)
    rows = []
    for key, runs in sorted(series.items()):
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
                "series": "%s R=%d %s overlap %s" % (key[0], key[1], key[2], "on" if key[3] else "off"),
                "study": kind, "label": r["label"], "ranks": n, "base_ranks": n0,
                "grid": "x".join(map(str, r["grid"])), "decomposition": "x".join(map(str, r["procs"])),
                "step_ms": t, "gcells": r["gcells_per_s_total"], "efficiency": efficiency,
                "speedup": speedup, "hidden": r["exchange_hidden_fraction"] if r["comm"] != "none" else None,
                "imbalance": r.get("imbalance", 1.0),
                "phases": {p: r["phases_ms"][p]["avg"] for p in PHASES},
                "device": (r.get("devices") or ["?"])[0], "backend": r.get("backend", "?"),
                "shape": interior_shape(r),
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
    header = ["series", "ranks", "grid", "decomposition", "time/step ms", "Gcell/s", "efficiency",
              "speed-up", "comm hidden", "imbalance", "interior launch shape"]
    def cells(row):
        return [row["series"], str(row["ranks"]), row["grid"], row["decomposition"], "%.4f" % row["step_ms"],
                "%.3f" % row["gcells"], "%.1f%%" % (100 * row["efficiency"]),
                "-" if row["speedup"] is None else "%.2fx" % row["speedup"],
                "-" if row["hidden"] is None else "%.0f%%" % (100 * row["hidden"]), "%.3f" % row["imbalance"],
                row["shape"]]
    with open(os.path.join(out, "scaling.md"), "w") as md:
        devices = sorted({(r["backend"], r["device"]) for r in rows})
        md.write("Devices: %s\n\n" % "; ".join("%s back-end, %s" % d for d in devices))
        md.write("| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n")
        for row in rows:
            md.write("| " + " | ".join(cells(row)) + " |\n")
        md.write("\nEfficiency: weak, T(base)/T(n); strong, speed-up x base ranks / n. The base is each "
                 "series' smallest rank count. Time per step is the slowest rank's.\n")
    with open(os.path.join(out, "scaling.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for row in rows:
            w.writerow(cells(row))


def plot(rows, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    device = ", ".join(sorted({"%s (%s)" % (r["device"], r["backend"]) for r in rows}))
    by_series = {}
    for r in rows:
        by_series.setdefault((r["study"], r["series"]), []).append(r)

    for kind, filename in (("weak", "weak_efficiency.png"), ("strong", "strong_speedup.png")):
        fig, ax = plt.subplots(figsize=(7.5, 5))
        drawn = False
        top = 1
        for (k, name), runs in sorted(by_series.items()):
            if k != kind:
                continue
            ranks = [r["ranks"] for r in runs]
            top = max(top, max(ranks))
            if kind == "weak":
                values = [100 * r["efficiency"] for r in runs]
            else:
                values = [r["speedup"] * r["base_ranks"] for r in runs]  # speed-up over one rank's pace
            ax.plot(ranks, values, "o-", label="%s, grid per rank %s" % (name, runs[0]["grid"]) if kind == "weak"
                    else "%s, grid %s" % (name, runs[0]["grid"]))
            for x, y in zip(ranks, values):
                ax.annotate("%.0f%%" % y if kind == "weak" else "%.2fx" % y, (x, y), textcoords="offset points",
                            xytext=(0, 7), ha="center", fontsize=8)
            drawn = True
        if kind == "weak":
            ax.axhline(100, color="grey", ls="--", label="ideal (100%)")
            ax.set_ylabel("weak-scaling efficiency, % of the smallest run's pace")
            ax.set_ylim(0, 110)
            ax.set_title("Weak scaling: same cells per rank, more ranks\n(flat at 100% is perfect)")
        else:
            ideal = sorted({r["ranks"] for r in rows if r["study"] == kind} | {1})
            ax.plot(ideal, ideal, "--", color="grey", label="ideal (speed-up = ranks)")
            ax.set_yscale("log", base=2)
            ax.set_yticks([v for v in (0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128) if v <= 2 * top])
            ax.set_yticklabels(["%g" % v for v in (0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128) if v <= 2 * top])
            ax.set_ylabel("speed-up over one rank (log scale)")
            ax.set_title("Strong scaling: one grid, more ranks\n(on the dashed line is perfect)")
        ax.set_xscale("log", base=2)
        all_ranks = sorted({r["ranks"] for r in rows if r["study"] == kind}) or [1]
        ax.set_xticks(all_ranks)
        ax.set_xticklabels([str(n) for n in all_ranks])
        ax.set_xlabel("ranks (one GPU each)")
        ax.grid(True, alpha=0.3)
        if drawn:
            ax.legend(fontsize=8, loc="lower left" if kind == "weak" else "upper left")
        else:
            ax.text(0.5, 0.5, "no %s-scaling runs in this folder" % kind, transform=ax.transAxes, ha="center")
        fig.text(0.99, 0.01, device, ha="right", fontsize=7, color="grey")
        fig.tight_layout()
        fig.savefig(os.path.join(out, filename), dpi=120)
        plt.close(fig)

    groups = sorted(by_series.items())
    columns = min(4, max(1, len(groups)))
    rows_of_plots = (len(groups) + columns - 1) // columns or 1
    fig, axes = plt.subplots(rows_of_plots, columns, figsize=(4.6 * columns + 1.2, 4.2 * rows_of_plots + 0.8),
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
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("ranks")
        ax.set_ylabel("ms per step (average over ranks)")
        ax.grid(True, axis="y", alpha=0.3)
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles[::-1], names[::-1], fontsize=8, loc="center right")
    fig.suptitle("Where a time step goes. Kernels (blue) overlap the exchange (red/orange) when overlap is on,\n"
                 "so the bars may stand above the measured step (black line).", fontsize=10)
    fig.text(0.99, 0.01, device, ha="right", fontsize=7, color="grey")
    fig.tight_layout(rect=(0, 0.02, 0.88, 1 - 0.55 / fig.get_figheight()))
    fig.savefig(os.path.join(out, "phases.png"), dpi=120)
    plt.close(fig)


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
