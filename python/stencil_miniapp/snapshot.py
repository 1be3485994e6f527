"""read_snapshot: a snapshot_NNNNNN.raw (or .h5) as a 3D array, z slowest,
as the mini-app wrote it with MPI-IO (x fastest on disk), or with parallel
HDF5 (--output-format hdf5: the dataset /p, read through h5py)."""
import os

import numpy

from ._files import check_file, dtype_of, load_sidecar, provenance_attrs, wants_xarray


def sidecar_path(path):
    """The sidecar of a snapshot given as .raw, .h5, .json, .xmf or its stem."""
    stem, ext = os.path.splitext(path)
    if os.path.basename(path) == "snapshots.xmf":
        raise ValueError(f"{path}: the series of every snapshot; read one of the snapshot_NNNNNN files it lists")
    if ext not in (".raw", ".h5", ".json", ".xmf", ""):
        raise ValueError(f"{path}: not a snapshot (snapshot_NNNNNN.raw, .h5, .json or .xmf)")
    return stem + ".json"


def _from_hdf5(path, meta, sidecar):
    """The dataset the sidecar names, checked against its dims and dtype."""
    try:
        import h5py
    except ImportError:
        raise ImportError(f"{path}: an HDF5 snapshot, and reading one needs h5py "
                          "(apt-get install python3-h5py, or pip install h5py)") from None
    nx, ny, nz = meta["dims"]
    try:
        with h5py.File(path, "r") as f:
            data = f.get(meta.get("dataset", "/p"))
            if not isinstance(data, h5py.Dataset):
                raise ValueError(f"{path}: no dataset {meta.get('dataset')}, which {sidecar} names")
            if data.shape != (nz, ny, nx) or data.dtype.name != meta["dtype"]:
                raise ValueError(f"{path}: dataset {data.name} is {data.dtype.name} {data.shape}, "
                                 f"{sidecar} says {meta['dtype']} {(nz, ny, nx)} (z, y, x)")
            return data[...]
    except OSError as e:
        raise OSError(f"{path}: h5py cannot read it ({e})") from None


def read_snapshot(path, xarray=None, verify=False):
    """The pressure field of one snapshot: shape (nz, ny, nx), in the run's
    precision. With xarray: a DataArray named "p" with coordinates z, y, x
    in metres (cell (i, j, k) at (i h, j h, k h)) and the step, time, run,
    spacing and what made the field (one_domain_answer, check,
    not_one_domain_because, test_aids) as attributes. A sidecar's check
    "pending" (written before the run's --check gave its verdict) gives
    way to the verdict of the folder's record of the same run."""
    sidecar = sidecar_path(path)
    meta = load_sidecar(sidecar)
    data = os.path.join(os.path.dirname(sidecar), meta["file"])
    check_file(data, meta["bytes"], meta["crc32"], verify)
    nx, ny, nz = meta["dims"]
    if meta.get("format") == "hdf5":
        values = _from_hdf5(data, meta, sidecar)
    else:
        dtype = dtype_of(meta["dtype"], meta.get("byte_order", "little"))
        if nx * ny * nz * dtype.itemsize != meta["bytes"]:
            raise ValueError(f"{sidecar}: dims {meta['dims']} of {meta['dtype']} are not its {meta['bytes']} bytes")
        values = numpy.fromfile(data, dtype).reshape(nz, ny, nx)
    xr = wants_xarray(xarray)
    if xr is None:
        return values
    hx, hy, hz = meta["spacing_m"]
    coords = {"z": numpy.arange(nz) * hz, "y": numpy.arange(ny) * hy, "x": numpy.arange(nx) * hx}
    attrs = {key: meta[key] for key in ("step", "time_s", "dt_s", "run", "radius") if key in meta}
    attrs["units"], attrs["coordinates_units"] = "pressure (source-normalised)", "m"
    attrs.update(provenance_attrs(meta, os.path.dirname(sidecar)))
    return xr.DataArray(values, dims=("z", "y", "x"), coords=coords, name="p", attrs=attrs)
