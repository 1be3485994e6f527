#!/usr/bin/env python3
"""Projects stencil-miniapp's time per step to thousands of GPUs: a model
calibrated on what one node measures, with its assumptions stated. It is a
projection, not a measurement.

usage:
  CALIBRATION and REPORT_DIR are folders or tar archives of them.
  project.py CALIBRATION --machine M.json weak --local 512,512,512 [--nodes 1,2,...]
  project.py CALIBRATION --machine M.json strong --grid 1024,1024,512 [--nodes ...]
  project.py CALIBRATION --machine M.json validate REPORT_DIR [--tolerance 0.10]
  common: [--radius 4] [--overlap on|off|auto] [--halo-depth K|best]
          [--comm mpi|gpu-aware|staged|nccl|peer] [--accept-timing-warnings]
          [--markdown FILE] [--csv FILE] [--plot FILE.png]
  Every part of the calibration must be one kernel (R, precision) on one
  device and back-end, read from the files; runs with test aids, a failed
  --check, or (without --accept-timing-warnings) a report that warns of
  its timing are refused, and validate leaves such runs out, saying so.

CALIBRATION is a folder with (tools/gpu.sh miniapp --sweep ... --scaling):
  sweep/*.json         one GPU, --comm none, at several --local N,N,N: the
                       kernel time against cells, and the fixed cost per step
  halo-bench-*.txt     stencil-halo-bench on two GPUs of one node: latency
                       and bandwidth of an exchange inside a node
  scaling/*along-x*n2  two GPUs split along x: what a strided face costs to
                       pack and unpack, and how slow a thin x slab is
M.json describes a machine (jobscripts/machines/): GPUs per node, links,
NICs, and kernel_time_scale when its GPUs are not the calibration's. For a
real plan, calibrate on one node of the target machine: then no scale.

  shell/*.json         optional: one GPU with --periodic x,y,z at the sweep's
                       sizes: what the shell of a rank with six neighbours
                       costs (the step over the same box's --comm none step)

The model, per rank, per step (the job takes its slowest rank):
  with shell/ and overlap on: F + kernel(whole box) + shell(box) * (its
    shell cells over a six-sided shell's) + what of pack + exchange + unpack
    the interior does not hide
  without shell/, overlap on: F + max(interior, pack + exchange) + unpack + boundary
  overlap off: F + pack + exchange + unpack + kernel(whole box)
  overlap auto: the faster of on and off for the whole job, as the
    mini-app's --overlap auto chooses in its warm-up
  Where the shell runs report the fused pack (the slabs store the faces the
    next exchange sends: depth 1, overlap on, GPU-aware), the shell already
    holds the pack: no pack term is added at depth 1.
  kernel(cells): interpolated in the sweep (log-log); slabs R thick use the
    same curve, x slabs times the measured thin-slab factor
  --comm peer (overlap on, depth 1, with shell/): the slab-based peer path
    of 2026-11-26, which the one-kernel step replaced on 2026-11-27 (not
    modelled yet; docs/scaling/PROJECTION.md, "What it does not
    model"): the faces to ranks of the same node carry no pack, message
    or host; the shell is the measured one, and each x face adds its copy
    across the link (face bytes / link bandwidth) and its unpack on the
    other side; faces to other nodes go by MPI as below
  exchange: max over the rank's neighbours in its node of
    latency + face bytes / link bandwidth, and, for neighbours on other
    nodes, network latency + the node's off-node bytes / its NICs' bandwidth
With --halo-depth K (deep halos: a halo K*R deep exchanged once every K
steps), a step is the mean over the K-step cycle: the exchange step above
over the interior grown by (K-1)*R on each side with a neighbour (slabs K*R
thick; its messages carry K*R cells of p to the neighbours across at most
K axes (faces and edges at K = 2, all 26 from 3) and (K-1)*R of the time
level before across at most K-1; z faces whole planes in place,
p(t_n-1)'s packed from K = 3, everything else packed; from K = 3 the
interior waits for the pack), then K-1 steps of F + kernel(the box grown by
(K-1-s)*R). `best` takes the fastest of K = 1, 2, 4 per point (the
mini-app's auto depths; validation covers K = 1 to 4, and a K past it is
said on the heading line).
Efficiency: weak, one GPU alone's step over the step at n nodes; strong,
one node's step over n times the step at n nodes (said under each table,
whether or not one node is a row). A rank's box must be k*R cells thick
along each split or periodic axis, as the mini-app requires.
Ranks are placed as the mini-app does: MPI_Dims_create's grid, reversed so
z gets the most ranks, rank = (x * PY + y) * PZ + z, GPUs_per_node
consecutive ranks per node.
"""
import argparse
import math
import os
import sys

