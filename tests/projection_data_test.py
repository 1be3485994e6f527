#!/usr/bin/env python3
"""docs/scaling/projections/*.csv are jobscripts/project.py's answers on the
reports kept in docs/data/. This test makes each again with the commands
below and compares it with the file; it also checks that each table of
docs/scaling/PROJECTION.md marked as taken from a CSV file shows that file's
rows. Run by ctest (projection_data); about 10 s of CPU per file.

usage: projection_data_test.py [--write]
  --write: write the CSV files instead of comparing (after a change to the
  model or to the data), then compare PROJECTION.md's tables with them.
"""
import csv
import difflib
import os
import re
import subprocess
import sys
import tarfile
import tempfile

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
OUT = "docs/scaling/projections"
DATA = "docs/data"
FRONTIER_LUMI = ["--machine", "jobscripts/machines/frontier.json", "--machine", "jobscripts/machines/lumi.json"]
H100 = f"{DATA}/nccl-speeds-2026-11-28/calibration-h100x4.tar.xz"  # the current calibration
H100_RUNS = f"{DATA}/nccl-speeds-2026-11-28/validation-h100x4.tar.xz"
NODE = f"{DATA}/node-h200x4-2026-11-26/raw.tar.xz"        # the 4 x H200 calibration before it
ALIGNED = f"{DATA}/aligned-timing-h200x4-2026-11-26/raw.tar.xz"
PERIODIC = f"{DATA}/projection-periodic-h200x2-2026-11-24/raw.tar.xz"
FIRST = f"{DATA}/projection-h200x2-2026-11-22/raw.tar.xz"
H200X4 = ["--machine", "jobscripts/machines/h200x4-measured.json"]
H100X4 = ["--machine", "jobscripts/machines/h100x4-measured.json"]
H200X2 = ["--machine", "jobscripts/machines/h200x2-measured.json"]

# name: (project.py's arguments, {placeholder: (archive, member)} extracted first)
FILES = {
    "frontier-lumi-weak-512-periodic.csv":
        ([H100, *FRONTIER_LUMI, "--periodic", "x,y,z", "--overlap", "on", "weak", "--local", "512,512,512"], {}),
    "frontier-lumi-strong-1024x1024x512.csv":
        ([H100, *FRONTIER_LUMI, "--overlap", "on", "strong", "--grid", "1024,1024,512"], {}),
    "frontier-lumi-strong-1024x1024x512-best-depth.csv":
        ([H100, *FRONTIER_LUMI, "--overlap", "on", "--halo-depth", "best", "strong", "--grid", "1024,1024,512"],
         {}),
    "validation-h100x4-2026-11-28.csv": ([H100, *H100X4, "validate", H100_RUNS], {}),
    "validation-node-h200x4-2026-11-26.csv": ([NODE, *H200X4, "validate", NODE], {}),
    "validation-aligned-h200x4-2026-11-26.csv": ([ALIGNED, *H200X4, "validate", ALIGNED], {}),
    "validation-peer-h200x2-2026-11-26.csv":
        ([ALIGNED, *H200X4, "validate", f"{DATA}/peer-h200-2026-11-26/call4-x2-mailbox.tgz"], {}),
    "validation-deep-halos-h200x2-2026-11-24.csv":
        ([PERIODIC, *H200X2, "validate", "{deep}"],
         {"deep": (f"{DATA}/deep-halos-h200x2-2026-11-24/raw.tar.xz", "validation")}),
    "validation-periodic-h200x2-2026-11-24.csv": ([PERIODIC, *H200X2, "validate", PERIODIC], {}),
    "validation-h200x2-2026-11-22.csv": ([FIRST, *H200X2, "validate", FIRST], {}),
    "validation-host-2026-11-24.csv":
        (["{host}", "--machine", "jobscripts/machines/ci-host.json", "validate", "{host}"],
         {"host": (f"{DATA}/first-contact-2026-11-24/raw.tar.xz", "host-calibration")}),
}


def extract(archive, member, into):
    with tarfile.open(os.path.join(TOP, archive)) as tar:
        names = [m for m in tar.getmembers() if m.name.lstrip("./").split("/")[0] == member]
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # Python 3.12 asks for one
        tar.extractall(into, members=names, **safe)
    return os.path.join(into, member)


def make(name, scratch):
    args, parts = FILES[name]
    where = {key: extract(archive, member, os.path.join(scratch, key)) for key, (archive, member) in parts.items()}
    # The calibrations kept timed 100 steps a run (calibrate.sh's default
    # then): their reports warn of short windows, which the tables take
    # knowingly, as PROJECTION.md says.
    args = [args[0].format(**where), "--accept-timing-warnings", *(a.format(**where) for a in args[1:])]
    target = os.path.join(scratch, name)
    # validate exits 1 where a run is past its tolerance: the file is the answer either way.
    done = subprocess.run([sys.executable, "jobscripts/project.py", *args, "--csv", target], cwd=TOP,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if not os.path.exists(target):
        sys.exit(f"projection_data_test: {name}: project.py wrote nothing: {done.stderr.strip()}")
    return target


def projection_tables():
    """Each table of PROJECTION.md after `<!-- projections/NAME.csv: COLUMNS [machine=NAME] -->`:
    its rows against the CSV file's, those columns in that order."""
    path = os.path.join(TOP, "docs/scaling/PROJECTION.md")
    lines, bad = open(path).read().splitlines(), []
    for i, line in enumerate(lines):
        m = re.match(r"<!-- projections/(\S+): (\S+)(?: machine=(.+?))? -->$", line)
        if not m:
            continue
        name, columns, machine = m.group(1), m.group(2).split(","), m.group(3)
        with open(os.path.join(TOP, OUT, name)) as f:
            want = ["| " + " | ".join(r[c] for c in columns) + " |" for r in csv.DictReader(f)
                    if machine is None or r["machine"] == machine]
        rows = []
        for text in lines[i + 3:]:  # past the header and its rule
            if not text.startswith("|"):
                break
            rows.append(text)
        if rows != want:
            bad.append(f"PROJECTION.md:{i + 1}: the table is not {name}'s rows:\n" +
                       "\n".join(difflib.unified_diff(want, rows, name, "PROJECTION.md", lineterm="")))
    return bad


def main(argv):
    write = argv[1:] == ["--write"]
    if argv[1:] and not write:
        sys.exit(__doc__.split("\n\n")[1])
    bad = []
    with tempfile.TemporaryDirectory() as scratch:
        for name in FILES:
            made, kept = make(name, scratch), os.path.join(TOP, OUT, name)
            new = open(made).read()
            if write:
                with open(kept, "w") as f:
                    f.write(new)
                continue
            old = open(kept).read() if os.path.exists(kept) else ""
            if new != old:
                bad.append(f"{OUT}/{name} is not what project.py makes now (--write to remake it):\n" +
                           "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), "kept", "made")))
    stray = set(os.listdir(os.path.join(TOP, OUT))) - set(FILES)
    bad += [f"{OUT}/{name}: made by no command here" for name in sorted(stray)]
    bad += projection_tables()
    for text in bad:
        print(text, file=sys.stderr)
    print(f"projection_data_test: {len(FILES)} files, {len(bad)} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
