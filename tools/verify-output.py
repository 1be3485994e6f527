#!/usr/bin/env python3
"""Checks a stencil-miniapp output folder: every JSON sidecar against the file
it describes (its length and CRC-32, the zlib/gzip polynomial). Also lists
what a run that did not finish leaves behind: partial files, raw files that
no sidecar describes, and the run's lock.

usage: tools/verify-output.py FOLDER [FOLDER ...]
Exit status:
  0  every folder is complete and every sidecar matches its file (a folder of
     slice images alone, which have no sidecars, is complete too);
  1  a file differs from its sidecar or is missing, or a folder holds no
     output of the mini-app at all;
  3  a folder is incomplete: a run is still writing it or died in it (its lock,
     a .partial file, or a raw file no sidecar describes), and nothing differs;
  2  bad usage, or a folder that cannot be read.
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
    """Returns (verified, problems, unfinished, images): lists of one-line messages,
    and the PNG images found."""
    verified, problems, unfinished = [], [], []
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
            unfinished.append(f"{name}: a write that never completed")
        elif name.endswith((".raw", ".bin")) and name not in described:
            unfinished.append(f"{name}: no sidecar describes it")
        elif name == "stencil-miniapp.lock":
            with open(os.path.join(folder, name)) as f:
                unfinished.append(f"{name}: a run holds this folder, or died in it: "
                                  + " ".join(f.read().split()))
    images = [n for n in names if n.endswith(".png")]
    if not verified and not problems and not unfinished and not images:
        problems.append("no output of stencil-miniapp here (no sidecar, no image)")
    return verified, problems, unfinished, images


def main(argv):
    if len(argv) >= 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) < 2 or any(a.startswith("-") for a in argv[1:]):
        print("usage: tools/verify-output.py FOLDER [FOLDER ...]  (--help for more)", file=sys.stderr)
        return 2
    status = 0
    for folder in argv[1:]:
        if not os.path.isdir(folder):
            print(f"verify-output: {folder}: not a folder", file=sys.stderr)
            return 2
        try:
            verified, problems, unfinished, images = verify_folder(folder)
        except OSError as e:
            print(f"verify-output: {folder}: {e.strerror or e}", file=sys.stderr)
            return 2
        for line in verified:
            print(f"ok       {folder}/{line}")
        for line in problems:
            print(f"FAILED   {folder}/{line}")
        for line in unfinished:
            print(f"INCOMPLETE {folder}/{line}")
        verdict = ("failed" if problems else "incomplete" if unfinished else "complete")
        print(f"verify-output: {folder}: {verdict}: {len(verified)} verified, {len(problems)} failed, "
              f"{len(unfinished)} unfinished, {len(images)} images")
        if problems:
            status = 1
        elif unfinished and status == 0:
            status = 3
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
