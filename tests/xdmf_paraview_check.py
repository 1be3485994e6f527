"""Run by ParaView's pvbatch: each snapshot's XDMF and the series
(snapshots.xmf) as ParaView's own XDMF 3 reader opens them, against the
raw files and their sidecars: the grid's extent, spacing and origin in
metres, the time, and every value the raw file holds. Exit 1, one line,
on the first that differs. HDF5 snapshots (--output-format hdf5), read by
ParaView through their XDMF's HDF data items, are compared with the raw
snapshots of the same run written to RAW_FOLDER.

usage: pvbatch xdmf_paraview_check.py FOLDER [RAW_FOLDER]
"""
import glob
import json
import os
import sys

import numpy
from paraview import servermanager, simple
from vtkmodules.util.numpy_support import vtk_to_numpy


def fail(message):
    print(f"xdmf_paraview_check: FAILED: {message}")
    sys.exit(1)


def check_image(image, meta, where):
    nx, ny, nz = meta["dims"]
    if tuple(image.GetDimensions()) != (nx, ny, nz):
        fail(f"{where}: ParaView sees {image.GetDimensions()} points, the sidecar {meta['dims']}")
    if not numpy.allclose(image.GetSpacing(), meta["spacing_m"]) or any(image.GetOrigin()):
        fail(f"{where}: spacing {image.GetSpacing()} and origin {image.GetOrigin()}")
    array = image.GetPointData().GetArray("p")
    if array is None:
        fail(f"{where}: no point array p")
    raw_path = os.path.join(os.path.dirname(where), meta["file"])
    if meta.get("format") == "hdf5":
        if len(sys.argv) < 3:
            fail(f"{where}: an HDF5 snapshot; name the raw run's folder to compare it with")
        raw_path = os.path.join(sys.argv[2], os.path.splitext(meta["file"])[0] + ".raw")
    raw = numpy.fromfile(raw_path, meta["dtype"])
    values = vtk_to_numpy(array)
    if values.dtype != raw.dtype or not numpy.array_equal(values, raw):
        fail(f"{where}: ParaView's values are not the raw file's ({values.dtype}, {raw.dtype})")


def main(folder):
    sidecars = {}
    for path in sorted(glob.glob(os.path.join(folder, "snapshot_*.json"))):
        meta = json.load(open(path))
        sidecars[meta["file"]] = meta
        xmf = os.path.join(folder, meta["xdmf"])
        reader = simple.Xdmf3ReaderS(FileName=[xmf])
        reader.UpdatePipeline()
        check_image(servermanager.Fetch(reader), meta, xmf)
    if not sidecars:
        fail(f"{folder}: no snapshot")
    series = simple.Xdmf3ReaderT(FileName=[os.path.join(folder, "snapshots.xmf")])
    times = list(series.TimestepValues)
    wanted = [m["time_s"] for m in sorted(sidecars.values(), key=lambda m: m["step"])]
    if not numpy.allclose(times, wanted, rtol=1e-12):
        fail(f"snapshots.xmf: ParaView's times {times}, the sidecars' {wanted}")
    for time, meta in zip(times, sorted(sidecars.values(), key=lambda m: m["step"])):
        series.UpdatePipeline(time)
        check_image(servermanager.Fetch(series), meta, os.path.join(folder, "snapshots.xmf"))
    kind = "HDF5 datasets' values (the raw run's)" if len(sys.argv) > 2 else "raw files' values"
    print(f"ParaView opens {len(sidecars)} snapshots and the series: the {kind}, "
          "extent, spacing and times")


main(sys.argv[1])
