"""collect.py's plots: weak efficiency and strong speed-up against ranks,
one line per series, and where each series' step goes."""
import math
import os
import struct

from plot_style import count_axis, legend_below, ring, series_style

PHASES = ["interior", "boundary", "pack", "post", "wait", "unpack"]
COLOURS = {"interior": "#4c72b0", "boundary": "#8fb0de", "pack": "#dd8452", "post": "#f1b37a",
           "wait": "#c44e52", "unpack": "#e59a9c"}
# Each plot carries this in a PNG text chunk, so that collect.py writes over
# a plot of this name only where it drew it (marked), never a user's figure.
MARK = {"Source": "stencil-miniapp jobscripts/collect.py"}


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
    short, slow = [], []
    for i, (name, runs) in enumerate(mine):
        ranks = [r["ranks"] for r in runs]
        values = [100 * r["efficiency"] if kind == "weak" else r["speedup"] for r in runs]
        ax.plot(ranks, values, label=name, **series_style(i, len(mine)))
        for x, y in (zip(ranks, values) if len(mine) == 1 else ()):
            ax.annotate("%.0f%%" % y if kind == "weak" else "%.2fx" % y, (x, y), textcoords="offset points",
                        xytext=(0, 7), ha="center", fontsize=8)
        short += [(x, y) for x, y, r in zip(ranks, values, runs) if r["short"]]
        slow += [(x, y) for x, y, r in zip(ranks, values, runs) if r["slow"]]
    # The points a table marks * and + are marked here too: not for publishing.
    ring(ax, short, "* under 0.5 s of timed steps: rerun longer")
    ring(ax, slow, "+ slower than its own trial: the node ran slow", colour="#9467bd")
    if kind == "weak":
        ax.axhline(100, color="grey", ls="--", label="ideal (100%)")
        ax.set_ylabel("weak-scaling efficiency, % of the smallest run's pace")
        top = max([110] + [100 * r["efficiency"] + 10 for r in rows if r["study"] == kind])
        ax.set_ylim(0, top)
        ax.set_title("Weak scaling: same cells per rank, more ranks\n(flat at 100% is perfect)")
    else:
        # Perfect is speed-up = ranks / the smallest run's ranks: a line per
        # smallest rank count among the series (1 unless a study began higher).
        counts = sorted({r["ranks"] for r in rows if r["study"] == kind})
        for base in sorted({runs[0]["ranks"] for _, runs in mine}):
            ideal = [n for n in counts if n >= base]
            ax.plot(ideal, [n / base for n in ideal], "--", color="grey", lw=1,
                    label="ideal (speed-up = ranks%s)" % ("" if base == 1 else " / %d" % base))
        ax.set_yscale("log", base=2)
        # Powers of two from below the slowest series to above the ideal.
        low = min([1.0] + [r["speedup"] for r in rows if r["study"] == kind])
        high = max([2.0] + [r["speedup"] for r in rows if r["study"] == kind] + [max(counts or [1])])
        ticks = [2.0 ** e for e in range(math.floor(math.log2(low)), math.ceil(math.log2(high)) + 1)]
        ax.set_yticks(ticks)
        ax.set_yticklabels(["%g" % v if v >= 1 else "1/%d" % round(1 / v) for v in ticks])
        ax.set_ylabel("speed-up over the series' smallest run (log scale)")
        ax.set_title("Strong scaling: one grid, more ranks\n(on the dashed line is perfect)")
    rank_axis(ax, rows, kind)
    ax.grid(True, alpha=0.3)
    if mine:
        legend_below(ax)
    else:
        ax.text(0.5, 0.5, "no %s-scaling runs in this folder" % kind, transform=ax.transAxes, ha="center")
    fig.text(0.99, 0.01, device, ha="right", fontsize=7, color="grey")
    fig.savefig(path, dpi=120, bbox_inches="tight", metadata=MARK)
    plt.close(fig)


def phases_plot(plt, rows, by_series, path, device):
    """Per-phase time per step for each series and rank count, a panel per series."""
    groups = sorted(by_series.items())
    columns = min(3, max(1, len(groups)))
    rows_of_plots = (len(groups) + columns - 1) // columns or 1
    # Constrained layout keeps the figure's title clear of the panels' titles.
    fig, axes = plt.subplots(rows_of_plots, columns, figsize=(5.2 * columns + 1.5, 4.4 * rows_of_plots + 1.0),
                             squeeze=False, layout="constrained")
    for ax in axes.flat[len(groups):]:
        ax.set_visible(False)
    for ax, ((kind, name), runs) in zip(axes.flat, groups):
        labels = bar_labels(runs)
        bottom = [0.0] * len(runs)
        for phase in PHASES:
            values = [r["phases"][phase] for r in runs]
            ax.bar(labels, values, bottom=bottom, color=COLOURS[phase], label=phase)
            bottom = [b + v for b, v in zip(bottom, values)]
        ax.plot(labels, [r["step_ms"] for r in runs], "k_", markersize=30, mew=2.5, label="measured step")
        ax.set_ylim(0, 1.08 * max(bottom + [r["step_ms"] for r in runs] + [1e-9]))  # no bar cut off
        ax.set_title(name.replace(", ", ",\n", 2), fontsize=8)
        ax.set_xlabel("ranks (* under 0.5 s of timed steps, + a slow node)")
        ax.set_ylabel("ms per step (average over ranks)")
        ax.grid(True, axis="y", alpha=0.3)
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles[::-1], names[::-1], fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5), markerscale=0.5,
               handlelength=2.5)
    fig.suptitle("Where a time step goes. Kernels (blue) overlap the exchange (red/orange) when overlap is on,\n"
                 "so the bars may stand above the measured step (black line).", fontsize=10)
    fig.supxlabel(device, ha="right", x=0.99, fontsize=7, color="grey")
    fig.savefig(path, dpi=120, bbox_inches="tight", metadata=MARK)
    plt.close(fig)


def bar_labels(runs):
    """One label per run, so that each has its own bar: its rank count, a
    second run of the same count "2 (2nd)", and * or + where its row is
    marked (a short window, a slow node)."""
    labels, seen = [], {}
    for r in runs:
        seen[r["ranks"]] = seen.get(r["ranks"], 0) + 1
        nth = seen[r["ranks"]]
        label = str(r["ranks"]) + (" (%d%s)" % (nth, {2: "nd", 3: "rd"}.get(nth, "th")) if nth > 1 else "")
        labels.append(label + ("*" if r["short"] else "") + ("+" if r["slow"] else ""))
    return labels


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


def marked(path):
    """True where `path` is a PNG that carries MARK in a text chunk before
    its image data, as every plot of plot() does. Read with the standard
    library alone, so that a folder is checked before matplotlib is asked."""
    (key, value), = MARK.items()
    wanted = key.encode("latin-1") + b"\0" + value.encode("latin-1")
    try:
        with open(path, "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                return False
            while True:
                head = f.read(8)
                if len(head) < 8:
                    return False
                length, kind = struct.unpack(">I4s", head)
                if kind == b"IDAT" or length > 1 << 20:
                    return False
                body = f.read(length + 4)[:length]  # the chunk and its CRC
                if kind == b"tEXt" and body == wanted:
                    return True
    except OSError:
        return False


def verify(out, names):
    """Each of `names` in `out` a PNG over 200 pixels a side with more than 8 colours."""
    import matplotlib.image as mpimg
    ok = True
    for name in names:
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
