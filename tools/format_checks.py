"""What tools/verify-output.py checks of the files a run writes for the
field's tools, against the sidecars it already trusts: each snapshot's
XDMF (snapshot_NNNNNN.xmf, what ParaView and VisIt open) and the series
(snapshots.xmf) against the snapshots' sidecars, the SEG-Y traces
(traces.sgy) against traces.json, and an HDF5 snapshot's dataset
(--output-format hdf5) against its sidecar. The standard library only
(xml.etree, struct): verify-output.py needs nothing installed; h5py, where
it is, for the HDF5 dataset's shape and type.

Each check returns a list of one-line problems, empty when the file says
what the sidecar says.
"""
import math
import os
import struct
import xml.etree.ElementTree as ElementTree

PRECISION = {"float32": "4", "float64": "8"}


def _floats(text):
    return [float(v) for v in (text or "").split()]


def _grid_problems(grid, meta, where):
    """One uniform <Grid> against a snapshot's sidecar."""
    nx, ny, nz = meta["dims"]
    dims = f"{nz} {ny} {nx}"  # XDMF lists the slowest axis first
    problems = []
    topology = grid.find("Topology")
    if topology is None or topology.get("TopologyType") != "3DCoRectMesh":
        problems.append(f"{where}: no 3DCoRectMesh topology")
    elif topology.get("Dimensions", "").split() != dims.split():
        problems.append(f"{where}: dimensions {topology.get('Dimensions')}, its sidecar says {dims} (z y x)")
    spacing = grid.find("Geometry/DataItem[@Name='Spacing']")
    wanted = list(reversed(meta["spacing_m"]))
    if spacing is None or _floats(spacing.text) != wanted:
        problems.append(f"{where}: spacing {None if spacing is None else spacing.text}, its sidecar says "
                        + " ".join(f"{v:g}" for v in wanted))
    time = grid.find("Time")
    if time is None or not math.isclose(float(time.get("Value", "nan")), meta["time_s"], rel_tol=1e-12):
        problems.append(f"{where}: time {None if time is None else time.get('Value')}, its sidecar says "
                        f"{meta['time_s']}")
    item = grid.find("Attribute/DataItem")
    if item is None:
        return problems + [f"{where}: no attribute data"]
    expect = {"Format": "Binary", "NumberType": "Float", "Precision": PRECISION.get(meta["dtype"]),
              "Endian": meta.get("byte_order", "little").capitalize(), "Seek": "0"}
    if meta.get("format") == "hdf5":  # the file knows its byte order; the item names its dataset
        expect = {"Format": "HDF", "NumberType": "Float", "Precision": PRECISION.get(meta["dtype"])}
    for key, value in expect.items():
        if item.get(key, "0" if key == "Seek" else None) != value:
            problems.append(f"{where}: {key} {item.get(key)}, its sidecar says {value}")
    if item.get("Dimensions", "").split() != dims.split():
        problems.append(f"{where}: data dimensions {item.get('Dimensions')}, its sidecar says {dims} (z y x)")
    if (item.text or "").strip() != data_reference(meta):
        problems.append(f"{where}: points at {(item.text or '').strip()!r}, not {data_reference(meta)}")
    return problems


def data_reference(meta):
    """How an XDMF data item names a snapshot's data: the raw file, or the
    HDF5 file and its dataset (snapshot_NNNNNN.h5:/p)."""
    if meta.get("format") == "hdf5":
        return f"{meta['file']}:{meta['dataset']}"
    return meta["file"]


def hdf5_problems(folder, meta):
    """An HDF5 snapshot's dataset against its sidecar: its shape (nz, ny,
    nx) and element type, and the step it says it holds. None where h5py
    cannot be imported (nothing checked), else a list of problems."""
    try:
        import h5py
    except ImportError:
        return None
    name, dataset = meta["file"], meta["dataset"]
    nx, ny, nz = meta["dims"]
    try:
        with h5py.File(os.path.join(folder, name), "r") as f:
            if dataset not in f:
                return [f"{name}: no dataset {dataset}, its sidecar names it"]
            data = f[dataset]
            shape, dtype, step = data.shape, data.dtype, data.attrs.get("step")
    except OSError as e:
        return [f"{name}: h5py cannot open it ({e})"]
    problems = []
    if shape != (nz, ny, nx):
        problems.append(f"{name}: dataset {dataset} has shape {shape}, its sidecar says {(nz, ny, nx)} (z, y, x)")
    if dtype.name != meta["dtype"]:
        problems.append(f"{name}: dataset {dataset} holds {dtype.name}, its sidecar says {meta['dtype']}")
    if step is not None and int(step) != meta["step"]:
        problems.append(f"{name}: dataset {dataset} is of step {int(step)}, its sidecar says {meta['step']}")
    return problems


