#!/usr/bin/env bash
# Velocity models from files (--model file:PATH), against references
# computed another way: tools/make-model.py's layered model runs bit for bit
# as the built-in --model layered; a varying model gives the one-rank run's
# checksum on 4 ranks with deep halos, periodic or not (each rank reads its
# box and halo itself); a snapshot, turned into speeds by make-model.py,
# runs as a model. A missing sidecar, wrong dims, a CRC that differs, a
# negative speed, a NaN, speeds no medium has (1e-30 and 1e30 m/s) and a
# directory are each refused in one line before the first step.
# usage: model_file_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
preflags=("$@")
here=$(dirname "$0")
make_model=$here/../tools/make-model.py
# A Python with NumPy (Debian's, which tools/install-deps.sh installs, may sit
# behind another python3 on PATH).
py=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c "import numpy" 2>/dev/null; then py=$candidate; break; fi
done
rm -rf "$work" && mkdir -p "$work"
fail() { echo "model_file_test: $*"; exit 1; }
[ -n "$py" ] || fail "no Python with NumPy (apt-get install python3-numpy)"
checksum() { grep '^checksum:' "$1" || true; }
mini() { local np=$1; shift; "$mpiexec" "$np_flag" "$np" "$@" "$app" "${opts[@]}"; }
grid=40,36,44
# shellcheck disable=SC2054 # the commas are inside the grid size
problem=(--grid "$grid" --steps 24 --checksum --quiet --radius 3)

echo "== make-model.py's layered model is the built-in one"
"$py" "$make_model" layered --grid "$grid" --output "$work/layered.raw"
for precision in fp32 fp64; do
  opts=("${problem[@]}" --precision "$precision" --model layered)
  mini 2 "$@" >"$work/builtin.txt"
  opts=("${problem[@]}" --precision "$precision" --model "file:$work/layered.raw")
  mini 3 "$@" >"$work/file.txt"
  a=$(checksum "$work/builtin.txt") b=$(checksum "$work/file.txt")
  { [ -n "$a" ] && [ "$a" = "$b" ]; } || fail "$precision: built-in layered $a, the file's $b"
  echo "ok  $precision: --model layered and file:layered.raw both $a"
done

echo "== a varying model: 4 ranks with deep halos equal 1 rank"
"$py" "$make_model" random --grid "$grid" --output "$work/random.raw" --dtype float64 --percent 20
"$py" "$make_model" salt --grid "$grid" --output "$work/salt.raw"
for model in random salt; do
  for periodic in none x,y,z; do
    sponge=(); [ "$periodic" = none ] && sponge=(--sponge 4)
    opts=("${problem[@]}" --model "file:$work/$model.raw" --periodic "$periodic" "${sponge[@]}")
    mini 1 "$@" >"$work/one.txt"
    opts+=(--halo-depth 3)
    mini 4 "$@" >"$work/four.txt"
    a=$(checksum "$work/one.txt") b=$(checksum "$work/four.txt")
    { [ -n "$a" ] && [ "$a" = "$b" ]; } || fail "$model, periodic $periodic: 1 rank $a, 4 ranks $b"
    echo "ok  $model, periodic $periodic: 1 rank and 4 ranks (halo depth 3) both $a"
  done
done
[ "$(checksum "$work/one.txt")" != "$(checksum "$work/builtin.txt")" ] || fail "the salt model changed nothing"

echo "== a snapshot made a model, and run"
opts=("${problem[@]}" --model "file:$work/salt.raw" --snapshot-every 24 --output "$work/out")
mini 2 "$@" >/dev/null
"$py" "$make_model" raw "$work/out/snapshot_000024.raw" --offset 2500 --swing 500 --output "$work/from-snapshot.raw" \
  | tee "$work/from-snapshot.log"
opts=("${problem[@]}" --model "file:$work/from-snapshot.raw")
mini 2 "$@" >"$work/from-snapshot.txt" || fail "the model made from a snapshot did not run"
grep -Eq "float32, (2000-[0-9]+|[0-9]+-3000) m/s" "$work/from-snapshot.log" || fail "the model made from a snapshot: $(cat "$work/from-snapshot.log")"
echo "ok  snapshot -> make-model.py raw (2500 +- 500 m/s) -> run: $(checksum "$work/from-snapshot.txt")"

echo "== refusals, one line each"
refused() { # refused REGEX OPTIONS...
  local regex=$1; shift
  bash "$here/expect_failure.sh" 20 "$regex" "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" "${problem[@]}" "$@"
}
# A snapshot as it is: zeros far from the source are no speed.
refused "--model file:.*snapshot_000024.raw: the speed at cell 0,0,0 is 0 m/s; every value must be a speed of sound in m/s, from 1 to 100000" \
  --model "file:$work/out/snapshot_000024.raw"
cp "$work/layered.raw" "$work/lonely.raw"
refused "--model file:.*lonely.raw: no sidecar .*lonely.json" --model "file:$work/lonely.raw"
bash "$here/expect_failure.sh" 20 "the model is 40x36x44 cells, the grid 40x36x40" \
  "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" --grid 40,36,40 --steps 2 --model "file:$work/layered.raw"
# The same file changed in place: one byte (CRC), then a negative speed and a NaN with a matching CRC.
patch_model() { # patch_model NAME CELL VALUE FIX_CRC
  cp "$work/layered.raw" "$work/$1.raw"
  "$py" - "$work/$1.raw" "$work/layered.json" "$work/$1.json" "$2" "$3" "$4" <<'PY'
import json, struct, sys, zlib
raw, old, new, cell, value, fix = sys.argv[1:]
data = bytearray(open(raw, "rb").read())
data[4 * int(cell):4 * int(cell) + 4] = struct.pack("<f", float(value))
open(raw, "wb").write(data)
meta = json.load(open(old))
if fix == "yes":
    meta["crc32"] = f"{zlib.crc32(bytes(data)) & 0xFFFFFFFF:08x}"
json.dump(meta, open(new, "w"))
PY
}
patch_model damaged 1234 1500.5 no
refused "--model file:.*damaged.raw: CRC-32 [0-9a-f]{8}, the sidecar says [0-9a-f]{8}" --model "file:$work/damaged.raw"
patch_model negative $((40 * 36 * 5 + 40 * 7 + 3)) -1500 yes
refused "--model file:.*negative.raw: the speed at cell 3,7,5 is -1500 m/s" --model "file:$work/negative.raw"
patch_model nan 17 nan yes
refused "--model file:.*nan.raw: the speed at cell 17,0,0 is nan m/s" --model "file:$work/nan.raw"
# Speeds no medium has: the cell is named, not --spacing, and f0 is never 6.7e-33 Hz.
patch_model tiny 100 1e-30 yes
refused "--model file:.*tiny.raw: the speed at cell 20,2,0 is 1e-30 m/s; every value must be a speed of sound in m/s, from 1 to 100000" \
  --model "file:$work/tiny.raw"
patch_model huge 101 1e30 yes
refused "--model file:.*huge.raw: the speed at cell 21,2,0 is 1e\+30 m/s; every value must be a speed of sound" \
  --model "file:$work/huge.raw"
# A folder named as the model, with a sidecar beside it: no size of a directory.
mkdir -p "$work/folder"
cp "$work/layered.json" "$work/folder.json"
refused "--model file:.*folder: a directory; name the raw file of speeds in it" --model "file:$work/folder"
echo "model files ok"
