"""What the readers share: a sidecar read and checked, a raw file read
into NumPy, the optional xarray."""
import json
import os
import zlib

import numpy


def load_sidecar(path):
    """The JSON document at `path`, which must be a sidecar of the program's."""
    try:
        with open(path) as f:
            meta = json.load(f)
    except OSError as e:
        raise OSError(e.errno, f"{path}: {e.strerror}") from None
    except ValueError as e:
        raise ValueError(f"{path}: not valid JSON ({e})") from None
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


def provenance_attrs(meta):
    """What made the field, as attributes a netCDF file can keep (strings
    and integers): whether it is the one-domain answer, why not, its check
    and the test aids planted. A sidecar without a provenance (an older
    version's) is not taken for the one-domain answer."""
    p = meta.get("provenance")
    if not isinstance(p, dict):
        return {"one_domain_answer": 0, "check": "unknown",
                "not_one_domain_because": "the sidecar does not say what made its field (an older version's)",
                "test_aids": ""}
    reasons = [str(r) for r in p.get("not_one_domain_because") or []]
    return {"one_domain_answer": int(bool(p.get("one_domain_answer")) and not reasons),
            "check": str(p.get("check", "unknown")), "not_one_domain_because": "; ".join(reasons),
            "test_aids": ", ".join(str(a) for a in p.get("test_aids") or [])}
