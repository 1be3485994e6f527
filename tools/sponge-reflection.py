#!/usr/bin/env python3
"""How much the absorbing sponge (--sponge W) reflects, measured with the mini-app.

usage:
  sponge-reflection.py APP [--widths 0,8,16,32] [--angles 0,45] [--launcher CMD]
                       [--work DIR] [--markdown] [--below DB] [--plant-sponge-off]
                       [--height A] [--behind B]

  APP         a stencil-miniapp binary, any back-end (HOST or GPU)
  --widths    the --sponge widths to measure; 0 is the rigid wall, which
              reads 0 dB by the definition below (its check)
  --angles    incidence angles in degrees, 0 (normal) to 60
  --markdown  the table in Markdown, as docs/OPTIONS.md holds it
  --launcher  the command that starts it, split as a shell would
              ("mpirun -np 1"; default: none, the binary alone)
  --work DIR  keep every run under DIR (made if missing; it must be empty);
              default: a temporary folder, removed at the end
  --below DB  exit 1 unless every reflection measured is below DB dB
  --plant-sponge-off   test aid: the box that should have the sponge runs
              with --sponge 0 (its geometry unchanged), so the reflection
              is the rigid wall's and a --below check must fail
  --height A, --behind B   the geometry below, in cells (default 20, 20)

What is measured. The low-z face of a box with --sponge W (on every face,
as the mini-app puts it), a point source (the Ricker wavelet at the
default f0 of R = 4: 6 cells per shortest wavelength, 15 per peak
wavelength) and one receiver near it; constant model (1500 m/s), h = 10 m,
R = 4, FP32, the default dt. The face's mirror plane is z = W - 1, the
sponge's innermost damped layer; for W = 0 it is z = -1, the layer of
zeros just outside the grid, which the rigid wall of the grid's edge is.
The receiver is A cells (--height, default 20) above the plane.
  - normal incidence (angle 0): the source B cells (--behind, default 20)
    straight above the receiver, so the reflection comes back along the
    line source-receiver-face;
  - oblique (angle a): the source at the receiver's height, offset along x
    by 2 A tan(a), so the ray that a mirror in the plane returns from the
    source to the receiver meets the plane at a from its normal.
The same problem runs again in a reference box: the same box with E more
cells below the face (the face's own reflection then arrives after the
window), source and receivers at the same places relative to every other
face. So the two runs differ only by what the face sends back, and their
difference at the receiver is the reflected wave alone.

The number. R(W, a) in dB = 10 log10(E_reflected / E_incident), each a sum
of p^2 over the samples of a window (samples dt apart: the sums stand for
time integrals), t0 = 1.5/f0 being the wavelet's peak:
  E_reflected: (p_box - p_reference)^2 at the receiver, from the first
      sample until c t / h = L_wall + c (t0 + 1.5/f0) / h, where L_wall is
      the path from the source to the receiver through a mirror at z = -1
      (the grid's edge: the deepest a reflection of this face comes from);
  E_incident: p_reference^2 at the receiver's mirror image in the plane,
      until c t / h = L + c (t0 + 1.5/f0) / h, L the distance from the
      source to that image: the direct wave there, which is what a perfect
      mirror in the plane would return to the receiver, along a path as
      long, so with the same spreading.
So 0 dB is a perfect mirror where the sponge begins; the rigid wall of
W = 0 reads 0.0 dB at 0 and 45 degrees, which checks the definition. The
tool sizes both boxes so that every other arrival at either receiver
(through any other face's mirror plane, and in the reference through this
face's too), counted from the wavelet's start (t0 - 1.2/f0), comes at
least 3 cells of travel after the window ends: a window holds the direct
wave and this face's reflection, nothing else.
The angle is nominal: a point source sends a spread of angles, and the part
of the wave that reaches the wall through a wide sponge meets it more
steeply than the ray through the plane does.

The physics depends on the back-end only through rounding: HOST numbers
hold for the GPU builds. Needs NumPy. Bad input: one line, exit status 2;
--below failed: exit 1.
"""
import argparse
import math
import os
import shlex
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from text_table import print_table  # noqa: E402
from tool_errors import OneLineParser, ToolError, load_json, run  # noqa: E402

try:
    import numpy as np
except ImportError:  # pragma: no cover - said in one line
    np = None

RADIUS = 4
SPACING = 10.0  # metres, the mini-app's default
SPEED = 1500.0  # m/s, the constant model
# The Ricker wavelet peaks at t0 = 1.5/f0 (miniapp/config/model.cpp); 1.2/f0
# from its peak it is 2e-5 of it (4e-10 in energy), 1.5/f0 from it 1e-8. So
# an arrival that a window must not hold is taken to start 1.2/f0 before its
# peak, and a window ends 1.5/f0 after the peak of the last arrival it holds:
# the wider tail and MARGIN's cells of slack between the two are for the
# numerical wave, whose short wavelengths travel slower and trail it.
DELAY, LEAD, TAIL = 1.5, 1.2, 1.5
MARGIN = 3


