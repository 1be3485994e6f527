#!/usr/bin/env bash
# 5,000 receivers: traces.bin keeps all of them, and the shot gather draws
# one in two (at most 4,096 columns), says so, and is an image a viewer
# opens. Before, a gather one pixel per receiver failed in the PNG encoder
# after the whole run (at 10^6 receivers), with no figure of merit.
# usage: large_gather_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
rm -rf "$work" && mkdir -p "$work"
python3 -c '
import sys
with open(sys.argv[1], "w") as f:
    for y in range(50):
        for x in range(100):
            f.write("%d,%d,5\n" % (x, y))' "$work/receivers.txt"
"$mpiexec" "$np_flag" 2 "$@" "$app" --grid 100,50,10 --radius 2 --steps 8 --receivers "$work/receivers.txt" \
  --output "$work/out" >"$work/run.txt" 2>&1 || { cat "$work/run.txt"; exit 1; }
grep -q 'traces: 5000 receivers x 8 steps .*(one receiver in 2 drawn: at most 4096 columns)' "$work/run.txt" ||
  { echo "no line saying the gather is decimated"; cat "$work/run.txt"; exit 1; }
python3 - "$work/out" <<'PY'
import os, struct, sys
out = sys.argv[1]
size = os.path.getsize(os.path.join(out, "traces.bin"))
assert size == 5000 * 8 * 4, "traces.bin holds %d bytes, not 5000 x 8 floats" % size
with open(os.path.join(out, "shot_gather.png"), "rb") as f:
    head = f.read(24)
assert head[:8] == b"\x89PNG\r\n\x1a\n", "shot_gather.png is not a PNG"
width, height = struct.unpack(">II", head[16:24])
assert 2500 <= width <= 8192, "gather %d pixels wide" % width
print("gather %d x %d pixels for 5000 receivers; traces.bin complete" % (width, height))
PY
