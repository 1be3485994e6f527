#!/usr/bin/env python3
"""Checks a stencil-miniapp output folder: every JSON sidecar against the file
it describes (its length and CRC-32, the zlib/gzip polynomial), and every
checkpoint (step_NNNNNN in FOLDER/checkpoints or in any other folder in
FOLDER, a --checkpoint-dir kept there, or in FOLDER when it is a
--checkpoint-dir): each file against its entry in checkpoint.json,
checkpoint.json against its own CRC-32 and its folder's step; each
snapshot's XDMF (snapshot_NNNNNN.xmf), the series (snapshots.xmf) and the
SEG-Y traces (traces.sgy) against the sidecars (tools/format_checks.py), and an
HDF5 snapshot's dataset (snapshot_NNNNNN.h5: its shape and type, where h5py
is installed). Also lists
what a run that did not finish leaves behind: partial files and .partial
checkpoints, data files of the program's names (snapshot_NNNNNN.raw or .h5,
traces.bin, traces.sgy) that no sidecar describes, and the run's lock; files of other
names are the user's, and left alone. Images are checked for a PNG's
signature (they have no sidecar). The
folder's record of its run (stencil-miniapp.run.json) says how the run
ended: complete, stopped by a signal (incomplete: it can be resumed, unless
it had no checkpoint), failed (a NaN, an output that could not be written;
a failed --check is a failure of the folder: its files hold a wrong field),
or never (killed); every file it lists must be there. A folder of the run's
files without its record is incomplete: whether its run finished, and every
file it wrote, cannot be known. A restart that continued a field whose check
had failed, and ended without checking it again, leaves the folder failed:
its files still hold a wrong field (a restart whose --check passes settles
it). Its provenance says
whether the fields are the one-domain answer: a complete folder whose
fields are not (--comm none on several ranks, a test aid's bug, inherited
through a restart) is noted as such, and stays complete. A checkpoint's
clean-up cut short (step_NNNNNN.pruning) is harmless and only noted, and so
is a checkpoint that a restart set aside because it did not verify
(step_NNNNNN.kept or .kept.N, its set-aside.txt saying why): the run went on from the one before, so the
folder is complete; a damaged checkpoint where it was written fails.

usage: tools/verify-output.py FOLDER [FOLDER ...]   (--version: its version)
  FOLDER: a run's --output folder, or the results folder that
  jobscripts/local/run.sh announces (its output/ is checked).
Exit status:
  0  every folder is complete and every sidecar matches its file (a folder of
     slice images alone, which have no sidecars, is complete too);
  1  a file differs from its sidecar or is missing, the run failed its
     --check or continued a field that failed one (a restart), or a folder
     holds no output of the mini-app at all;
  3  a folder is incomplete: a run is still writing it, was stopped, failed
     or died in it (its record, its lock, a .partial file or checkpoint, or
     a raw file no sidecar describes), or its record
     (stencil-miniapp.run.json) is not there, and nothing differs;
  2  bad usage, or a folder that cannot be read.
"""
import json
import os
import re
import sys
import zlib

from format_checks import hdf5_problems, segy_problems, series_problems, xdmf_problems
from output_record import MANIFEST, Provenances, verify_manifest
from stencil_version import print_version_if_asked

CHECKPOINT = re.compile(r"step_(\d{6,9})(\.partial)?$")  # six digits, more past step 999,999
# Exactly the names a run writes into its folder (the mini-app's
# is_run_output_name); anything else there is the user's and is not judged.
RUN_FILE = re.compile(r"(snapshot_\d{6,}\.(raw|h5|json|xmf)|snapshots\.xmf|slice_[xyz]\d+_\d{6,}\.png"
                      r"|traces\.bin|traces\.sgy|traces\.json|shot_gather\.png)(\.partial)?$")


def crc32_of(path):
    crc = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 24):
            crc = zlib.crc32(chunk, crc)
    return crc


def file_problem(path, name, bytes_, crc_text, source, described_by):
    """One line if the file at path differs from its listed length and CRC-32, else None."""
    if not os.path.isfile(path):
        return f"{name}: missing (described by {described_by})"
    size = os.path.getsize(path)
    if size != bytes_:
        return f"{name}: {size} bytes, {source} says {bytes_}"
    crc = f"{crc32_of(path):08x}"
    if crc != crc_text:
        return f"{name}: CRC-32 {crc}, {source} says {crc_text}"
    return None