def int_list(text, name, low, high):
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        values = []
    if not values or min(values) < low or max(values) > high:
        raise ToolError(f"{name} {text}: integers from {low} to {high}, separated by commas")
    return values


def geometry(width, angle, height, behind, pulse):
    """Grids, cells and windows of one measurement, in cells; `pulse` in
    cells of travel (c t / h): its delay, lead and tail."""
    plane = width - 1  # the face's mirror plane
    if angle == 0:
        offset, receiver_z, source_z = 0, plane + height, plane + height + behind
    else:
        offset = int(round(2 * height * math.tan(math.radians(angle))))
        receiver_z = source_z = plane + height
    rise = source_z - receiver_z
    mirror_rise = (source_z - plane) + (receiver_z - plane)  # source to the mirror image
    inner = math.hypot(offset, mirror_rise)  # the path through the plane
    wall = math.hypot(offset, source_z + receiver_z + 2)  # through z = -1
    end = wall + pulse["delay"] + pulse["tail"]
    end_mirror = inner + pulse["delay"] + pulse["tail"]
    # An arrival starts pulse["delay"] - pulse["lead"] after its path: the
    # shortest path another face may give each receiver.
    need = end - (pulse["delay"] - pulse["lead"]) + MARGIN
    need_mirror = end_mirror - (pulse["delay"] - pulse["lead"]) + MARGIN

    def half(length, *across):
        # The least d with hypot(2 d + across[0], across[1:]) >= length.
        rest = length ** 2 - sum(a ** 2 for a in across[1:])
        return max(1, math.ceil((math.sqrt(max(rest, 0.0)) - across[0]) / 2))

    # Each other face's mirror plane this far from the nearest of source
    # and receivers (x: along the offset; y: across it; top: above both),
    # and the reference's extra cells below the face.
    dx = max(half(need, offset, rise), half(need_mirror, offset, mirror_rise))
    dy = max(half(need, 0, offset, rise), half(need_mirror, 0, offset, mirror_rise))
    top = max(half(need, rise, offset), half(need_mirror, mirror_rise, offset))
    extra = max(half(need, mirror_rise, offset), half(need_mirror, rise, offset))
    source = [plane + dx, plane + dy, source_z]
    receiver = [source[0] + offset, source[1], receiver_z]
    grid = [receiver[0] + dx + width, source[1] + dy + width, source_z + top + width]
    mirror = [receiver[0], receiver[1], 2 * plane - receiver_z + extra]
    return {"grid": grid, "grid_ref": grid[:2] + [grid[2] + extra], "source": source,
            "receiver": receiver, "extra": extra, "mirror_ref": mirror,
            "angle": math.degrees(math.atan2(offset, mirror_rise)), "end": end,
            "end_mirror": end_mirror}


def run_app(args, folder, options):
    """Runs the mini-app into `folder`; its traces (receivers x steps) and sidecar."""
    command = shlex.split(args.launcher) + [args.app] + options + [
        "--output", folder, "--report", folder + ".json", "--quiet"]
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise ToolError(f"{command[0]}: {e.strerror}") from None
    if done.returncode != 0:
        said = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[-1]
        raise ToolError(f"the mini-app failed (exit {done.returncode}): {said}")
    side = load_json(os.path.join(folder, "traces.json"))
    traces = np.fromfile(os.path.join(folder, "traces.bin"), dtype=np.dtype(side["dtype"]))
    return traces.reshape(len(side["receivers"]), side["nt"]).astype(np.float64), side


def write_receivers(path, cells):
    with open(path, "w") as f:
        f.write("".join("%d,%d,%d\n" % tuple(c) for c in cells))


def measure(args, width, angle, pulse, dt, tag):
    g = geometry(width, angle, args.height, args.behind, pulse)
    cells_per_second = SPEED / SPACING
    steps = math.ceil(g["end"] / cells_per_second / dt) + 2
    common = ["--radius", str(RADIUS), "--spacing", str(SPACING), "--f0", repr(args.f0),
              "--steps", str(steps), "--warmup", "0"]
    folder = os.path.join(args.work, tag)
    shift = [0, 0, g["extra"]]
    ref_cells = [[c + s for c, s in zip(g["receiver"], shift)], g["mirror_ref"]]
    write_receivers(folder + "-box.txt", [g["receiver"]])
    write_receivers(folder + "-reference.txt", ref_cells)
    cells = "%d,%d,%d"
    box_sponge = 0 if args.plant_sponge_off else width
    box, side = run_app(args, folder + "-box", common + [
        "--sponge", str(box_sponge), "--grid", cells % tuple(g["grid"]),
        "--source", cells % tuple(g["source"]), "--receivers", folder + "-box.txt"])
    ref, _ = run_app(args, folder + "-reference", common + [
        "--sponge", str(width), "--grid", cells % tuple(g["grid_ref"]),
        "--source", cells % tuple(c + s for c, s in zip(g["source"], shift)),
        "--receivers", folder + "-reference.txt"])
    # Travel in cells at each sample: c t / h.
    travel = (side["first_time_s"] + side["dt_s"] * np.arange(side["nt"])) * cells_per_second
    reflected = np.sum(((box[0] - ref[0]) ** 2)[travel <= g["end"]])
    incident = np.sum((ref[1] ** 2)[travel <= g["end_mirror"]])
    if not incident > 0:
        raise ToolError(f"--sponge {width}, {angle} degrees: no incident wave at the mirror "
                        "receiver; is APP a stencil-miniapp?")
    decibels = 10 * math.log10(reflected / incident) if reflected > 0 else -math.inf
    return decibels, g, steps


