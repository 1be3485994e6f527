#!/usr/bin/env python3
"""Checks a stencil-miniapp output folder: every JSON sidecar against the file
it describes (its length and CRC-32, the zlib/gzip polynomial). Also lists
what a run that did not finish leaves behind: partial files, raw files that
no sidecar describes, and the run's lock.

usage: tools/verify-output.py FOLDER [FOLDER ...]
Exit status 0 when every sidecar matches its file, 1 when one does not, or a
folder has none, 2 on bad usage.
"""
import json
import os
import sys
import zlib


def crc32_of(path):
    crc = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 24):
            crc = zlib.crc32(chunk, crc)
    return crc


def verify_folder(folder):
    """Returns (verified, problems, notes): lists of one-line messages."""
    verified, problems, notes = [], [], []
    names = sorted(os.listdir(folder))
    described = set()
    for name in names:
        if not name.endswith(".json"):
            continue
        try:
            with open(os.path.join(folder, name)) as f:
                meta = json.load(f)
        except (OSError, ValueError) as e:
            problems.append(f"{name}: not readable JSON ({e})")
            continue
        if not isinstance(meta, dict) or not {"file", "bytes", "crc32"} <= meta.keys():
            continue  # not a sidecar of ours (a report, say)
        data = meta["file"]
        described.add(data)
        path = os.path.join(folder, data)
        if not os.path.isfile(path):
            problems.append(f"{data}: missing (described by {name})")
            continue
        size = os.path.getsize(path)
        if size != meta["bytes"]:
            problems.append(f"{data}: {size} bytes, its sidecar says {meta['bytes']}")
            continue
        crc = f"{crc32_of(path):08x}"
        if crc != meta["crc32"]:
            problems.append(f"{data}: CRC-32 {crc}, its sidecar says {meta['crc32']}")
            continue
        verified.append(f"{data}: {size} bytes, CRC-32 {crc}, run {meta.get('run', '?')}")
    for name in names:
        if name.endswith(".partial"):
            notes.append(f"{name}: a write that never completed (no sidecar describes it)")
        elif name.endswith((".raw", ".bin")) and name not in described:
            notes.append(f"{name}: no sidecar describes it")
        elif name == "stencil-miniapp.lock":
            with open(os.path.join(folder, name)) as f:
                notes.append(f"{name}: a run holds this folder, or died in it: {f.read().strip()}")
    if not verified and not problems:
        problems.append("no sidecar with a length and CRC-32 here")
    return verified, problems, notes


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr if len(argv) < 2 else sys.stdout)
        return 2 if len(argv) < 2 else 0
    failed = False
    for folder in argv[1:]:
        if not os.path.isdir(folder):
            print(f"verify-output: {folder}: not a folder", file=sys.stderr)
            return 2
        verified, problems, notes = verify_folder(folder)
        for line in verified:
            print(f"ok       {folder}/{line}")
        for line in problems:
            print(f"FAILED   {folder}/{line}")
        for line in notes:
            print(f"note     {folder}/{line}")
        print(f"verify-output: {folder}: {len(verified)} verified, {len(problems)} failed")
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
