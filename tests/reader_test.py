#!/usr/bin/env python3
"""The stencil_miniapp package (python/) against files the mini-app wrote:
read_snapshot (from the .raw, .json or .xmf) equals the raw file read
with NumPy as its sidecar says, in z, y, x; read_traces from traces.bin
and from traces.sgy give the same samples; read_report gives the report;
with xarray (where importable) the coordinates are in metres and seconds.
A folder moved elsewhere still reads. Planted faults: a truncated
snapshot, a sidecar of another step's size, and a file that is no report
are each an error naming the file, not numbers. The run is checked
(--check): its files, written before the verdict, say the check is
pending, and with xarray the reader gives the verdict of the folder's
record (stencil-miniapp.run.json) of the same run, passed or failed with
its reasons; a record of another run leaves it pending.

usage: reader_test.py OUTPUT_FOLDER REPORT.json
"""
import json
import os
import shutil
import sys
import tempfile

import numpy

import stencil_miniapp as sm

RECORD = "stencil-miniapp.run.json"


def expect_error(what, call, *args, **kwargs):
    try:
        call(*args, **kwargs)
    except (ValueError, OSError) as e:
        assert os.sep in str(e) or ".json" in str(e), f"{what}: the error names no file: {e}"
        return str(e)
    raise AssertionError(f"{what}: read without an error")


def xarray_here():
    try:
        import xarray  # noqa: F401
    except ImportError:
        return False
    return True


def check_folder(folder, report_path):
    meta = json.load(open(os.path.join(folder, "snapshot_000020.json")))
    nx, ny, nz = meta["dims"]
    raw = numpy.fromfile(os.path.join(folder, "snapshot_000020.raw"), meta["dtype"]).reshape(nz, ny, nx)
    for name in ("snapshot_000020.raw", "snapshot_000020.json", "snapshot_000020.xmf"):
        got = sm.read_snapshot(os.path.join(folder, name), xarray=False, verify=True)
        assert got.shape == (nz, ny, nx) and numpy.array_equal(got, raw), name
    traces = json.load(open(os.path.join(folder, "traces.json")))
    from_bin = sm.read_traces(folder, xarray=False, verify=True)
    from_segy = sm.read_traces(os.path.join(folder, "traces.sgy"), xarray=False, verify=True)
    assert from_bin.shape == (len(traces["receivers"]), traces["nt"]), from_bin.shape
    assert numpy.array_equal(from_bin, from_segy), "traces.bin and traces.sgy read differently"
    report = sm.read_report(report_path)
    assert report["version"] in sm.__version__, (report["version"], sm.__version__)
    if not xarray_here():
        print("reader_test: no xarray here: NumPy arrays only (apt-get install python3-xarray)")
        return
    p = sm.read_snapshot(os.path.join(folder, "snapshot_000020.xmf"))
    h = meta["spacing_m"][0]
    assert p.dims == ("z", "y", "x") and float(p.x[-1]) == (nx - 1) * h and float(p.z[1]) == h, p
    assert p.attrs["time_s"] == meta["time_s"] and numpy.array_equal(p.values, raw)
    made = meta["provenance"]
    assert p.attrs["one_domain_answer"] == int(made["one_domain_answer"]), p.attrs
    assert p.attrs["not_one_domain_because"] == "; ".join(made["not_one_domain_because"]), p.attrs
    t = sm.read_traces(folder)
    assert numpy.isclose(float(t.time[0]), traces["dt_s"]) and t.dims == ("receiver", "time")
    assert float(t.x_m[1]) == traces["receivers"][1][0] * traces["spacing_m"], t.x_m
    record = json.load(open(os.path.join(folder, RECORD)))
    assert (t.attrs["check"], t.attrs["test_aids"]) == (record["provenance"]["check"], ""), t.attrs
    print("reader_test: xarray: coordinates in metres and seconds")


def checks(folder):
    """The check attributes of a snapshot and of the traces in folder."""
    p = sm.read_snapshot(os.path.join(folder, "snapshot_000010.xmf")).attrs
    return p["check"], sm.read_traces(folder).attrs["check"], p


def record_verdicts(folder, scratch):
    """The run's files say its check is pending; the reader takes the
    verdict of the folder's record where that record is of the same run."""
    meta = json.load(open(os.path.join(folder, "snapshot_000010.json")))
    record = json.load(open(os.path.join(folder, RECORD)))
    assert (meta["provenance"]["check"], record["provenance"]["check"]) == ("pending", "passed"), \
        "the run was not checked (--check), or its files were not written before the verdict"
    assert checks(folder)[:2] == ("passed", "passed"), checks(folder)[2]
    failed = os.path.join(scratch, "failed")
    shutil.copytree(folder, failed)
    why = "--check: 7 of 63360 cells differ from the one-domain run"
    record["provenance"].update(check="failed", one_domain_answer=False, not_one_domain_because=[why])
    json.dump(record, open(os.path.join(failed, RECORD), "w"))
    snapshot, traces, attrs = checks(failed)
    assert (snapshot, traces) == ("failed", "failed"), attrs
    assert (attrs["one_domain_answer"], attrs["not_one_domain_because"]) == (0, why), attrs
    record["run"] = "another run's"
    json.dump(record, open(os.path.join(failed, RECORD), "w"))
    assert checks(failed)[:2] == ("pending", "pending"), checks(failed)[2]
    print("reader_test: the check pending in the files, the verdict from the record of their run")


def planted_faults(folder, scratch):
    bad = os.path.join(scratch, "bad")
    shutil.copytree(folder, bad)
    raw = os.path.join(bad, "snapshot_000010.raw")
    with open(raw, "r+b") as f:
        f.truncate(os.path.getsize(raw) - 4)
    print("planted:", expect_error("a truncated snapshot", sm.read_snapshot, raw))
    meta = json.load(open(os.path.join(bad, "snapshot_000020.json")))
    meta["dims"][0] -= 1
    json.dump(meta, open(os.path.join(bad, "snapshot_000020.json"), "w"))
    print("planted:", expect_error("a sidecar whose dims are not its bytes", sm.read_snapshot,
                                   os.path.join(bad, "snapshot_000020.xmf")))
    print("planted:", expect_error("a sidecar as a report", sm.read_report, os.path.join(bad, "traces.json")))
    print("asked:", expect_error("the series as one snapshot", sm.read_snapshot, os.path.join(bad, "snapshots.xmf")))
    with open(os.path.join(bad, "traces.sgy"), "r+b") as f:
        f.seek(4000)
        f.write(b"\x01")
    print("planted:", expect_error("a damaged traces.sgy, verified", sm.read_traces,
                                   os.path.join(bad, "traces.sgy"), verify=True))


def main(folder, report):
    check_folder(folder, report)
    with tempfile.TemporaryDirectory() as scratch:
        moved = os.path.join(scratch, "moved elsewhere")
        shutil.copytree(folder, moved)
        check_folder(moved, report)
        planted_faults(folder, scratch)
        if xarray_here():
            record_verdicts(folder, scratch)
    print(f"reader_test: stencil_miniapp {sm.__version__} reads the run's files, and refuses the planted faults")


if __name__ == "__main__":
    main(*sys.argv[1:])
