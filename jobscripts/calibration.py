"""The calibration of jobscripts/project.py: what one node measured (the
mini-app's JSON reports and stencil-halo-bench's tables, in a folder or a tar
archive of one), reduced to the model's constants."""
import atexit
import glob
import math
import os
import re
import shutil
import tarfile
import tempfile

import projection_model  # the model imports only checked.py: no cycle
from calibration_inputs import (halo_bench_identity, load_reports, revisions, same_kernel, shell_bench_identity,
                                trusted)
from checked import ToolError, load_json

FLOAT = 4  # bytes of a cell in the calibration runs (FP32)

_unpacked = {}  # archive's real path -> the folder it was unpacked into, once per run


def folder_of(path):
    """A folder of reports: `path` itself, or a tar archive of one (docs/data
    keeps each experiment as raw.tar.xz), unpacked once into a temporary folder
    that goes when the program ends. The same archive named twice (calibration
    and validation) is the same folder, so calibration inputs stay marked."""
    if os.path.isdir(path):
        return path
    key = os.path.realpath(path)
    if key not in _unpacked:
        if not (os.path.isfile(path) and tarfile.is_tarfile(path)):
            raise ToolError(f"{path}: not a folder of reports or a tar archive of one")
        folder = tempfile.mkdtemp(prefix="project-")
        atexit.register(shutil.rmtree, folder, True)
        try:
            with tarfile.open(path) as archive:
                safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
                archive.extractall(folder, **safe)
        except (tarfile.TarError, EOFError, OSError, ValueError) as e:  # lzma's errors are these
            raise ToolError(f"{path}: a damaged archive ({e})") from None
        # An archive of the folder itself (tar -cJf cal.tar.xz cal) holds
        # one folder at its top: the reports are in it.
        inside = os.listdir(folder)
        if len(inside) == 1 and os.path.isdir(os.path.join(folder, inside[0])):
            folder = os.path.join(folder, inside[0])
        _unpacked[key] = folder
    return _unpacked[key]


def phase(r, name):
    return r["phases_ms"][name]["avg"]