LEVELS = ("p.raw", "p_prev.raw")  # the files a checkpoint is written as


def is_checkpoint(path):
    """Whether the folder at path holds a checkpoint.json, or the files a
    checkpoint is written as (a folder named step_NNNNNN with neither is
    the user's: the program writes its checkpoint.json first)."""
    return any(os.path.isfile(os.path.join(path, n)) for n in ("checkpoint.json",) + LEVELS)


def verify_checkpoint(folder, name, step, verified, problems, provenance):
    """One complete checkpoint folder: its files and its checkpoint.json,
    whose provenance goes to `provenance` (a function of the name and the
    document)."""
    meta_path = os.path.join(folder, name, "checkpoint.json")
    try:
        with open(meta_path) as f:
            text = f.read()
        meta = json.loads(text, object_pairs_hook=dict)
    except (OSError, ValueError, RecursionError) as e:
        problems.append(f"{name}/checkpoint.json: missing or not readable JSON ({e})")
        return
    if not isinstance(meta, dict) or meta.get("program") != "stencil-miniapp checkpoint":
        if any(os.path.isfile(os.path.join(folder, name, n)) for n in LEVELS):
            problems.append(f"{name}/checkpoint.json: not this program's, beside a checkpoint's "
                            "files (changed?)")
        return  # otherwise a folder of the user's, named like a checkpoint
    said = meta.pop("crc32", None)
    own = f"{zlib.crc32(json.dumps(meta, separators=(',', ':'), ensure_ascii=False).encode()):08x}"
    if said != own:
        problems.append(f"{name}/checkpoint.json: CRC-32 {own}, it says {said}")
        return
    if meta.get("step") != step:
        problems.append(f"{name}/checkpoint.json: step {meta.get('step')}, its folder says {step}")
        return
    provenance(f"{name}/checkpoint.json", meta)
    files = meta.get("files", {})
    if not isinstance(files, dict) or not all(isinstance(e, dict) for e in files.values()):
        problems.append(f"{name}/checkpoint.json: its files are not a list of name: {{bytes, crc32}} "
                        "(changed by hand?)")
        return
    for data, entry in files.items():
        problem = file_problem(os.path.join(folder, name, data), f"{name}/{data}",
                               entry.get("bytes"), entry.get("crc32"), "checkpoint.json",
                               f"{name}/checkpoint.json")
        if problem:
            problems.append(problem)
        else:
            verified.append(f"{name}/{data}: {entry['bytes']} bytes, CRC-32 {entry['crc32']}, "
                            f"step {step}, run {meta.get('run', '?')}")


def checkpoint_folders(folder):
    """(path, prefix) of each folder whose step_NNNNNN checkpoints are the
    folder's: the folder itself (a --checkpoint-dir), its checkpoints/,
    and any other folder in it that holds one (a --checkpoint-dir kept
    inside the output folder under another name). A folder of the user's
    that cannot be read holds none of the run's checkpoints."""
    found = [(folder, "")]
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.startswith("step_") or not os.path.isdir(path):
            continue
        try:
            inside = os.listdir(path)
        except OSError:
            if name == "checkpoints":
                raise  # the run's own: a folder that cannot be read (exit 2)
            continue
        if name == "checkpoints" or any(n.startswith("step_") for n in inside):
            found.append((path, name + "/"))
    return found


def verify_checkpoints(folder, prefix, verified, problems, unfinished, provenances):
    """The step_NNNNNN folders in folder (named prefix + name in the lines)."""
    found_v, found_p = [], []

    def provenance(name, meta):
        provenances.failed_check(prefix + name, provenances.add(prefix + name, meta, found_p))

    for name in sorted(os.listdir(folder)):
        match = CHECKPOINT.match(name)
        if not match or not is_checkpoint(os.path.join(folder, name)):
            continue
        if match.group(2):
            unfinished.append(f"{prefix}{name}: a checkpoint that never completed")
        else:
            verify_checkpoint(folder, name, int(match.group(1)), found_v, found_p, provenance)
    verified += [prefix + line for line in found_v]
    problems += [prefix + line for line in found_p]


def set_aside_reason(path):
    """Why a restart set this checkpoint aside (its set-aside.txt), or ""."""
    try:
        with open(os.path.join(path, "set-aside.txt")) as f:
            first = f.readline().strip()
    except OSError:
        return ""
    return first.removeprefix("A restart passed this checkpoint by: ").rstrip(".")


