#!/usr/bin/env python3
"""Projects stencil-miniapp's time per step to thousands of GPUs: a model
calibrated on what one node measures, with its assumptions stated. It is a
projection, not a measurement.

usage:
  CALIBRATION and REPORT_DIR are folders or tar archives of them.
  project.py CALIBRATION --machine M.json weak --local 512,512,512 [--nodes 1,2,...]
  project.py CALIBRATION --machine M.json strong --grid 1024,1024,512 [--nodes ...]
  project.py CALIBRATION --machine M.json validate REPORT_DIR [--tolerance 0.10]
  common: [--radius 4] [--overlap on|off|auto] [--halo-depth K|best] [--comm mpi|peer]
          [--markdown FILE] [--plot FILE.png]

CALIBRATION is a folder with (tools/gpu-miniapp.sh --sweep ... --scaling):
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
    modelled yet; docs/scaling/PROJECTION.md, "What the one-kernel step
    changes"): the faces to ranks of the same node carry no pack, message
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
(K-1-s)*R). `best` takes the fastest of K = 1, 2, 4, 8 per point.
Ranks are placed as the mini-app does: MPI_Dims_create's grid, reversed so
z gets the most ranks, rank = (x * PY + y) * PZ + z, GPUs_per_node
consecutive ranks per node.
"""
import argparse
import math
import os
import sys

from calibration import Calibration, fit_line, folder_of, halo_bench_rows, load_reports, phase  # noqa: F401

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from tool_errors import load_json, run  # noqa: E402

FLOAT = 4


# ---- decomposition, as the mini-app does it ------------------------------------

