#!/usr/bin/env bash
# The mini-app's outputs under mpirun: snapshots, slice images and receiver
# traces are identical, bit for bit, from 1 and from 4 ranks (MPI-IO views,
# slice gathers and receiver ownership all right); writing them changes no
# result (same checksum as a run without outputs); every receiver, including
# one on a rank boundary, is recorded exactly once; the files are what their
# JSON sidecars say, and their checksums match across rank counts and the
# files (tools/verify-output.py).
# usage: outputs_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
rm -rf "$work" && mkdir -p "$work"
# On a 1x2x2 split of 40x36x44 the ranks meet at y=18 and z=22: the file's
# receivers sit on and next to those boundaries.
printf '# x,y,z\n5,18,22\n5,17,21\n39,35,43\n0,0,0\n' >"$work/receivers.txt"
# shellcheck disable=SC2054 # the commas are inside the grid size
common=(--grid 40,36,44 --model layered --sponge 4 --steps 30 --warmup 0 --snapshot-every 10 --slice z=20
        --receivers "$work/receivers.txt" --receiver-line z=5 --checksum --quiet)
for np in 1 4; do
  "$mpiexec" "$np_flag" "$np" "$@" "$app" "${common[@]}" --output "$work/np$np" >"$work/np$np.txt"
done
"$mpiexec" "$np_flag" 4 "$@" "$app" --grid 40,36,44 --model layered --sponge 4 --steps 30 --warmup 0 --checksum \
  --quiet >"$work/plain.txt"
checksum() { grep '^checksum:' "$1"; }
[ -n "$(checksum "$work/np1.txt")" ] || { echo "no checksum printed"; exit 1; }
[ "$(checksum "$work/np1.txt")" = "$(checksum "$work/np4.txt")" ] || { echo "checksums differ between 1 and 4 ranks"; exit 1; }
[ "$(checksum "$work/np4.txt")" = "$(checksum "$work/plain.txt")" ] || { echo "writing outputs changed the result"; exit 1; }
for f in snapshot_000010.raw snapshot_000030.raw traces.bin slice_z20_000030.png shot_gather.png; do
  cmp "$work/np1/$f" "$work/np4/$f" || { echo "$f differs between 1 and 4 ranks"; exit 1; }
done
verify=$(dirname "$0")/../tools/verify-output.py
python3 "$verify" "$work/np1" "$work/np4" || { echo "the outputs do not verify against their sidecars"; exit 1; }
python3 - "$work/np4" "$work/np1" <<'PY'
import json, os, struct, sys
out = sys.argv[1]
for name in ("snapshot_000010.json", "snapshot_000030.json", "traces.json"):  # CRCs from 4 ranks' pieces and from 1
    four, one = (json.load(open(os.path.join(d, name))) for d in sys.argv[1:3])
    assert four["crc32"] == one["crc32"] and four["bytes"] == one["bytes"], (name, four, one)
meta = json.load(open(os.path.join(out, "snapshot_000030.json")))
nx, ny, nz = meta["dims"]
size = os.path.getsize(os.path.join(out, meta["file"]))
assert size == nx * ny * nz * 4, (size, meta["dims"])
assert meta["step"] == 30 and abs(meta["time_s"] - 30 * meta["dt_s"]) < 1e-12
traces = json.load(open(os.path.join(out, "traces.json")))
receivers = traces["receivers"]
assert len(receivers) == 4 + 40, len(receivers)                  # the file's 4, then the line's 40
assert receivers[0] == [5, 18, 22] and receivers[4] == [0, 18, 5]  # file order kept; the line at the source's y
assert len(set(map(tuple, receivers))) == len(receivers)
assert os.path.getsize(os.path.join(out, "traces.bin")) == len(receivers) * traces["nt"] * 4
assert traces["nt"] == 30
for png in ("slice_z20_000030.png", "shot_gather.png"):
    head = open(os.path.join(out, png), "rb").read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", png
    w, h = struct.unpack(">II", head[16:24])
    assert w >= 100 and h >= 30, (png, w, h)
# The wave reached the receiver next to the source: its trace is not all zeros.
data = open(os.path.join(out, "traces.bin"), "rb").read()
values = struct.unpack("<%df" % (len(data) // 4), data)
assert any(v != 0.0 for v in values), "every trace is zero"
print("outputs ok:", len(receivers), "receivers,", traces["nt"], "steps, snapshot", nx, ny, nz)
PY

# Double precision: the same files, float64 on disk and in the sidecars,
# identical from 1 and 4 ranks, and close to the float32 run's values.
for np in 1 4; do
  "$mpiexec" "$np_flag" "$np" "$@" "$app" "${common[@]}" --precision fp64 --output "$work/fp64_np$np" \
    >"$work/fp64_np$np.txt"
done
[ "$(checksum "$work/fp64_np1.txt")" = "$(checksum "$work/fp64_np4.txt")" ] || { echo "fp64 checksums differ between 1 and 4 ranks"; exit 1; }
for f in snapshot_000030.raw traces.bin; do
  cmp "$work/fp64_np1/$f" "$work/fp64_np4/$f" || { echo "fp64 $f differs between 1 and 4 ranks"; exit 1; }
done
python3 "$verify" "$work/fp64_np4" || { echo "the fp64 outputs do not verify against their sidecars"; exit 1; }
python3 - "$work/fp64_np4" "$work/np4" <<'PY'
import json, os, struct, sys
double, single = sys.argv[1:3]
for name, raw in (("snapshot_000030.json", "snapshot_000030.raw"), ("traces.json", "traces.bin")):
    meta = json.load(open(os.path.join(double, name)))
    assert meta["dtype"] == "float64" and "numpy.float64" in meta["order"], meta
    assert json.load(open(os.path.join(single, name)))["dtype"] == "float32"
    d = open(os.path.join(double, raw), "rb").read()
    s = open(os.path.join(single, raw), "rb").read()
    assert len(d) == 2 * len(s), (raw, len(d), len(s))
    dv = struct.unpack("<%dd" % (len(d) // 8), d)
    sv = struct.unpack("<%df" % (len(s) // 4), s)
    peak = max(abs(v) for v in dv)
    worst = max(abs(a - b) for a, b in zip(dv, sv))
    assert peak > 0 and worst <= 1e-3 * peak, (raw, worst, peak)
    assert dv != tuple(float(v) for v in sv), raw + ": the fp64 run holds float32 values"
print("fp64 outputs ok: float64 files, within 1e-3 of the float32 run's peak")
PY
