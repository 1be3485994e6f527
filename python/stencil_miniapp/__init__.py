"""Read what stencil-miniapp writes, in Python.

    import stencil_miniapp as sm
    p = sm.read_snapshot("out/snapshot_000550.raw")   # or its .json or .xmf, or .h5 (h5py)
    traces = sm.read_traces("out")                     # the folder, or traces.json/.bin/.sgy
    report = sm.read_report("run.json")

read_snapshot and read_traces return an xarray.DataArray with coordinates
in metres and seconds where xarray can be imported (Debian's
python3-xarray), else a NumPy array; pass xarray=False for NumPy always.
Each reads a file's JSON sidecar first and checks the data against it (its
length; its CRC-32 too with verify=True), so a damaged or mismatched file
is an error, not wrong numbers. Errors are ValueError or OSError with one
line naming the file.
"""
from .report import read_report
from .snapshot import read_snapshot
from .traces import read_traces
from .version import __version__

__all__ = ["read_snapshot", "read_traces", "read_report", "__version__"]
