#!/usr/bin/env bash
# Planted faults in HDF5 snapshots (from hdf5_snapshots_test.sh, which wrote
# WORK/raw and WORK/hdf5 on 2 ranks), each of which a client must catch:
#   extent:    an XDMF file one plane short along x: verify-output, and
#              ParaView where pvbatch is installed (which first opens the
#              folder as written and sees the raw run's values);
#   truncated: a .h5 cut short: verify-output (its length) and the reader;
#   resealed:  the same with its sidecar's length and CRC-32 made to agree,
#              as a writer's bug would: verify-output through h5py;
#   dims:      a sidecar whose dims are one short along x (its length and
#              CRC-32 still the file's): verify-output and the reader;
#   no h5py:   the reader says it needs h5py;
#   write:     a write that fails on the last rank (--inject-fault
#              write-error): one line on every rank, in time, and no file.
# usage: hdf5_planted_faults.sh PYTHON WORK MPIEXEC NUMPROC_FLAG APP [PREFLAGS...]
set -euo pipefail
py=$1 work=$2 mpiexec=$3 np_flag=$4 app=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)
verify=$here/../tools/verify-output.py
fail() { echo "hdf5_planted_faults: $*"; exit 1; }
copy() { rm -rf "${work:?}/${1:?}" && cp -r "$work/hdf5" "$work/$1"; }
# FOLDER WHY: verify-output must fail FOLDER with a line matching WHY.
must_fail() {
  local status=0
  "$py" "$verify" "$work/$1" >"$work/$1.txt" || status=$?
  [ "$status" = 1 ] || { cat "$work/$1.txt"; fail "$1: verify-output exited $status, not 1"; }
  grep -E "^FAILED .*$2" "$work/$1.txt" || { cat "$work/$1.txt"; fail "$1: no FAILED line for $2"; }
}
# FILE WHY [PYTHON CODE FIRST]: the reader must refuse FILE with an error matching WHY.
reader_refuses() {
  PYTHONPATH="$here/../python" "$py" - "$@" <<'PY' || fail "the reader read $1"
import re, sys
exec(sys.argv[3] if len(sys.argv) > 3 else "")
import stencil_miniapp as sm
try:
    sm.read_snapshot(sys.argv[1], xarray=False)
except (ValueError, OSError, ImportError) as e:
    assert re.search(sys.argv[2], str(e)) and "/" in str(e), f"not the error expected: {e}"
    print(f"reader: {type(e).__name__}: {e}")
    sys.exit(0)
sys.exit(1)
PY
}

copy extent && sed -i 's/Dimensions="43 37 41"/Dimensions="43 37 40"/g' "$work/extent/snapshot_000020.xmf"
must_fail extent "snapshot_000020.xmf: dimensions 43 37 40, its sidecar says 43 37 41"
if command -v pvbatch >/dev/null; then
  opens() { pvbatch "$here/xdmf_paraview_check.py" "$work/$1" "$work/raw" >"$work/$1.pv.txt" 2>&1; }
  opens hdf5 || { cat "$work/hdf5.pv.txt"; fail "ParaView does not open the HDF5 snapshots as written"; }
  grep "^ParaView opens" "$work/hdf5.pv.txt"
  if opens extent; then fail "ParaView opened an XDMF with a wrong extent"; fi
  grep "FAILED" "$work/extent.pv.txt"
else
  echo "ParaView not checked: no pvbatch (apt-get install paraview python3-paraview)"
fi

copy truncated && truncate -s -100 "$work/truncated/snapshot_000010.h5"
must_fail truncated "snapshot_000010.h5: [0-9]+ bytes, its sidecar says [0-9]+"
reader_refuses "$work/truncated/snapshot_000010.h5" "bytes, its sidecar says"
copy resealed && truncate -s -100 "$work/resealed/snapshot_000010.h5"
"$py" - "$work/resealed" <<'PY'
import json, os, sys, zlib
path = os.path.join(sys.argv[1], "snapshot_000010")
data = open(path + ".h5", "rb").read()
meta = json.load(open(path + ".json"))
meta.update(bytes=len(data), crc32=f"{zlib.crc32(data):08x}")
json.dump(meta, open(path + ".json", "w"))
PY
must_fail resealed "snapshot_000010.h5: h5py cannot open it"

copy dims
"$py" - "$work/dims/snapshot_000020.json" <<'PY'
import json, sys
meta = json.load(open(sys.argv[1]))
meta["dims"][0] -= 1
json.dump(meta, open(sys.argv[1], "w"))
PY
must_fail dims "snapshot_000020.h5: dataset /p has shape \(43, 37, 41\), its sidecar says \(43, 37, 40\)"
reader_refuses "$work/dims/snapshot_000020.xmf" "dataset /p is float32 \(43, 37, 41\), .* says float32 \(43, 37, 40\)"
reader_refuses "$work/hdf5/snapshot_000020.h5" "needs h5py" "sys.modules['h5py'] = None"

bash "$here/expect_failure.sh" 60 "writing .*/write/snapshot_000020.h5: No space left on device \(injected\)" \
  "$mpiexec" "$np_flag" 2 "$@" "$app" --grid 41,37,43 --procs 2,1,1 --steps 30 --warmup 0 --snapshot-every 10 \
  --output "$work/write" --output-format hdf5 --inject-fault write-error --quiet ||
  fail "a failed HDF5 write did not end the run in one line"
[ -f "$work/write/snapshot_000010.h5" ] || fail "the snapshot before the failed write is gone"
for left in "$work"/write/snapshot_000020*; do
  [ -e "$left" ] && { ls "$work/write"; fail "the failed write left a file: $left"; }
done
echo "hdf5_planted_faults: every planted fault was caught"
