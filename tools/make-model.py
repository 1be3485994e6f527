#!/usr/bin/env python3
"""Velocity models for stencil-miniapp's --model file:PATH.

Writes PATH (a raw global field, x fastest, float32 or float64) and its
sidecar (PATH minus .raw, plus .json: dtype, dims, spacing_m, bytes, crc32),
the same pair a snapshot is, so the mini-app checks it before its first step.

usage:
  make-model.py layered --grid NX,NY,NZ --output model.raw [--velocities 1500,2000,2600,3200]
  make-model.py salt    --grid NX,NY,NZ --output model.raw [--top 1500] [--bottom 3500] [--salt 4500]
  make-model.py random  --grid NX,NY,NZ --output model.raw [--top 1500] [--bottom 3500]
                        [--percent 10] [--seed 1]
  make-model.py npy ARRAY.npy --output model.raw      (shape (nz, ny, nx), metres per second)
  make-model.py raw FIELD.raw --output model.raw --offset C --swing S
                            (a snapshot or any raw file with its sidecar, made a model:
                             speed = C + S * value / max|value|, so C-S to C+S m/s)
common options: --spacing H (metres, default 10; must be the run's --spacing),
                --dtype float32|float64 (default float32)

  layered  equal-thickness horizontal layers, top (z = 0) to bottom; the
           default is the mini-app's own --model layered, cell for cell
  salt     speed growing linearly with depth, and a salt body (an
           ellipsoid in the lower middle, --salt m/s) inside it
  random   the same gradient with smooth random perturbations of about
           +-percent (a sum of Gaussian blobs, reproducible with --seed)

Needs NumPy (Debian: python3-numpy). Bad input: one line, exit status 2.
"""
import argparse
import json
import os
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from tool_errors import ToolError, run  # noqa: E402

try:
    import numpy as np
except ImportError:  # pragma: no cover - said in one line
    np = None


def grid_of(text):
    try:
        dims = [int(v) for v in text.split(",")]
    except ValueError:
        dims = []
    if len(dims) != 3 or min(dims) < 1:
        raise ToolError(f"--grid {text}: three positive integers NX,NY,NZ")
    return dims


def depth_gradient(dims, top, bottom):
    nx, ny, nz = dims
    z = np.linspace(top, bottom, nz) if nz > 1 else np.array([top])
    return np.broadcast_to(z[:, None, None], (nz, ny, nx)).astype(np.float64)


def layered(dims, velocities):
    nx, ny, nz = dims
    speeds = np.array(velocities, dtype=np.float64)
    # The mini-app's layer of depth k: k * layers / nz (integer division).
    layer = np.arange(nz, dtype=np.int64) * len(speeds) // nz
    return np.broadcast_to(speeds[layer][:, None, None], (nz, ny, nx)).copy()


def salt(dims, top, bottom, salt_speed):
    nx, ny, nz = dims
    model = depth_gradient(dims, top, bottom).copy()
    z, y, x = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
    inside = (((x - 0.5 * nx) / (0.25 * nx)) ** 2 + ((y - 0.5 * ny) / (0.25 * ny)) ** 2 +
              ((z - 0.65 * nz) / (0.2 * nz)) ** 2) <= 1.0
    model[inside] = salt_speed
    return model


