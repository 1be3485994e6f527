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