def _read_xml(path, name):
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError) as e:
        return None, [f"{name}: missing or not XML ({e})"]
    if root.tag != "Xdmf" or root.find("Domain") is None:
        return None, [f"{name}: not an XDMF file"]
    return root, []


def xdmf_problems(folder, meta):
    """A snapshot's .xmf (its sidecar's "xdmf") against that sidecar."""
    name = meta["xdmf"]
    root, problems = _read_xml(os.path.join(folder, name), name)
    if root is None:
        return problems
    grids = root.findall("Domain/Grid")
    if len(grids) != 1:
        return [f"{name}: {len(grids)} grids, one expected"]
    return _grid_problems(grids[0], meta, name)


def series_problems(folder, name, sidecars):
    """snapshots.xmf: a temporal collection whose every grid is a snapshot
    with a sidecar (`sidecars`: raw file name -> sidecar), in time order."""
    root, problems = _read_xml(os.path.join(folder, name), name)
    if root is None:
        return problems
    collection = root.find("Domain/Grid[@GridType='Collection']")
    if collection is None or collection.get("CollectionType") != "Temporal":
        return [f"{name}: no temporal collection"]
    times = []
    for grid in collection.findall("Grid"):
        item = grid.find("Attribute/DataItem")
        file = (item.text or "").strip() if item is not None else ""
        if item is not None and item.get("Format") == "HDF":
            file = file.rsplit(":", 1)[0]  # snapshot_NNNNNN.h5:/p
        if file not in sidecars:
            problems.append(f"{name}: lists {file or 'a grid with no file'}, which no sidecar describes")
            continue
        problems += _grid_problems(grid, sidecars[file], f"{name} ({file})")
        times.append(sidecars[file]["time_s"])
    if times != sorted(times):
        problems.append(f"{name}: its snapshots are out of time order")
    return problems


def _i16(data, at):
    return struct.unpack_from(">h", data, at)[0]


def _i32(data, at):
    return struct.unpack_from(">i", data, at)[0]


def _scaled(value, scalar):
    return value / -scalar if scalar < 0 else value * scalar


def segy_problems(folder, meta):
    """traces.sgy's headers against traces.json: format, sample count and
    interval, one trace a receiver, each at its receiver and the source."""
    segy = meta["segy"]
    name = segy["file"]
    try:
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
    except OSError as e:
        return [f"{name}: {e.strerror}"]
    if len(data) < 3600:
        return [f"{name}: {len(data)} bytes, shorter than SEG-Y's headers"]
    samples, interval, code = _i16(data, 3220), _i16(data, 3216), _i16(data, 3224)
    problems = []
    if code != 5:
        problems.append(f"{name}: sample format code {code}, not 5 (IEEE float32)")
    if samples != meta["nt"] + 1:
        problems.append(f"{name}: {samples} samples a trace, traces.json says {meta['nt']} steps and t = 0")
    if interval != round(meta["dt_s"] * 1e6):
        problems.append(f"{name}: sample interval {interval} us, traces.json says dt {meta['dt_s']} s")
    receivers = meta["receivers"]
    size = 240 + 4 * max(samples, 0)
    count, rest = divmod(len(data) - 3600, size)
    if rest or count != len(receivers):
        problems.append(f"{name}: {(len(data) - 3600) / size:g} traces, traces.json lists "
                        f"{len(receivers)} receivers")
        return problems
    h, source = meta["spacing_m"], segy["source"]
    for n, cell in enumerate(receivers):
        at = 3600 + n * size
        scalar = _i16(data, at + 70)
        found = [_scaled(_i32(data, at + o), scalar) for o in (80, 84, 72, 76)]
        found.append(-_scaled(_i32(data, at + 40), _i16(data, at + 68)))
        wanted = [cell[0] * h, cell[1] * h, source[0] * h, source[1] * h, cell[2] * h]
        if _i16(data, at + 114) != samples or any(abs(a - b) > 0.01 for a, b in zip(found, wanted)):
            problems.append(f"{name}: trace {n + 1}'s header (receiver and source x, y, receiver depth "
                            f"{found}) is not receiver {cell} from source {source} at {h} m")
            break
    return problems
