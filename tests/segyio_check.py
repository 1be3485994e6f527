#!/usr/bin/env python3
"""traces.sgy as segyio reads it (Debian's python3-segyio, the reader the
field uses from Python) against what the mini-app recorded: every trace's
samples after t = 0 equal traces.bin's, sample 0 is zero, and the
coordinates, depths, sample interval and count are the receivers' and the
source's of traces.json. Exit 77 (a skip) without segyio.

usage: segyio_check.py FOLDER
"""
import json
import os
import sys

try:
    import numpy
    import segyio
except ImportError as e:
    print(f"segyio_check: skipped: {e} (apt-get install python3-segyio)")
    sys.exit(77)


def scaled(value, scalar):
    return value / -scalar if scalar < 0 else value * scalar


def main(folder):
    meta = json.load(open(os.path.join(folder, "traces.json")))
    receivers, nt, h = meta["receivers"], meta["nt"], meta["spacing_m"]
    source = meta["segy"]["source"]
    raw = numpy.fromfile(os.path.join(folder, "traces.bin"), meta["dtype"]).reshape(len(receivers), nt)
    with segyio.open(os.path.join(folder, "traces.sgy"), ignore_geometry=True) as f:
        assert f.tracecount == len(receivers), f"{f.tracecount} traces, {len(receivers)} receivers"
        assert len(f.samples) == nt + 1, f"{len(f.samples)} samples, {nt} steps and t = 0"
        assert str(f.format).startswith("4-byte IEEE"), f"sample format {f.format}"
        dt = round(meta["dt_s"] * 1e6)
        assert segyio.tools.dt(f) == dt, f"sample interval {segyio.tools.dt(f)} us, the run's {dt}"
        revision = f.bin[segyio.BinField.SEGYRevision]
        assert revision == 0x0100, f"SEG-Y revision {revision:#06x}, not 1.0"
        text = segyio.tools.wrap(f.text[0]) if hasattr(segyio.tools, "wrap") else str(f.text[0])
        assert "STENCIL-MINIAPP" in text and "END TEXTUAL HEADER" in text, text[:200]
        F = segyio.TraceField
        for n, cell in enumerate(receivers):
            trace = f.trace[n]
            assert trace[0] == 0, f"trace {n}: sample 0 (t = 0) is {trace[0]}, not the field at rest"
            assert numpy.array_equal(trace[1:], raw[n].astype(numpy.float32)), f"trace {n}: samples differ"
            head = f.header[n]
            xy, z = head[F.SourceGroupScalar], head[F.ElevationScalar]
            got = (scaled(head[F.GroupX], xy), scaled(head[F.GroupY], xy), -scaled(head[F.ReceiverGroupElevation], z),
                   scaled(head[F.SourceX], xy), scaled(head[F.SourceY], xy), scaled(head[F.SourceDepth], z))
            want = (cell[0] * h, cell[1] * h, cell[2] * h, source[0] * h, source[1] * h, source[2] * h)
            assert numpy.allclose(got, want, atol=0.005), f"trace {n}: coordinates {got}, expected {want}"
            assert head[F.TRACE_SAMPLE_COUNT] == nt + 1, head[F.TRACE_SAMPLE_COUNT]
    print(f"segyio reads {len(receivers)} traces of {nt + 1} samples: the mini-app's samples and coordinates")


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except AssertionError as e:
        print(f"segyio_check: FAILED: {e}")
        sys.exit(1)