from calibration import Calibration, calibration_caveats, folder_of, machine_for, scale_caveats
from checked import checked
from plot_style import count_axis, legend_below, ring, series_style
from projection_model import BEST_DEPTHS, FLOAT, VALIDATED_DEPTHS, node_series, strong, thinnest_box, weak
from projection_tables import projection_records, projection_table, write_csv
from tool_errors import OneLineParser, ToolError, load_json, run
from validation import axes_of, validation_text


def load_machine(path):
    """A machine file, checked against schemas/machine.json. JSON Schema
    takes 8.0 for an integer: the counts become whole numbers here."""
    machine = checked(load_json(path), "machine", path, "a machine file")
    machine["_path"] = path  # named where the file is refused later
    for count in ("gpus_per_node", "cores_per_node", "nodes", "nics_per_node"):
        if count in machine:
            machine[count] = int(machine[count])
    return machine


def require_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ToolError(f"--plot needs matplotlib, which {sys.executable} lacks (apt-get install "
                        "python3-matplotlib, for /usr/bin/python3)") from None


def plot_subtitle(a, machines):
    """What a projection's plot stands on, under its title: the box or grid,
    R, and each kernel time scale (an assumption, not a measurement)."""
    what = (f"{'x'.join(map(str, a.local))} per GPU" if a.study == "weak" else
            f"grid {'x'.join(map(str, a.grid))}") + f", R={a.radius}"
    scales = [f"{m['name']}: kernel times x{m['kernel_time_scale']:g} (assumed)" for m in machines
              if m.get("kernel_time_scale", 1.0) != 1.0]
    return "; ".join([what] + scales)