class Calibration:
    """Measured inputs: kernel time against cells, fixed cost per step,
    exchange latency and bandwidth inside a node, strided-face costs."""

    def __init__(self, kernel_points, fixed_ms, latency_ms, link_bytes_per_ms,
                 pack_ms_per_byte=0.0, unpack_ms_per_byte=0.0, x_slab_factor=1.0, mode="gpu-aware",
                 shell_points=(), shell_fused_pack=False):
        self.points = sorted(kernel_points)  # (cells, ms)
        # (cells, ms): what a rank with six neighbours, all of them itself,
        # pays per step over the same box alone (periodic step - none step).
        self.shell_points = sorted(shell_points)
        self.shell_fused_pack = shell_fused_pack  # the shell runs' slabs stored the sent faces
        self.shell_source = "periodic one-GPU runs"  # or the shell bench (_shell_from_bench)
        self.fixed_ms = fixed_ms
        self.latency_ms = latency_ms
        self.link_bytes_per_ms = link_bytes_per_ms  # one direction, one neighbour
        self.pack_ms_per_byte = pack_ms_per_byte
        self.unpack_ms_per_byte = unpack_ms_per_byte
        self.x_slab_factor = x_slab_factor
        # The host's cost per MPI exchange beyond latency and bytes (host/), by overlap.
        self.host_ms = {False: 0.0, True: 0.0}
        self.mode = mode  # the --comm mode whose exchange was measured
        self.inputs = set()  # real paths of the reports the calibration read

    @classmethod
    def from_folder(cls, folder, mode="mpi", accept_warned=False):
        """The calibration in `folder`, every part of it checked
        (calibration_inputs.py); `mode` the exchange whose halo bench rows
        to fit ("mpi": gpu-aware, or the bench's one mode)."""
        sweep = load_reports(os.path.join(folder, "sweep", "*.json"))
        for r in sweep:
            if r["ranks"] != 1 or r["comm"] != "none" or r.get("periodic", "none") not in ("", "none"):
                raise ToolError(f"{os.path.relpath(r['_path'], folder)}: {r['ranks']} ranks, --comm {r['comm']}, "
                                f"periodic {r.get('periodic')}: sweep/ holds one-GPU --comm none runs, open edges")
        if len(sweep) < 2:
            raise ToolError(f"{folder}/sweep needs two or more one-GPU --comm none reports")
        points = [(math.prod(r["grid"]), phase(r, "interior")) for r in sweep]
        fixed = sorted(phase(r, "step") - phase(r, "interior") - phase(r, "boundary") for r in sweep)
        mode, rows, benches = halo_bench_fit(folder, mode)
        latency, per_byte = fit_line(rows)
        # The bench's bytes are sent plus received by one rank with one
        # neighbour: S each way, at once, in latency + 2S * slope. So one
        # direction moves 1 / (2 * slope) bytes per ms.
        link = 1.0 / (2.0 * per_byte) if per_byte > 0 else float("inf")
        cal = cls(points, fixed[len(fixed) // 2], latency, link, mode=mode)
        cal.radii = sorted({r["radius"] for r in sweep})
        cal.precision = str(sweep[0].get("precision", "fp32"))
        cal.devices = sorted(devices_of(sweep))
        cal.folder = folder
        strided = load_reports(os.path.join(folder, "scaling", "*along-x*-n2.json"))
        host = load_reports(os.path.join(folder, "host", "*.json"))
        for r in strided + host:  # the exchange the model takes is the calibrated mode's
            if r["comm"] != mode:
                raise ToolError(f"{os.path.relpath(r['_path'], folder)}: --comm {r['comm']}, but the "
                                f"calibration's exchange is {mode}: one calibration is one exchange's")
        shell_reports = load_reports(os.path.join(folder, "shell", "*.json"))
        bench = os.path.join(folder, "shell-bench.json")
        if os.path.isfile(bench):
            benches.append((bench, shell_bench_identity(bench, load_json(bench))))
        every = sweep + strided + host + shell_reports
        same_kernel(folder, every, benches)
        cal.notes = trusted(folder, every, accept_warned) + revisions(every)
        cal._strided_from(strided)
        shell = cal._shell_from(shell_reports, sweep)
        if os.path.isfile(bench):
            cal._shell_from_bench(bench)
        host = cal._host_from(host)
        cal.inputs = {os.path.realpath(r["_path"]) for r in sweep + strided + shell + host}
        return cal

    def _shell_from(self, reports, sweep):
        """The shell's cost from one-GPU runs with every axis periodic, each
        against the --comm none run of the same box: the step with six
        self-neighbours (pack, halo fill, the shrunk interior and the six
        slabs, as they contend on the GPU) minus the step alone."""
        alone = {tuple(r["grid"]): phase(r, "step") for r in sweep}
        used = [r for r in reports if r["ranks"] == 1 and r.get("periodic") == "x,y,z"
                and r["overlap"] and tuple(r["grid"]) in alone]
        self.shell_points = sorted((math.prod(r["grid"]), max(0.0, phase(r, "step") - alone[tuple(r["grid"])]))
                                   for r in used)
        # Reports from before the fused pack have no "fused_pack": they paid a pack.
        self.shell_fused_pack = bool(used) and all(r.get("fused_pack", False) for r in used)
        return used

    def _host_from(self, reports):
        """The host's cost of an exchange by MPI messages, beyond what the
        model already counts (latency, bytes, packs, kernels), once with
        overlap off and once on: from two GPUs split along x with open
        edges at depth 1, each the median of what such a run's step takes
        beyond the model's step with no host cost. It is the launches and
        the host's waits on the pack and the unpack: about 20 us a step on
        an H100 node, more than a 64^3 kernel."""
        node = {"name": "calibration node", "gpus_per_node": 2, "link_GBps": "measured"}
        used = []
        for overlap in (False, True):
            runs = [r for r in reports if r["ranks"] == 2 and list(r["procs"]) == [2, 1, 1]
                    and bool(r["overlap"]) == overlap and r["halo_depth"] == 1
                    and r.get("periodic") in (None, "", "none")]
            residuals = []
            for r in runs:
                grid = [2 * r["local_rank0"][0]] + list(r["local_rank0"][1:])
                modelled = projection_model.project_run(self, node, grid, (2, 1, 1), r["radius"], overlap)
                residuals.append(phase(r, "step") - modelled["step_ms"])
            if residuals:
                self.host_ms[overlap] = max(0.0, sorted(residuals)[len(residuals) // 2])
            used += runs
        return used

    def _shell_from_bench(self, path):
        """The shell's cost from stencil-bench's shell variants on one GPU:
        the interior and the six slabs as the step launches them, over the
        whole box in one wave launch, per cube. Since a one-GPU periodic run
        is one kernel a step (its faces are its own, stored by the update),
        its step no longer holds the slabs that faces sent as messages
        need; the bench times them alone. Its slabs store no faces, so the
        pack stays a separate cost in the model."""
        times = {}
        for b in (load_json(path).get("benchmarks") or []):
            parts = str(b.get("name", "")).split("/")
            if len(parts) >= 4 and b.get("run_type", "iteration") == "iteration" and \
                    b.get("time_unit") in ("ms", "us"):
                ms = float(b["real_time"]) * (1e-3 if b["time_unit"] == "us" else 1.0)
                times[(parts[0], parts[3])] = ms
        points = []
        for (kernel, size), ms in times.items():
            if kernel != "wave" or ("shell_inner", size) not in times or ("shell_slabs", size) not in times:
                continue
            extra = times[("shell_inner", size)] + times[("shell_slabs", size)] - ms
            points.append((math.prod(int(n) for n in size.split("x")), max(0.0, extra)))
        if len(points) < 2:
            raise ToolError(f"{path}: needs wave, shell_inner and shell_slabs at two or more sizes")
        self.shell_points = sorted(points)
        self.shell_fused_pack = False
        self.shell_source = "the shell bench"

    def _strided_from(self, reports):
        """Pack, unpack and thin x slabs, from two ranks split along x."""
        off = [r for r in reports if not r["overlap"]]
        on = [r for r in reports if r["overlap"]]
        self.strided = bool(off and on)
        if not self.strided:
            return
        r = off[0]
        nx, ny, nz = r["local_rank0"]
        face = r["radius"] * ny * nz * FLOAT
        self.pack_ms_per_byte = phase(r, "pack") / face
        self.unpack_ms_per_byte = phase(r, "unpack") / face
        slab = r["radius"] * ny * nz
        self.x_slab_factor = max(1.0, phase(on[0], "boundary") / self.kernel_ms(slab))

    def box_range(self):
        """The smallest and largest box the sweep measured, in cells."""
        return self.points[0][0], self.points[-1][0]

    def kernel_ms(self, cells):
        """Kernel time for a box of `cells`, log-log between sweep points;
        below the smallest, its time (launch-bound); above, linear."""
        return interpolate(self.points, cells)

    def shell_ms(self, cells):
        """The six-neighbour shell's cost for a box of `cells`, the same way."""
        return interpolate(self.shell_points, cells)

    def describe(self):
        shell = "; thin x slabs {:.1f}x slower".format(self.x_slab_factor) if not self.shell_points else \
            "; the shell from {}, {} sizes ({:.3f} ms over the step alone at {:.0f}^3, {} pack)".format(
                self.shell_source, len(self.shell_points), self.shell_points[-1][1],
                self.shell_points[-1][0] ** (1 / 3), "fused" if self.shell_fused_pack else "separate")
        return (f"fixed {self.fixed_ms * 1e3:.1f} us/step; exchange ({self.mode}, the halo bench's) latency "
                f"{self.latency_ms * 1e3:.1f} us, "
                f"link {self.link_bytes_per_ms * 1e3 / 1e9:.0f} GB/s per direction; pack "
                f"{self.pack_ms_per_byte * 1e6:.3f} and unpack {self.unpack_ms_per_byte * 1e6:.3f} ns/byte "
                f"(strided faces); host {self.host_ms[False] * 1e3:.1f} us (overlap off), "
                f"{self.host_ms[True] * 1e3:.1f} us (on) per exchange{shell}")


def devices_of(reports):
    """Each device the reports ran on, with its back-end ("NVIDIA H200 (CUDA)"),
    from reports that name them (older reports do not)."""
    return {f"{d} ({r.get('backend', '?')})" for r in reports for d in r.get("devices") or []}


def interpolate(pts, cells):
    """Log-log between points (cells, ms); below the smallest, its value
    (launch-bound); above the largest, linear in cells."""
    if cells <= 0 or not pts:
        return 0.0
    if cells <= pts[0][0]:
        return pts[0][1]
    if cells >= pts[-1][0]:
        return pts[-1][1] * cells / pts[-1][0]
    for (c0, t0), (c1, t1) in zip(pts, pts[1:]):
        if c0 <= cells <= c1:
            if t0 <= 0 or t1 <= 0:
                return t0 + (t1 - t0) * (cells - c0) / (c1 - c0)
            f = math.log(cells / c0) / math.log(c1 / c0)
            return math.exp(math.log(t0) + f * (math.log(t1) - math.log(t0)))
    raise AssertionError("unreachable")


def halo_bench_rows(lines, mode, path="the halo bench's table"):
    """(bytes, ms) per exchange of `mode` from stencil-halo-bench's table, at
    halo depth 1. The columns come from its header line ("mode local depth
    messages MiB/exch us/exch ..."); tables without one (before deep halos)
    are "mode local MiB/exch us/exch ...". A size or time that is not a
    positive number (a damaged or hand-edited table) is refused, naming
    the line: the fit would carry it into every projection."""
    columns = ["mode", "local", "MiB/exch", "us/exch"]
    rows = []
    for number, line in enumerate(lines, 1):
        fields = line.split()
        if fields and fields[0] == "mode":
            columns = fields
        elif len(fields) >= 4 and fields[0] == mode and fields[1].isdigit():
            cell = dict(zip(columns, fields))
            if cell.get("depth", "1") != "1":
                continue
            values = []
            for column in ("MiB/exch", "us/exch"):
                try:
                    value = float(cell.get(column, "missing"))
                except ValueError:
                    value = math.nan
                if not math.isfinite(value) or value <= 0:
                    raise ToolError(f"{path}, line {number}: {column} is {cell.get(column, 'missing')}, "
                                    "not a positive number")
                values.append(value)
            rows.append((values[0] * 1048576, values[1] * 1e-3))
    return rows


def halo_bench_fit(folder, mode):
    """(mode, rows, identities) of the halo bench tables in `folder`: the
    rows of `mode`, where "mpi" is gpu-aware, or the one mode the tables
    hold (a COMM=staged calibration's); and each table's device and R."""
    tables, modes = [], set()
    for path in sorted(glob.glob(os.path.join(folder, "halo-bench-*.txt"))):
        with open(path) as f:
            lines = f.read().splitlines()
        tables.append((path, lines))
        modes |= {f[0] for f in map(str.split, lines)
                  if len(f) >= 4 and f[1].isdigit() and re.fullmatch("[a-z-]+", f[0])}
    if not tables:
        raise ToolError(f"{folder}: no halo-bench-*.txt (stencil-halo-bench's table)")
    if mode == "mpi":
        mode = "gpu-aware" if "gpu-aware" in modes or len(modes) != 1 else modes.pop()
    rows = [row for path, lines in tables for row in halo_bench_rows(lines, mode, path)]
    if len(rows) < 2:
        raise ToolError(f"no '{mode}' rows in {folder}/halo-bench-*.txt (it has "
                        f"{', '.join(sorted(modes)) or 'none'}): choose one with --comm")
    return mode, rows, [(path, halo_bench_identity(path, lines)) for path, lines in tables]


def fit_line(rows):
    """Least-squares t = a + b * x over (x, t) rows."""
    n = len(rows)
    sx = sum(x for x, _ in rows)
    st = sum(t for _, t in rows)
    sxx = sum(x * x for x, _ in rows)
    sxt = sum(x * t for x, t in rows)
    if n * sxx - sx * sx == 0:
        raise ToolError("a line needs two or more distinct sizes to fit, got %d rows" % n)
    b = (n * sxt - sx * st) / (n * sxx - sx * sx)
    return (st - b * sx) / n, b


def calibration_caveats(cal):
    """What the calibration lacks or could not resolve."""
    notes = list(getattr(cal, "notes", []))
    if not getattr(cal, "strided", True):
        notes.append("no scaling/*along-x*-n2 runs in the calibration: strided faces and thin x slabs "
                     "taken as free")
    negative = [f"{name} ({value * 1e3:.1f} us)" for name, value in
                (("fixed cost", cal.fixed_ms), ("exchange latency", cal.latency_ms)) if value < 0]
    if negative:
        notes.append(f"the calibration's {' and '.join(negative)} came out negative: its runs were too "
                     "short to resolve them")
    return notes


def machine_for(cal, machine):
    """The machine file with the kernel time scale of the calibration's GPU:
    where `kernel_time_scales` names it ({"H100": 2.1, "H200": 3.0}, each
    key part of a report's device name, in any case), that entry becomes
    kernel_time_scale and kernel_time_scale_from; else the file's own
    kernel_time_scale. A file with kernel_time_scales but neither the
    calibration's GPU in it nor a kernel_time_scale is refused: a scale of
    1 there would be a guess, not the file's."""
    devices = getattr(cal, "devices", [])
    scales = machine.get("kernel_time_scales") or {}
    found = [(gpu, scale) for gpu, scale in scales.items()
             if devices and all(gpu.lower() in d.lower() for d in devices)]
    longest = max((len(gpu) for gpu, _ in found), default=0)
    found = [(gpu, scale) for gpu, scale in found if len(gpu) == longest]  # "H100 PCIe" before "H100"
    where = machine.get("_path", machine["name"])
    if len({scale for _, scale in found}) > 1:
        raise ToolError(f"{where}: kernel_time_scales gives {' and '.join(f'{g} {s:g}' for g, s in found)} "
                        f"for {' and '.join(devices)}: keep one")
    if found:
        return dict(machine, kernel_time_scale=found[0][1], kernel_time_scale_from=found[0][0])
    if scales and "kernel_time_scale" not in machine:
        raise ToolError(f"{where}: no kernel time scale for the calibration's "
                        f"{' and '.join(devices) or 'device (its reports name none)'}: kernel_time_scales "
                        f"has {', '.join(sorted(scales))}, and there is no kernel_time_scale; add its entry")
    return machine


def scale_caveats(cal, machine):
    """The kernel time scale, whether the calibration ran on the GPU it is
    relative to, and where the file names none, the scale of 1 taken."""
    scale = machine.get("kernel_time_scale", 1.0)
    if "kernel_time_scale" not in machine:
        return ["kernel time scale 1: the machine file names none, so its GPUs are taken as the "
                "calibration's"]
    if scale == 1.0:
        return []
    base = machine.get("kernel_time_scale_from")
    devices = getattr(cal, "devices", [])
    note = f"kernel times scaled by {scale:g} (the machine file's assumption)"
    if base and devices and not all(base.lower() in d.lower() for d in devices):
        note += (f", which is relative to an {base}, but the calibration ran on {' and '.join(devices)}: "
                 "the scale does not apply to it")
    elif base:
        note += f", relative to the calibration's {base}"
    return [note]
