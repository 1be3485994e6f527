"""What the readers share: a sidecar read and checked, a raw file read
into NumPy, the optional xarray."""
import json
import os
import zlib

import numpy


def load_json(path):
    """The JSON document at `path`; an error names the file."""
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        raise OSError(e.errno, f"{path}: {e.strerror}") from None
    except ValueError as e:
        raise ValueError(f"{path}: not valid JSON ({e})") from None


def load_sidecar(path):
    """The JSON document at `path`, which must be a sidecar of the program's."""
    meta = load_json(path)
    if not isinstance(meta, dict) or not {"file", "bytes", "crc32"} <= meta.keys():
        raise ValueError(f"{path}: not a stencil-miniapp sidecar (no file, bytes, crc32)")
    return meta


def check_file(path, bytes_, crc_text, verify):
    """The file's length against its sidecar's (its CRC-32 too if `verify`)."""
    try:
        size = os.path.getsize(path)
    except OSError as e:
        raise OSError(e.errno, f"{path}: {e.strerror}") from None
    if size != bytes_:
        raise ValueError(f"{path}: {size} bytes, its sidecar says {bytes_}")
    if verify:
        crc = 0
        with open(path, "rb") as f:
            while chunk := f.read(1 << 24):
                crc = zlib.crc32(chunk, crc)
        if f"{crc:08x}" != crc_text:
            raise ValueError(f"{path}: CRC-32 {crc:08x}, its sidecar says {crc_text}")


def dtype_of(name, byte_order="little"):
    """NumPy's dtype for a sidecar's "float32"/"float64" in that byte order."""
    if name not in ("float32", "float64"):
        raise ValueError(f"unknown element type {name!r} in the sidecar")
    return numpy.dtype(name).newbyteorder("<" if byte_order == "little" else ">")


def wants_xarray(xarray):
    """The xarray module where it is asked for (True) or allowed (None) and
    importable; None for NumPy."""
    if xarray is False:
        return None
    try:
        import xarray as module
    except ImportError:
        if xarray:
            raise
        return None
    return module


RECORD = "stencil-miniapp.run.json"  # the folder's record of its latest run


def record_verdict(meta, folder):
    """The provenance of the record in `folder` where it is of the run that
    wrote `meta` and gives its check's verdict ("passed" or "failed"), else
    None: a record of another run (a restart's) or none says nothing of it."""
    try:
        with open(os.path.join(folder, RECORD)) as f:
            record = json.load(f)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(record, dict) or "run" not in meta or record.get("run") != meta["run"]:
        return None
    p = record.get("provenance")
    return p if isinstance(p, dict) and p.get("check") in ("passed", "failed") else None


def provenance_attrs(meta, folder=None):
    """What made the field, as attributes a netCDF file can keep (strings
    and integers): whether it is the one-domain answer, why not, its check
    and the test aids planted. A sidecar without a provenance (an older
    version's) is not taken for the one-domain answer. A file written
    before its run's --check gave the verdict says "pending"; where the
    record in `folder` (stencil-miniapp.run.json) is of the same run and
    gives the verdict, that is the check, and a failed one adds the
    record's reasons. Otherwise it stays "pending"."""
    p = meta.get("provenance")
    if not isinstance(p, dict):
        return {"one_domain_answer": 0, "check": "unknown",
                "not_one_domain_because": "the sidecar does not say what made its field (an older version's)",
                "test_aids": ""}
    reasons = [str(r) for r in p.get("not_one_domain_because") or []]
    check = str(p.get("check", "unknown"))
    verdict = record_verdict(meta, folder) if check == "pending" and folder is not None else None
    if verdict:
        check = verdict["check"]
        if check == "failed":
            reasons += [r for r in map(str, verdict.get("not_one_domain_because") or []) if r not in reasons]
    return {"one_domain_answer": int(bool(p.get("one_domain_answer")) and not reasons),
            "check": check, "not_one_domain_because": "; ".join(reasons),
            "test_aids": ", ".join(str(a) for a in p.get("test_aids") or [])}