def probe(args):
    """dt and f0 of the measurement's problem, from a run of one step."""
    folder = os.path.join(args.work, "probe")
    write_receivers(folder + ".txt", [[1, 1, 1]])
    _, side = run_app(args, folder, ["--grid", "16,16,16", "--radius", str(RADIUS), "--steps", "1",
                                     "--warmup", "0", "--receivers", folder + ".txt"])
    report = load_json(folder + ".json")
    return side["dt_s"], report["f0_hz"]


def measure_all(args):
    dt, f0 = probe(args)
    args.f0 = f0
    period = SPEED / (SPACING * f0)  # cells of travel per period of f0
    pulse = {"delay": DELAY * period, "lead": LEAD * period, "tail": TAIL * period}
    rows = []
    for width in args.widths:
        for angle in args.angles:
            start = time.monotonic()
            tag = "w%d-a%d" % (width, angle)
            decibels, g, steps = measure(args, width, angle, pulse, dt, tag)
            # The offset along the face is rounded to whole cells, so the
            # ray's angle may differ from the one asked: say which it is.
            print("--sponge %d, %d degrees: %.1f dB (the ray at %.1f degrees; box %s, "
                  "reference %s, %d steps, %.0f s)"
                  % (width, angle, decibels, g["angle"], "x".join(map(str, g["grid"])),
                     "x".join(map(str, g["grid_ref"])), steps, time.monotonic() - start),
                  flush=True)
            rows.append((width, angle, decibels))
    return rows, dt, f0


def main():
    parser = OneLineParser(description=__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("app")
    parser.add_argument("--widths", default="0,8,16,32")
    parser.add_argument("--angles", default="0,45")
    parser.add_argument("--launcher", default="")
    parser.add_argument("--work")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--below", type=float)
    parser.add_argument("--plant-sponge-off", action="store_true")
    parser.add_argument("--height", type=int, default=20)
    parser.add_argument("--behind", type=int, default=20)
    args = parser.parse_args()
    if np is None:
        raise ToolError("NumPy is needed (Debian: apt-get install python3-numpy; "
                        "if another python3 comes first on PATH, run it with /usr/bin/python3)")
    args.widths = int_list(args.widths, "--widths", 0, 64)
    args.angles = int_list(args.angles, "--angles", 0, 60)
    if not 4 <= args.height <= 200 or not 4 <= args.behind <= 200:
        raise ToolError("--height and --behind: from 4 to 200 cells")
    if not (os.path.isfile(args.app) and os.access(args.app, os.X_OK)):
        raise ToolError(f"{args.app}: not an executable file; name the stencil-miniapp binary")
    if args.work is None:
        with tempfile.TemporaryDirectory(prefix="sponge-reflection-") as work:
            args.work = work
            rows, dt, f0 = measure_all(args)
    else:
        if os.path.exists(args.work) and (not os.path.isdir(args.work) or os.listdir(args.work)):
            raise ToolError(f"--work {args.work}: not an empty folder; name a new one")
        os.makedirs(args.work, exist_ok=True)
        rows, dt, f0 = measure_all(args)
    return report(args, rows, dt, f0)


def report(args, rows, dt, f0):
    planted = " (planted: the box ran with --sponge 0)" if args.plant_sponge_off else ""
    print(f"reflection of the low-z face, R = {RADIUS}, f0 = {f0:g} Hz, dt = {dt:.6g} s, "
          f"h = {SPACING:g} m, c = {SPEED:g} m/s, receiver {args.height} cells from the plane"
          f"{planted}:")
    angles = sorted({a for _, a, _ in rows})
    header = ["--sponge W"] + ["%d° (%s)" % (a, "normal" if a == 0 else "oblique") for a in angles]
    table = {}
    for width, angle, decibels in rows:
        table.setdefault(width, {})[angle] = "%.1f dB" % decibels
    print_table(header, [[str(w)] + [table[w].get(a, "") for a in angles] for w in sorted(table)],
                args.markdown)
    if args.below is None:
        return 0
    over = [(w, a, d) for w, a, d in rows if not d < args.below]
    for width, angle, decibels in over:
        print(f"sponge-reflection: --sponge {width} at {angle} degrees reflects {decibels:.1f} dB, "
              f"not below {args.below:g} dB{planted}")
    return 1 if over else 0


if __name__ == "__main__":
    run(main)