def random_model(dims, top, bottom, percent, seed):
    nx, ny, nz = dims
    rng = np.random.default_rng(seed)
    base = depth_gradient(dims, top, bottom)
    z, y, x = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
    bumps = np.zeros(base.shape)
    width = max(2.0, 0.08 * min(dims))
    for _ in range(24):
        cx, cy, cz = rng.uniform(0, nx), rng.uniform(0, ny), rng.uniform(0, nz)
        bumps += rng.uniform(-1, 1) * np.exp(-((x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2) /
                                             (2 * width ** 2))
    peak = np.abs(bumps).max()
    if peak > 0:
        bumps *= (percent / 100.0) / peak
    return base * (1.0 + bumps)


def from_raw(path, offset, swing):
    side = os.path.splitext(path)[0] + ".json"
    try:
        with open(side) as f:
            meta = json.load(f)
        dims = meta["dims"]
        values = np.fromfile(path, dtype=np.dtype(meta["dtype"]))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ToolError(f"{path}: cannot read it with its sidecar {side} ({e})") from None
    if values.size != dims[0] * dims[1] * dims[2]:
        raise ToolError(f"{path}: {values.size} values, its sidecar says {dims}")
    values = values.astype(np.float64)
    peak = np.abs(values).max()
    scaled = values / peak if peak > 0 else values
    return offset + swing * scaled.reshape(dims[2], dims[1], dims[0])


def made_here(path):
    """Whether `path` is a sidecar this tool wrote (a model made again replaces it)."""
    try:
        with open(path) as f:
            return json.load(f).get("program") == "make-model.py"
    except (OSError, ValueError, AttributeError, RecursionError):
        return False


def write_model(model, path, spacing, dtype):
    if not np.all(np.isfinite(model)) or model.min() <= 0:
        raise ToolError(f"{path}: the model has speeds that are not finite and positive "
                        f"(min {model.min():g}); the mini-app would refuse it")
    data = np.ascontiguousarray(model, dtype=np.dtype(dtype)).tobytes()
    nz, ny, nx = model.shape
    sidecar = {
        "program": "make-model.py",
        "file": os.path.basename(path),
        "bytes": len(data),
        "crc32": f"{zlib.crc32(data) & 0xFFFFFFFF:08x}",
        "dtype": dtype,
        "order": f"x fastest: numpy.fromfile(file, numpy.{dtype}).reshape(nz, ny, nx)",
        "dims": [nx, ny, nz],
        "spacing_m": [spacing, spacing, spacing],
        "units": "m/s",
    }
    side = os.path.splitext(path)[0] + ".json" if path.endswith(".raw") else path + ".json"
    for name in (path, side):
        if os.path.isdir(name):
            raise ToolError(f"{name}: a folder; name the model's raw file, such as model.raw")
    # The sidecar's name follows from the model's: a file there that is not
    # a sidecar of this tool is the user's, and is never overwritten.
    if os.path.exists(side) and not made_here(side):
        raise ToolError(f"{side}: there already, and not a sidecar of make-model.py: nothing is overwritten")
    try:
        # The raw file first, the sidecar last: a sidecar always describes a complete file.
        for name, payload, mode in ((path, data, "wb"), (side, json.dumps(sidecar, indent=2) + "\n", "w")):
            with open(name + ".partial", mode) as f:
                f.write(payload)
            os.replace(name + ".partial", name)
    except OSError as e:
        raise ToolError(f"{e.filename}: {e.strerror}") from None
    print(f"{path}: {nx} x {ny} x {nz} {dtype}, {model.min():.0f}-{model.max():.0f} m/s, "
          f"spacing {spacing:g} m; sidecar {side}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=["layered", "salt", "random", "npy", "raw"])
    parser.add_argument("source", nargs="?", help="npy: the .npy file; raw: the raw file")
    parser.add_argument("--grid")
    parser.add_argument("--output", required=True)
    parser.add_argument("--spacing", type=float, default=10.0)
    parser.add_argument("--dtype", choices=["float32", "float64"], default="float32")
    parser.add_argument("--velocities", default="1500,2000,2600,3200")
    parser.add_argument("--top", type=float, default=1500.0)
    parser.add_argument("--bottom", type=float, default=3500.0)
    parser.add_argument("--salt", type=float, default=4500.0)
    parser.add_argument("--percent", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--offset", type=float, default=2500.0)
    parser.add_argument("--swing", type=float, default=500.0)
    args = parser.parse_args()
    if np is None:
        raise ToolError("make-model.py needs NumPy (Debian: apt-get install python3-numpy; if another "
                        "python3 comes first on PATH, run it with /usr/bin/python3)")
    if args.kind in ("npy", "raw") and not args.source:
        raise ToolError(f"make-model.py {args.kind}: name the input file")
    if args.kind in ("layered", "salt", "random") and not args.grid:
        raise ToolError(f"make-model.py {args.kind}: --grid NX,NY,NZ is needed")
    if args.kind == "layered":
        try:
            speeds = [float(v) for v in args.velocities.split(",")]
        except ValueError:
            raise ToolError(f"--velocities {args.velocities}: numbers separated by commas") from None
        model = layered(grid_of(args.grid), speeds)
    elif args.kind == "salt":
        model = salt(grid_of(args.grid), args.top, args.bottom, args.salt)
    elif args.kind == "random":
        model = random_model(grid_of(args.grid), args.top, args.bottom, args.percent, args.seed)
    elif args.kind == "npy":
        try:
            model = np.load(args.source).astype(np.float64)
        except (OSError, ValueError) as e:
            raise ToolError(f"{args.source}: not a NumPy array file ({e})") from None
        if model.ndim != 3:
            raise ToolError(f"{args.source}: shape {model.shape}; a model is (nz, ny, nx)")
    else:
        model = from_raw(args.source, args.offset, args.swing)
    write_model(model, args.output, args.spacing, args.dtype)


if __name__ == "__main__":
    run(main)