def pruning_notes(folder):
    """Checkpoint clean-ups cut short, and checkpoints a restart set aside:
    harmless, named so the user can keep or remove them."""
    notes = []
    for where, prefix in checkpoint_folders(folder):
        for n in sorted(os.listdir(where)):
            if re.match(r"step_\d{6,9}\.pruning$", n):
                notes.append(f"{prefix}{n}: a checkpoint's clean-up cut short (harmless: it is no "
                             "checkpoint; what is left in it is yours to keep or remove)")
            elif re.match(r"step_\d{6,9}\.kept(\.\d+)?$", n):
                why = set_aside_reason(os.path.join(where, n))
                notes.append(f"{prefix}{n}: a checkpoint set aside whole, "
                             + (f"by a restart: {why}" if why else "where a checkpoint was written")
                             + " (the run went on without it; yours to keep or remove)")
    return notes


def verify_formats(folder, name, meta, verified, problems, described):
    """What the sidecar `name` describes beside its raw file, for the
    field's tools: the snapshot's XDMF, the traces' SEG-Y."""
    try:
        if "xdmf" in meta:
            described.add(meta["xdmf"])
            found = xdmf_problems(folder, meta)
            problems += found
            verified += [] if found else [f"{meta['xdmf']}: the grid and file its sidecar describes"]
        if meta.get("format") == "hdf5":
            found = hdf5_problems(folder, meta)
            if found is None:
                verified.append(f"{meta['file']}: its dataset not opened (no h5py here: shape and type unchecked)")
            elif found:
                problems += found
            else:
                verified.append(f"{meta['file']}: dataset {meta['dataset']}'s shape and type as its sidecar says")
        if "segy" in meta:
            segy = meta["segy"]
            described.add(segy["file"])
            found = [] if segy["file"] == meta["file"] else [
                p for p in [file_problem(os.path.join(folder, segy["file"]), segy["file"], segy["bytes"],
                                         segy["crc32"], "its sidecar", name)] if p]
            found = found or segy_problems(folder, meta)
            problems += found
            verified += [] if found else [f"{segy['file']}: {len(meta['receivers'])} traces of "
                                          f"{meta['nt'] + 1} samples as {name} says"]
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        problems.append(f"{name}: a field the XDMF or SEG-Y check reads is missing or mangled "
                        f"({type(e).__name__}: {e}; changed, or written by an older version?)")


def sidecars_of(folder, names):
    """Each snapshot's raw file name -> its sidecar, for the series."""
    found = {}
    for name in names:
        if name.startswith("snapshot_") and name.endswith(".json"):
            try:
                with open(os.path.join(folder, name)) as f:
                    meta = json.load(f)
                found[meta["file"]] = meta
            except (OSError, ValueError, KeyError, TypeError, RecursionError):
                continue  # already said, above
    return found


def verify_sidecar(folder, name, recorded, found, provenances):
    """The sidecar `name` (a JSON file of the run's names) against the file
    it describes, and that file's XDMF or SEG-Y; `recorded`: the run's
    record lists it. `found` is (verified, problems, described)."""
    verified, problems, described = found
    try:
        with open(os.path.join(folder, name)) as f:
            meta = json.load(f)
    except (OSError, ValueError, RecursionError) as e:
        problems.append(f"{name}: not readable JSON ({e})")
        return
    if not isinstance(meta, dict) or not {"file", "bytes", "crc32"} <= meta.keys():
        if recorded:
            problems.append(f"{name}: the run's record lists it as a sidecar, and it is not "
                            "one (changed?)")
        return  # otherwise not a sidecar of ours (a report, say)
    data = meta["file"]
    # A sidecar describes the file of its own name: one copied over
    # another step's describes the wrong file, and that step's is lost.
    own = ((name[:-len(".json")] + (".h5" if meta.get("format") == "hdf5" else ".raw"),)
           if name.startswith("snapshot_") else ("traces.bin", "traces.sgy"))
    if data not in own:
        problems.append(f"{name}: describes {data}, not {' or '.join(own)} (copied over another's?)")
        return
    described.add(data)
    provenances.failed_check(name, provenances.add(name, meta, problems))
    problem = file_problem(os.path.join(folder, data), data, meta["bytes"], meta["crc32"],
                           "its sidecar", name)
    if problem:
        problems.append(problem)
    else:
        verified.append(f"{data}: {meta['bytes']} bytes, CRC-32 {meta['crc32']}, "
                        f"run {meta.get('run', '?')}")
    # The XDMF and SEG-Y are checked against the sidecar whatever the
    # raw file holds: traces.sgy is a file of its own.
    verify_formats(folder, name, meta, verified, problems, described)


