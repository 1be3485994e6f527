"""read_traces: the receivers' traces of a run, from traces.bin or, where
the run wrote only SEG-Y (--trace-format segy), from traces.sgy."""
import os

import numpy

from ._files import check_file, dtype_of, load_sidecar, provenance_attrs, wants_xarray


def sidecar_path(path):
    """traces.json, given the output folder or any of the trace files."""
    if os.path.isdir(path):
        return os.path.join(path, "traces.json")
    folder, name = os.path.split(path)
    if name not in ("traces.json", "traces.bin", "traces.sgy"):
        raise ValueError(f"{path}: not the traces (an output folder, traces.json, .bin or .sgy)")
    return os.path.join(folder, "traces.json")


def _from_segy(path, receivers, nt):
    """The samples after t = 0 of every trace in a SEG-Y file the mini-app wrote."""
    samples = nt + 1
    data = numpy.fromfile(path, numpy.uint8)[3600:].reshape(receivers, 240 + 4 * samples)
    return data[:, 240:].copy().view(">f4")[:, 1:].astype(numpy.float32)


def read_traces(path, xarray=None, verify=False):
    """Every receiver's trace, shape (receivers, nt): sample k at time
    (k + 1) dt (the field is at rest at t = 0). With xarray: a DataArray
    named "p" with dims receiver and time (seconds), and each receiver's
    cell (cell_x, cell_y, cell_z) and position in metres (x_m, y_m, z_m)
    as coordinates; what made the field as attributes (as read_snapshot's)."""
    sidecar = sidecar_path(path)
    meta = load_sidecar(sidecar)
    folder = os.path.dirname(sidecar)
    receivers, nt = meta["receivers"], meta["nt"]
    if os.path.basename(path) == "traces.sgy" or meta["file"] == "traces.sgy":
        segy = meta.get("segy")
        if not isinstance(segy, dict):
            raise ValueError(f"{sidecar}: describes no SEG-Y file (the run's --trace-format was raw)")
        data = os.path.join(folder, segy["file"])
        check_file(data, segy["bytes"], segy["crc32"], verify)
        values = _from_segy(data, len(receivers), nt)
    else:
        data = os.path.join(folder, meta["file"])
        check_file(data, meta["bytes"], meta["crc32"], verify)
        values = numpy.fromfile(data, dtype_of(meta["dtype"])).reshape(len(receivers), nt)
    xr = wants_xarray(xarray)
    if xr is None:
        return values
    cells = numpy.array(receivers, dtype=int).reshape(-1, 3)
    h = meta.get("spacing_m", float("nan"))
    coords = {"time": (numpy.arange(nt) + 1) * meta["dt_s"]}
    for axis, name in enumerate("xyz"):
        coords[f"cell_{name}"] = ("receiver", cells[:, axis])
        coords[f"{name}_m"] = ("receiver", cells[:, axis] * h)
    return xr.DataArray(values, dims=("receiver", "time"), coords=coords, name="p",
                        attrs={"dt_s": meta["dt_s"], "run": meta.get("run", ""), **provenance_attrs(meta, folder)})