def plot(rows_by_label, study, path, subtitle, box_range):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    nodes = sorted({r["nodes"] for rows in rows_by_label.values() for r in rows})
    lo, hi = box_range
    outside = []
    for n, (label, rows) in enumerate(rows_by_label.items()):
        x = [r["nodes"] for r in rows]
        y = [100 * r["efficiency"] for r in rows] if study == "weak" else [r["step_ms"] for r in rows]
        ax.plot(x, y, label=label, **series_style(n, len(rows_by_label)))
        outside += [(xi, yi) for xi, yi, r in zip(x, y, rows) if not lo <= math.prod(r["local"]) <= hi]
    ring(ax, outside, f"extrapolated: a box outside the calibrated {lo ** (1 / 3):.0f}^3 to {hi ** (1 / 3):.0f}^3")
    if study == "weak":
        ax.axhline(100, color="grey", ls=":", lw=1, label="ideal (100%)")
        ax.set_ylabel("weak-scaling efficiency (%)")
        ax.set_ylim(0, 110)
    else:
        base = next(iter(rows_by_label.values()))[0]["base_ms"]  # one node's step
        ax.plot(nodes, [base / n for n in nodes], color="grey", ls=":", lw=1,
                label="ideal (one node's time / nodes)")
        ax.set_yscale("log")
        ax.set_ylabel("time per step (ms, log scale)")
    count_axis(ax, nodes, "nodes")
    ax.set_title(f"PROJECTION, not a measurement: {study} scaling\n{subtitle}", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    legend_below(ax)
    fig.savefig(path, dpi=110, bbox_inches="tight")


def depth_arg(text):
    if text == "best":
        return text
    if not text.isdigit() or not 1 <= int(text) <= 8:
        raise argparse.ArgumentTypeError(f"'{text}' is not 1..8 or best")
    return int(text)


def triple(text):
    try:
        v = [int(x) for x in text.split(",")]
    except ValueError:
        v = []
    if len(v) != 3 or min(v) <= 0:
        raise argparse.ArgumentTypeError(f"'{text}' is not three positive integers")
    return v


def plot_path(text):
    if os.path.isdir(text) or os.path.splitext(text)[1].lower() not in (".png", ".svg", ".pdf"):
        raise argparse.ArgumentTypeError(f"'{text}' is not a file name ending .png, .svg or .pdf")
    return text


def output_path(extension):
    """An argparse type: a file name ending `extension`, so that a
    misplaced argument (a report, the calibration) is never written over."""
    def named(text):
        if os.path.isdir(text) or not text.lower().endswith(extension):
            raise argparse.ArgumentTypeError(f"'{text}' is not a file name ending {extension}")
        return text
    return named


def tolerance_arg(text):
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a fraction in (0, 1] (0.10 is 10%)")
    return value


def radius_arg(text):
    if not text.isdigit() or not 1 <= int(text) <= 8:
        raise argparse.ArgumentTypeError(f"'{text}' is not a stencil radius 1..8 (the mini-app's)")
    return int(text)


def node_counts(text, machine):
    """--nodes: positive whole numbers, none past the machine's nodes."""
    counts = []
    for part in text.split(","):
        if not part.isdigit() or int(part) < 1:
            raise ToolError(f"--nodes {text}: '{part}' is not a whole number of nodes, 1 or more")
        counts.append(int(part))
    if max(counts) > machine["nodes"]:
        raise ToolError(f"--nodes {text}: {machine['name']} has {machine['nodes']} nodes")
    return sorted(set(counts))  # a table's rows in order, each once


def caveats(cal, a, machine, rows):
    """What the projection stands on that the calibration did not measure,
    said where the table is printed."""
    notes = []
    if a.radius not in getattr(cal, "radii", [a.radius]):
        notes.append(f"R={a.radius}, but the calibration ran R={'/'.join(map(str, cal.radii))}: its "
                     "kernel times stand in for R's (more neighbours read cost more)")
    lo, hi = cal.box_range()
    outside = [r for r in rows if not lo <= math.prod(r["local"]) <= hi]
    if outside:
        boxes = sorted({"x".join(map(str, r["local"])) for r in outside})
        notes.append(f"boxes per GPU of {', '.join(boxes[:3])}{' ...' if len(boxes) > 3 else ''} lie outside "
                     f"the calibrated {lo ** (1 / 3):.0f}^3 to {hi ** (1 / 3):.0f}^3: extrapolated")
    # Two time levels and the model, each with its halo, in single precision.
    need = max(3 * FLOAT * math.prod(n + 2 * a.radius for n in r["local"]) for r in rows) / 2 ** 30
    if need > machine.get("gpu_memory_GiB", math.inf):
        notes.append(f"a box needs {need:.0f} GiB, past the {machine['gpu_memory_GiB']} GiB of a GPU: "
                     "the mini-app could not run it")
    if any(a.periodic) and not cal.shell_points:
        notes.append("no shell/ in the calibration: the periodic shell is modelled from the slabs' "
                     "kernel times (the older model)")
    if a.halo_depth == "best":
        notes.append(f"--halo-depth best: the fastest of K = {', '.join(map(str, BEST_DEPTHS))}, the mini-app's "
                     "auto depths (validation covers K = 1 to 4)")
    elif a.halo_depth not in VALIDATED_DEPTHS:
        notes.append(f"halo depth {a.halo_depth}: validation covers K = 1 to 4 only")
    notes += calibration_caveats(cal)
    notes += scale_caveats(cal, machine)
    return notes


def common_options(ap, defaults=True):
    """The options every study takes. They may stand before the study or
    after it; after it (defaults False) they default to nothing, so that
    the ones given before it stand."""
    def default(value):
        return value if defaults else argparse.SUPPRESS
    ap.add_argument("--radius", type=radius_arg, default=default(4))
    ap.add_argument("--overlap", choices=("on", "off", "auto"), default=default("on"),
                    help="auto: the faster of on and off per point, as the mini-app's default chooses")
    ap.add_argument("--periodic", type=axes_of, default=default((False, False, False)),
                    help="x,y,z: every rank has six neighbours, as in the job scripts' default (none)")
    ap.add_argument("--halo-depth", type=depth_arg, default=default(1),
                    help="K: deep halos, one exchange every K steps; best: the fastest of 1, 2, 4 per point")
    ap.add_argument("--comm", choices=("mpi", "gpu-aware", "staged", "nccl", "peer"), default=default("mpi"),
                    help="the halo bench's rows to fit; mpi (the default): gpu-aware, or the one mode "
                         "the calibration's bench ran (COMM=staged); peer: the slab-based peer path of "
                         "2026-11-26 (superseded; see the docstring)")
    ap.add_argument("--accept-timing-warnings", action="store_true", default=default(False),
                    help="take runs whose reports warn of their timing (under 0.5 s of timed steps, a slow "
                         "node), said on the heading line; by default they are refused")
    ap.add_argument("--markdown", type=output_path(".md"), default=default(None), help="FILE.md: the text")
    ap.add_argument("--csv", type=output_path(".csv"), default=default(None),
                    help="FILE.csv: the table's rows, every machine's")
    ap.add_argument("--plot", type=plot_path, default=default(None), help="FILE.png, .svg or .pdf")


def parser():
    ap = OneLineParser(description=__doc__.split("\n")[0])
    ap.add_argument("calibration")
    ap.add_argument("--machine", required=True, action="append", help="a machine file; repeat to compare")
    common_options(ap)
    sub = ap.add_subparsers(dest="study", required=True)
    w = sub.add_parser("weak")
    w.add_argument("--local", type=triple, default=[512, 512, 512])
    w.add_argument("--nodes", help="comma-separated node counts (default 1, 2, 4 ... the machine's)")
    s = sub.add_parser("strong")
    s.add_argument("--grid", type=triple, required=True)
    s.add_argument("--nodes")
    v = sub.add_parser("validate")
    v.add_argument("reports")
    v.add_argument("--tolerance", type=tolerance_arg, default=0.10,
                   help="the largest error allowed, a fraction: 0.10 is 10%%")
    v.add_argument("--machine-scale", action="store_true",
                   help="apply the machine file's kernel_time_scale (by default the runs are taken as "
                        "the calibration node's, scale 1)")
    for study in (w, s, v):
        common_options(study, defaults=False)
    return ap


def projection_text(cal, machine, a, by_label):
    """The projection's section for one machine and its CSV records; its rows go into by_label for
    the plot."""
    name, peer = machine["name"], a.comm == "peer"
    nodes = node_counts(a.nodes, machine) if a.nodes else node_series(machine["nodes"])
    overlap = a.overlap if a.overlap == "auto" else a.overlap == "on"
    study = weak if a.study == "weak" else strong
    box = a.local if a.study == "weak" else a.grid
    depth_cells = (a.halo_depth if a.halo_depth != "best" else 1) * a.radius
    if a.study == "weak" and min(box) < depth_cells:
        raise ToolError(f"--local {','.join(map(str, box))}: the mini-app refuses a box under the halo's "
                        f"depth ({a.halo_depth}*R = {depth_cells} cells) along an axis it splits")
    rows = study(cal, machine, box, a.radius, overlap, nodes, a.periodic, a.halo_depth, peer)
    what = f"local {'x'.join(map(str, box))}" if a.study == "weak" else f"grid {'x'.join(map(str, box))}"
    thinnest = thinnest_box(a.radius, a.halo_depth)
    if not rows:
        raise ToolError(f"{a.study} {what}: no node count of {nodes} splits it into boxes of "
                        f"{thinnest} cells or more along each split axis (k*R: the mini-app's least)")
    stopped = [f"no row past {rows[-1]['nodes']} nodes: the boxes would be thinner than {thinnest} cells"
               ] if len(rows) < len(nodes) else []
    by_label[name if a.halo_depth == 1 else f"{name}, halo depth {a.halo_depth}"] = rows
    if a.halo_depth != 1:  # the plot shows what the depth bought
        by_label[f"{name}, halo depth 1"] = study(cal, machine, box, a.radius, overlap, nodes, a.periodic)
    bounds = "periodic " + ",".join(x for x, p in zip("xyz", a.periodic) if p) if any(a.periodic) else "open edges"
    depth = "" if a.halo_depth == 1 else f", halo depth {a.halo_depth}"
    depth += ", the slab-based --comm peer of 2026-11-26 on each node" if peer else ""
    notes = "".join("; " + n for n in stopped + caveats(cal, a, machine, rows))
    return [f"## {name}: {a.study} scaling, {what}, R={a.radius}, overlap {a.overlap}, {bounds}{depth} "
            f"(PROJECTION{notes})", "", projection_table(rows, a.study, a.halo_depth == "best"), "",
            base_line(a.study, rows[0], machine, nodes), ""], projection_records(name, rows, a.overlap)


def base_line(study, row, machine, nodes):
    """What each row's efficiency is against, said under the table."""
    if study == "weak":
        return (f"Weak efficiency: one GPU alone with the same box and edges ({row['base_ms']:.3f} ms a step) "
                "over the step at n nodes.")
    return (f"Strong efficiency: one node's step ({machine['gpus_per_node']} GPUs, {row['base_ms']:.3f} ms"
            f"{'' if 1 in nodes else ', not a row of this table'}) over n x the step at n nodes.")


def main(argv):
    a = parser().parse_args(argv[1:])
    if a.study == "validate" and a.plot:
        raise ToolError("--plot draws a projection; validate's answer is its table")
    if a.plot:
        require_matplotlib()
    # Every machine file is checked before the calibration is read or any arithmetic done.
    machines = [load_machine(path) for path in a.machine]
    cal = Calibration.from_folder(folder_of(a.calibration), "mpi" if a.comm == "peer" else a.comm,
                                  a.accept_timing_warnings)
    machines = [machine_for(cal, m) for m in machines]
    text = [f"Calibration ({a.calibration}): {cal.describe()}.", ""]
    passed, by_label, records = True, {}, []
    for machine in machines:
        if a.study == "validate":
            section, ok, found = validation_text(cal, machine, a)
            passed = passed and ok
        else:
            section, found = projection_text(cal, machine, a, by_label)
        text += section
        records += found
    print("\n".join(text))
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("\n".join(text) + "\n")
    if a.csv:
        write_csv(a.csv, records, a.study == "validate")
    if a.plot and by_label:
        plot(by_label, a.study, a.plot, plot_subtitle(a, machines), cal.box_range())
    return 0 if passed else 1


if __name__ == "__main__":
    run(lambda: main(sys.argv))
