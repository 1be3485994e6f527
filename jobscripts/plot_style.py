"""What the study's plots (collect.py, project.py) share: series that
coincide stay apart, and a log axis of counts is labelled where it was run."""

# Marker, dash and marker size per series, the first the largest.
STYLES = [("o", "-", 10), ("s", "--", 7), ("^", "-.", 6), ("D", ":", 5), ("v", "-", 5), ("P", "--", 5)]


def series_style(index, count):
    """matplotlib keywords for series `index` of `count`: its own marker,
    dash and size; the first, hollow when there are others, so that a
    series drawn over it leaves it in sight."""
    marker, dash, size = STYLES[index % len(STYLES)]
    style = {"marker": marker, "ls": dash, "ms": size}
    if index == 0 and count > 1:
        style.update(mfc="none", mew=1.5)
    return style


def count_axis(ax, counts, label):
    """A log2 x axis ticked at `counts` only, each labelled unless it stands
    too close to the next (8,192 beside 9,408), the largest always."""
    ax.set_xscale("log", base=2)
    counts = sorted(set(counts)) or [1]
    ax.set_xticks(counts)
    shown = [f"{n:,}" if i == len(counts) - 1 or counts[i + 1] >= 1.25 * n else ""
             for i, n in enumerate(counts)]
    ax.set_xticklabels(shown, rotation=45 if len(counts) > 8 else 0, fontsize=8)
    ax.minorticks_off()
    ax.set_xlabel(label)


def legend_below(ax):
    """The legend under the axes, a series a line: long names neither
    overprint nor hide a point (save with bbox_inches="tight")."""
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=1, frameon=False)


def ring(ax, points, label, colour="#d62728"):
    """A hollow circle around each of `points` (x, y), named once in the
    legend: a point the reader must not take at face value (a short
    window, a box the calibration did not measure)."""
    if points:
        xs, ys = zip(*points)
        ax.scatter(xs, ys, s=260, facecolors="none", edgecolors=colour, linewidths=1.5, zorder=5, label=label)