def dims_create(ranks):
    """MPI_Dims_create(ranks, 3): the most balanced factors, non-increasing."""
    divisors = [d for d in range(1, int(math.isqrt(ranks)) + 1) if ranks % d == 0]
    divisors = sorted(set(divisors + [ranks // d for d in divisors]))
    best = None
    for a in divisors:
        for b in divisors:
            if b > a or (ranks // a) % b:
                continue
            c = ranks // a // b
            if c > b:
                continue
            key = (a - c, a)
            if best is None or key < best[0]:
                best = (key, (a, b, c))
    return best[1]


def process_grid(ranks):
    a, b, c = dims_create(ranks)
    return (c, b, a)  # reversed: z, the slowest index, gets the most ranks


def piece(n, parts, coord):
    return n // parts + (1 if coord < n % parts else 0)


# ---- the model -----------------------------------------------------------------

def directions(depth):
    """The neighbours a rank exchanges with at `depth`: those across at most
    `depth` axes (halo/halo_plan.hpp): the six faces at depth 1, faces and
    edges (18) at 2, all 26 from 3."""
    out = []
    for dz in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                moved = (dx != 0) + (dy != 0) + (dz != 0)
                if 0 < moved <= depth:
                    out.append((dx, dy, dz))
    return out


def project_run(cal, machine, grid, procs, radius, overlap, periodic=(False, False, False), depth=1,
                peer=False):
    """Time per step (ms) of the slowest rank, and what made it. Along a
    `periodic` axis every rank has both neighbours; a rank alone there is
    its own, and fills those halos on the device (no message). At `depth`
    k the step is the mean over a k-step cycle (module docstring). With
    `peer` (--comm peer) faces to ranks of the same node are stored by the
    slabs (module docstring); the others go by MPI."""
    if peer and not (overlap and depth == 1 and cal.shell_points):
        raise SystemExit("project: --comm peer runs overlap on at halo depth 1, and its model needs "
                         "the shell calibration (shell/*.json)")
    px, py, pz = procs
    gpn = machine["gpus_per_node"]
    nic_bytes_per_ms = machine.get("nics_per_node", 1) * machine.get("nic_GBps", 0) * 1e9 / 1e3
    net_latency_ms = machine.get("nic_latency_us", 0) * 1e-3
    link_bytes_per_ms = cal.link_bytes_per_ms if machine.get("link_GBps") in (None, "measured") \
        else machine["link_GBps"] * 1e9 / 1e3
    # CPU ranks sharing cores (HOST back-end) all slow down together.
    on_node = min(gpn, px * py * pz)
    share = max(1.0, on_node / machine["cores_per_node"]) if machine.get("cores_per_node") else 1.0
    scale = machine.get("kernel_time_scale", 1.0)  # another GPU than the calibration's (assumption)
    floor = cal.points[0][1]

    def kernel(cells):
        # Only the part above the small-box floor is memory-bound and scales
        # with the GPU's bandwidth; the floor (launch, too few blocks) does not.
        t = cal.kernel_ms(cells)
        return share * (min(t, floor) + max(0.0, t - floor) * scale)

    ranks = []
    node_offnode = {}
    for cx in range(px):
        for cy in range(py):
            for cz in range(pz):
                c = (cx, cy, cz)
                local = [piece(grid[a], procs[a], c[a]) for a in range(3)]
                rank = (cx * py + cy) * pz + cz
                # (axis or -1 for an edge or corner, bytes, off-node, to itself, bytes packed)
                faces = []
                for d in directions(depth):
                    n = [c[a] + d[a] for a in range(3)]
                    if any(not 0 <= n[a] < procs[a] and not periodic[a] for a in range(3)):
                        continue
                    n = [n[a] % procs[a] for a in range(3)]
                    other = (n[0] * py + n[1]) * pz + n[2]
                    axis = [a for a in range(3) if d[a]][0] if sum(map(abs, d)) == 1 else -1
                    cells = packed = 0
                    moved = sum(1 for a in range(3) if d[a])
                    for level, w in enumerate((depth * radius, (depth - 1) * radius)):
                        # p(t_n-1) goes where at most depth-1 axes are crossed.
                        n_cells = math.prod(w if d[a] else local[a] for a in range(3)) \
                            if w and moved <= depth - level else 0
                        cells += n_cells
                        # z faces go in place, but p(t_n-1) from depth 3 (halo_plan.hpp).
                        if axis != 2 or (level == 1 and depth >= 3):
                            packed += n_cells
                    faces.append((axis, cells * FLOAT, other // gpn != rank // gpn, other == rank,
                                  packed * FLOAT))
                node = rank // gpn
                node_offnode[node] = node_offnode.get(node, 0) + sum(f[1] for f in faces if f[2])
                ranks.append((rank, local, faces))
    worst = None
    for rank, local, faces in ranks:
        per_axis = [sum(1 for f in faces if f[0] == a) for a in range(3)]
        inner = [max(0, local[a] - radius * per_axis[a]) for a in range(3)]
        # The box step s of the cycle updates: grown by (k-1-s)*R per side.
        grown = [[local[a] + (depth - 1 - s) * radius * per_axis[a] for a in range(3)]
                 for s in range(depth)]
        t_int = kernel(math.prod(inner))
        # Slabs, depth*R thick: z slabs span x and y; y slabs the remaining z;
        # x slabs the rest.
        width, g = depth * radius, grown[0]
        t_bnd = 0.0
        for _ in range(per_axis[2]):
            t_bnd += kernel(g[0] * g[1] * width)
        for _ in range(per_axis[1]):
            t_bnd += kernel(g[0] * width * inner[2])
        for _ in range(per_axis[0]):
            t_bnd += cal.x_slab_factor * kernel(width * inner[1] * inner[2])
        sent = [f for f in faces if not f[3]]  # faces to itself move no message
        linked = [f for f in sent if peer and not f[2]]  # stored into on-node neighbours
        sent = [f for f in sent if not (peer and not f[2])]

        def strided_ms(per_byte, which):
            return per_byte * sum(f[4] for f in which) * share * scale

        # The fused pack: at depth 1 with overlap on, the slabs store the
        # sent faces; the measured shell holds that cost.
        fused = overlap and depth == 1 and cal.shell_points and cal.shell_fused_pack
        t_pack = 0.0 if fused else strided_ms(cal.pack_ms_per_byte, sent)
        t_unpack = strided_ms(cal.unpack_ms_per_byte, sent)
        t_ex = 0.0
        for axis, size, off, _, _ in sent:
            if not off:
                t_ex = max(t_ex, cal.latency_ms + size / link_bytes_per_ms)
        if any(f[2] for f in faces):
            if nic_bytes_per_ms <= 0:
                raise SystemExit(f"project: {machine['name']} has no NICs (nics_per_node, nic_GBps), "
                                 f"but {len(ranks)} ranks need {len(ranks) // gpn} nodes")
            t_ex = max(t_ex, cal.latency_ms + net_latency_ms +
                       node_offnode[rank // gpn] / nic_bytes_per_ms)
        fixed = cal.fixed_ms * share
        # From k = 3 the interior waits for the pack (it reads p(t_n-1)
        # cells the interior overwrites).
        waits = t_pack if depth >= 3 else 0.0
        if overlap and cal.shell_points:
            # Measured: the whole box alone, plus the shell a periodic
            # one-GPU run paid (its share for the sides this rank has), plus
            # whatever of the messages the interior does not hide. Deep
            # halos' thicker slabs are in the grown box's kernel time; the
            # split's own cost is taken as the R-thick one's (assumption).
            cells = math.prod(local)
            shell = cells - math.prod(inner)
            full = cells - math.prod(max(0, n - 2 * radius) for n in local)
            t_bnd = cal.shell_ms(cells) * scale * share * (shell / full if full else 0.0)
            # Peer: each linked x face copied whole into the neighbour's
            # mailbox after the step, then unpacked there after the wait.
            t_link = sum(f[1] / link_bytes_per_ms for f in linked if f[0] == 0) + \
                strided_ms(cal.unpack_ms_per_byte, [f for f in linked if f[0] == 0])
            step = fixed + kernel(math.prod(g)) + t_bnd + waits + t_link + \
                max(0.0, t_pack - waits + t_ex + t_unpack - t_int)
        elif overlap:
            step = fixed + waits + max(t_int, t_pack - waits + t_ex) + t_unpack + t_bnd
        else:
            # Every strided face is packed and unpacked before the one
            # launch, the faces a rank fills itself too.
            step = fixed + strided_ms(cal.pack_ms_per_byte, faces) + t_ex + \
                strided_ms(cal.unpack_ms_per_byte, faces) + kernel(math.prod(g))
        # The steps between exchanges: one launch each over a shrinking box.
        step = (step + sum(fixed + kernel(math.prod(b)) for b in grown[1:])) / depth
        row = {"step_ms": step, "interior_ms": t_int, "exchange_ms": t_pack + t_ex,
               "boundary_ms": t_bnd, "hidden": overlap and t_pack + t_ex <= t_int, "local": local,
               "face_mib": max((f[1] for f in faces), default=0) / 1048576, "depth": depth}
        if worst is None or step > worst["step_ms"]:
            worst = row
    return worst


# ---- studies -------------------------------------------------------------------

def node_series(maximum):
    n, out = 1, []
    while n < maximum:
        out.append(n)
        n *= 2
    return out + [maximum]


BEST_DEPTHS = (1, 2, 4, 8)


def project_depth(cal, machine, grid, procs, radius, overlap, periodic, depth, peer=False):
    """project_run at `depth`, or with depth "best" the fastest of
    BEST_DEPTHS whose k*R every rank's box holds (the mini-app's check).
    With overlap "auto", the faster of on and off, the row saying which."""
    if overlap == "auto":
        runs = [dict(project_depth(cal, machine, grid, procs, radius, on, periodic, depth, peer), chosen=name)
                for on, name in ((True, "on"), (False, "off"))]
        return min(runs, key=lambda r: r["step_ms"])
    if depth != "best":
        return project_run(cal, machine, grid, procs, radius, overlap, periodic, depth, peer)
    runs = [project_run(cal, machine, grid, procs, radius, overlap, periodic, k) for k in BEST_DEPTHS
            if all(grid[a] // procs[a] >= k * radius for a in range(3) if procs[a] > 1 or periodic[a])]
    return min(runs, key=lambda r: r["step_ms"])


def weak(cal, machine, local, radius, overlap, nodes, periodic=(False, False, False), depth=1, peer=False):
    # Against one GPU with the same boundaries: with every axis periodic,
    # a lone rank pays the whole shell too, as every rank of the job does.
    base = project_depth(cal, machine, local, (1, 1, 1), radius, overlap, periodic, depth, peer)["step_ms"]
    rows = []
    for n in nodes:
        ranks = n * machine["gpus_per_node"]
        procs = process_grid(ranks)
        grid = [local[a] * procs[a] for a in range(3)]
        r = project_depth(cal, machine, grid, procs, radius, overlap, periodic, depth, peer)
        r.update(nodes=n, ranks=ranks, procs=procs, efficiency=base / r["step_ms"])
        rows.append(r)
    return rows


def strong(cal, machine, grid, radius, overlap, nodes, periodic=(False, False, False), depth=1, peer=False):
    rows, base = [], None
    for n in nodes:
        ranks = n * machine["gpus_per_node"]
        procs = process_grid(ranks)
        if any(procs[a] > 1 and grid[a] // procs[a] < 2 * radius + 1 for a in range(3)):
            break  # boxes thinner than 2R+1: no interior left
        r = project_depth(cal, machine, grid, procs, radius, overlap, periodic, depth, peer)
        base = base or r["step_ms"] * n
        r.update(nodes=n, ranks=ranks, procs=procs, efficiency=base / (r["step_ms"] * n))
        rows.append(r)
    return rows


def table(rows, study):
    deep = any(r["depth"] != 1 for r in rows)
    auto = any("chosen" in r for r in rows)
    head = ("| nodes | GPUs | procs | local box | " + ("halo depth | " if deep else "") +
            ("overlap | " if auto else "") + "largest face MiB | interior ms | exchange ms | hidden | "
            "step ms | " + ("weak eff." if study == "weak" else "strong eff.") + " |")
    out = [head, "|" + "---|" * (10 + deep + auto)]
    for r in rows:
        out.append(f"| {r['nodes']} | {r['ranks']} | {'x'.join(map(str, r['procs']))} | "
                   f"{'x'.join(map(str, r['local']))} | " + (f"{r['depth']} | " if deep else "") +
                   (f"{r['chosen']} | " if auto else "") +
                   f"{r['face_mib']:.2f} | {r['interior_ms']:.3f} | "
                   f"{r['exchange_ms']:.3f} | {'yes' if r['hidden'] else 'no'} | {r['step_ms']:.3f} | "
                   f"{100 * r['efficiency']:.1f}% |")
    return "\n".join(out)


def validate(cal, machine, folder, tolerance):
    """Projection against each measured report; calibration inputs marked."""
    rows, worst, other = [], 0.0, set()
    for r in load_reports(os.path.join(folder, "**", "*.json")):
        peer = r["comm"] == "peer"
        if r["ranks"] > 1 and r["comm"] != cal.mode and not peer:
            other.add(r["comm"])  # the model's exchange is the calibrated mode's
            continue
        projected = project_run(cal, machine, r["grid"], r["procs"], r["radius"], r["overlap"],
                                axes_of(r.get("periodic", "none")), r.get("halo_depth", 1),
                                peer and r["ranks"] > 1)["step_ms"]
        measured = phase(r, "step")
        error = projected / measured - 1
        role = "calibration" if os.path.realpath(r["_path"]) in cal.inputs else "validation"
        if role == "validation":
            worst = max(worst, abs(error))
        rows.append((os.path.relpath(r["_path"], folder), r["ranks"], "x".join(map(str, r["procs"])),
                     "x".join(map(str, r["grid"])), "on" if r["overlap"] else "off",
                     r.get("halo_depth", 1), measured, projected, error, role))
    out = ["| report | GPUs | procs | grid | overlap | halo depth | measured ms | projected ms | error | role |",
           "|" + "---|" * 10]
    for name, ranks, procs, grid, ov, k, m, p, e, role in sorted(rows, key=lambda x: (x[9], x[0])):
        out.append(f"| {name} | {ranks} | {procs} | {grid} | {ov} | {k} | {m:.4f} | {p:.4f} | {100 * e:+.1f}% | "
                   f"{role} |")
    if other:
        out.append(f"\nNot compared (the exchange was calibrated with {cal.mode}): runs with --comm "
                   f"{', '.join(sorted(other))}.")
    return "\n".join(out), worst, len([r for r in rows if r[9] == "validation"])


def plot(rows_by_label, study, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, rows in rows_by_label.items():
        x = [r["nodes"] for r in rows]
        if study == "weak":
            ax.plot(x, [100 * r["efficiency"] for r in rows], marker="o", label=label)
        else:
            ax.plot(x, [r["step_ms"] for r in rows], marker="o", label=label)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("nodes")
    if study == "weak":
        ax.set_ylabel("weak-scaling efficiency (%)")
        ax.set_ylim(0, 105)
    else:
        ax.set_yscale("log")
        ax.set_ylabel("time per step (ms)")
    ax.set_title(f"PROJECTION, not a measurement: {study} scaling")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def axes_of(text):
    """'x,z' -> (True, False, True); 'none' -> all False."""
    names = [] if text in ("", "none") else text.split(",")
    if any(n not in ("x", "y", "z") for n in names):
        raise argparse.ArgumentTypeError(f"'{text}' is not 'none' or a list of x, y, z")
    return tuple(a in names for a in "xyz")


def depth_arg(text):
    if text == "best":
        return text
    if not text.isdigit() or not 1 <= int(text) <= 8:
        raise argparse.ArgumentTypeError(f"'{text}' is not 1..8 or best")
    return int(text)


def triple(text):
    v = [int(x) for x in text.split(",")]
    if len(v) != 3 or min(v) <= 0:
        raise argparse.ArgumentTypeError(f"'{text}' is not three positive integers")
    return v


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("calibration")
    ap.add_argument("--machine", required=True, action="append", help="a machine file; repeat to compare")
    ap.add_argument("--radius", type=int, default=4)
    ap.add_argument("--overlap", choices=("on", "off", "auto"), default="on",
                    help="auto: the faster of on and off per point, as the mini-app's default chooses")
    ap.add_argument("--periodic", type=axes_of, default=(False, False, False),
                    help="x,y,z: every rank has six neighbours, as in the job scripts' default (none)")
    ap.add_argument("--halo-depth", type=depth_arg, default=1,
                    help="K: deep halos, one exchange every K steps; best: the fastest of 1, 2, 4, 8 per point")
    ap.add_argument("--comm", choices=("mpi", "peer"), default="mpi",
                    help="peer: the slab-based peer path of 2026-11-26 (superseded; see the docstring)")
    ap.add_argument("--markdown")
    ap.add_argument("--plot")
    sub = ap.add_subparsers(dest="study", required=True)
    w = sub.add_parser("weak")
    w.add_argument("--local", type=triple, default=[512, 512, 512])
    w.add_argument("--nodes", help="comma-separated node counts (default 1, 2, 4 ... the machine's)")
    s = sub.add_parser("strong")
    s.add_argument("--grid", type=triple, required=True)
    s.add_argument("--nodes")
    v = sub.add_parser("validate")
    v.add_argument("reports")
    v.add_argument("--tolerance", type=float, default=0.10)
    a = ap.parse_args(argv[1:])
    cal = Calibration.from_folder(folder_of(a.calibration))
    text = [f"Calibration ({a.calibration}): {cal.describe()}.", ""]
    status, by_label = 0, {}
    for path in a.machine:
        machine = load_json(path)
        name = machine["name"]
        nodes = [int(n) for n in a.nodes.split(",")] if getattr(a, "nodes", None) else \
            node_series(machine.get("nodes", 1))
        if max(nodes) > machine.get("nodes", 1):
            raise SystemExit(f"project: {name} has {machine.get('nodes', 1)} nodes, not {max(nodes)}")
        overlap = a.overlap if a.overlap == "auto" else a.overlap == "on"
        if a.study == "validate":
            md, worst, count = validate(cal, machine, folder_of(a.reports), a.tolerance)
            text += [f"## {name}: projection against measurement", "", md, "",
                     f"{count} validation runs, worst error {100 * worst:.1f}% "
                     f"(tolerance {100 * a.tolerance:.0f}%)", ""]
            status |= worst > a.tolerance
            continue
        peer = a.comm == "peer"
        rows = weak(cal, machine, a.local, a.radius, overlap, nodes, a.periodic, a.halo_depth, peer) \
            if a.study == "weak" else \
            strong(cal, machine, a.grid, a.radius, overlap, nodes, a.periodic, a.halo_depth, peer)
        by_label[name if a.halo_depth == 1 else f"{name}, halo depth {a.halo_depth}"] = rows
        if a.halo_depth != 1:  # the plot shows what the depth bought
            by_label[f"{name}, halo depth 1"] = \
                weak(cal, machine, a.local, a.radius, overlap, nodes, a.periodic) if a.study == "weak" else \
                strong(cal, machine, a.grid, a.radius, overlap, nodes, a.periodic)
        what = f"local {'x'.join(map(str, a.local))}" if a.study == "weak" else f"grid {'x'.join(map(str, a.grid))}"
        bounds = "periodic " + ",".join(x for x, p in zip("xyz", a.periodic) if p) if any(a.periodic) else "open edges"
        depth = "" if a.halo_depth == 1 else f", halo depth {a.halo_depth}"
        depth += ", the slab-based --comm peer of 2026-11-26 on each node" if peer else ""
        text += [f"## {name}: {a.study} scaling, {what}, R={a.radius}, overlap {a.overlap}, {bounds}{depth} "
                 "(PROJECTION)", "",
                 table(rows, a.study), ""]
    print("\n".join(text))
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("\n".join(text) + "\n")
    if a.plot and by_label:
        plot(by_label, a.study, a.plot)
    return status


if __name__ == "__main__":
    run(lambda: main(sys.argv))