def verify_folder(folder):
    """Returns (verified, problems, unfinished, images, provenances): lists of
    one-line messages, the PNG images found, and what made the fields."""
    verified, problems, unfinished, provenances = [], [], [], Provenances()
    names = sorted(n for n in os.listdir(folder)
                   if RUN_FILE.fullmatch(n) or CHECKPOINT.match(n)
                   or n in ("checkpoints", "stencil-miniapp.lock", MANIFEST))
    described = set()
    recorded = verify_manifest(folder, names, problems, unfinished, provenances)
    for name in names:
        if name.endswith(".json") and name != MANIFEST:
            verify_sidecar(folder, name, name in recorded, (verified, problems, described), provenances)
    if "snapshots.xmf" in names:
        found = series_problems(folder, "snapshots.xmf", sidecars_of(folder, names))
        problems += found
        verified += [] if found else ["snapshots.xmf: every snapshot as its sidecar says"]
    for where, prefix in checkpoint_folders(folder):
        verify_checkpoints(where, prefix, verified, problems, unfinished, provenances)
    if not any(line.startswith(MANIFEST + ": ") for line in problems):
        problems += provenances.problems()  # the record's own failure is said once
    for name in names:
        if CHECKPOINT.match(name):
            continue
        if name.endswith(".partial"):
            unfinished.append(f"{name}: a write that never completed")
        elif name.endswith((".raw", ".h5", ".bin", ".sgy")) and name not in described:
            unfinished.append(f"{name}: no sidecar describes it")
        elif name == "stencil-miniapp.lock":
            with open(os.path.join(folder, name)) as f:
                unfinished.append(f"{name}: a run holds this folder, or died in it: "
                                  + (" ".join(f.read().split()) or "(the lock file is empty)"))
    images = [n for n in names if n.endswith(".png")]
    for name in images:  # an image has no sidecar: at least its signature
        with open(os.path.join(folder, name), "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                problems.append(f"{name}: not a PNG image (damaged or overwritten)")
    if not verified and not problems and not unfinished and not images and MANIFEST not in names:
        problems.append("no output of stencil-miniapp here (no sidecar, no image)")
    return verified, problems, unfinished, images, provenances


def outputs_of(folder):
    """The folder that holds the run's outputs: jobscripts/local/run.sh
    announces its results folder, which keeps them in output/ beside the
    run's report; given that folder, its output/ is checked."""
    inner = os.path.join(folder, "output")
    ours = ("report.json", "stdout.txt", "environment.txt")  # run.sh's, a stopped run's too
    if (os.path.isdir(inner) and any(os.path.isfile(os.path.join(folder, n)) for n in ours)
            and not os.path.exists(os.path.join(folder, MANIFEST))):
        print(f"note     {folder}: a results folder of jobscripts/local/run.sh: checking its output/")
        return inner
    return folder


def main(argv):
    if print_version_if_asked(argv):
        return 0
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
        folder = outputs_of(folder)
        try:
            verified, problems, unfinished, images, provenances = verify_folder(folder)
        except OSError as e:
            print(f"verify-output: {folder}: {e.strerror or e}", file=sys.stderr)
            return 2
        for line in verified:
            print(f"ok       {folder}/{line}")
        for line in problems:
            print(f"FAILED   {folder}/{line}")
        for line in unfinished:
            print(f"INCOMPLETE {folder}/{line}")
        for line in pruning_notes(folder):
            print(f"note     {folder}/{line}")
        provenance = provenances.note()
        if provenance:
            print(f"note     {folder}: {provenance}")
        verdict = ("failed" if problems else "incomplete" if unfinished else "complete")
        if provenance and verdict == "complete":
            verdict = "complete (not the one-domain answer)"
        print(f"verify-output: {folder}: {verdict}: {len(verified)} verified, {len(problems)} failed, "
              f"{len(unfinished)} unfinished, {len(images)} images")
        if problems:
            status = 1
        elif unfinished and status == 0:
            status = 3
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
