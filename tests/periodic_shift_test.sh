#!/usr/bin/env bash
# Periodic boundaries against translation: with every axis periodic and a
# constant velocity, moving the source by (dx, dy, dz) must move the whole
# field by the same cells, wrapped, bit for bit. The source sits within R
# cells of three edges, so the first steps already read wrapped halos. The
# reference is one rank (every halo its own wrap); the shifted run has 4
# ranks (a 1 x 2 x 2 split: neighbours across the wrap). A wrong or missing
# wrap (rigid walls instead) breaks the equality at once.
# usage: periodic_shift_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
rm -rf "$work" && mkdir -p "$work"
for precision in fp32 fp64; do
  # shellcheck disable=SC2054 # the commas are inside the grid size
  common=(--grid 24,20,28 --radius 4 --periodic x,y,z --precision "$precision" --steps 60 --warmup 0
          --snapshot-every 60 --quiet)
  "$mpiexec" "$np_flag" 1 "$@" "$app" "${common[@]}" --source 1,2,3 --output "$work/$precision-a" >/dev/null
  "$mpiexec" "$np_flag" 4 "$@" "$app" "${common[@]}" --source 14,19,10 --output "$work/$precision-b" >/dev/null
done
python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
shift = (13, 17, 7)  # (14, 19, 10) - (1, 2, 3)
for precision, size in (("fp32", 4), ("fp64", 8)):
    a_dir, b_dir = (os.path.join(work, precision + s) for s in ("-a", "-b"))
    meta = json.load(open(os.path.join(a_dir, "snapshot_000060.json")))
    nx, ny, nz = meta["dims"]
    a = open(os.path.join(a_dir, "snapshot_000060.raw"), "rb").read()
    b = open(os.path.join(b_dir, "snapshot_000060.raw"), "rb").read()
    assert len(a) == len(b) == nx * ny * nz * size, (len(a), len(b))
    cell = lambda data, i, j, k: data[size * (i + nx * (j + ny * k)):size * (i + nx * (j + ny * k) + 1)]
    differ = nonzero = 0
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                moved = cell(b, (i + shift[0]) % nx, (j + shift[1]) % ny, (k + shift[2]) % nz)
                differ += moved != cell(a, i, j, k)
                nonzero += moved != bytes(size)
    assert nonzero > nx * ny * nz // 10, "the wave should fill much of the grid: %d cells" % nonzero
    assert differ == 0, "%s: %d of %d cells differ from the shifted reference" % (precision, differ, nx * ny * nz)
    print("%s: the shifted source gives the shifted field, bit for bit (%d non-zero cells)" % (precision, nonzero))
PY
