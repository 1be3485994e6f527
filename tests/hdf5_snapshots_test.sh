#!/usr/bin/env bash
# --output-format hdf5 (issue 70): the same run written once raw and once as
# HDF5, on RANKS ranks over an uneven split (2: 21 and 20 cells along x, so
# every rank's rows are hyperslabs of the file's; 3: 13, 12 and 12 along y),
# FP32 on 2 ranks and FP64 on 3:
#  - h5py reads each snapshot's dataset /p, shape (nz, ny, nx) in the run's
#    type with its attributes, and its values are the raw snapshot's, bit for
#    bit; the reader (python/stencil_miniapp) reads the .h5, .json and .xmf;
#  - tools/verify-output.py passes the folder (lengths, CRC-32s, the XDMF
#    files' HDF data items, the datasets' shapes and types through h5py);
#  - on 2 ranks, ParaView (pvbatch, where installed) opens the XDMF files
#    and sees the raw run's values, and planted faults are caught: a wrong
#    extent in an XDMF file (verify-output and ParaView), a truncated .h5 and
#    a sidecar with the wrong dims (verify-output and the reader), the reader
#    without h5py (a clear error), and a write that fails on one rank (one
#    line on every rank, no file left).
# Exit 77 (ctest's skip) where the build has no HDF5 or no Python has h5py.
# usage: hdf5_snapshots_test.sh HAVE_HDF5 RANKS MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
have=$1 ranks=$2 mpiexec=$3 np_flag=$4 app=$5 work=$6
shift 6
here=$(cd "$(dirname "$0")" && pwd)
verify=$here/../tools/verify-output.py
fail() { echo "hdf5_snapshots($ranks): $*"; exit 1; }
[ "$have" = ON ] || { echo "skipped: this build has no parallel HDF5 (docs/BUILDING.md, STENCIL_HDF5)"; exit 77; }
py=
for candidate in ${PYTHON:-} python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c "import h5py, numpy" 2>/dev/null; then
    py=$candidate
    break
  fi
done
[ -n "$py" ] || { echo "skipped: no Python with h5py (apt-get install python3-h5py)"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
case "$ranks" in
  2) split=(--procs "2,1,1" --precision fp32) ;;
  3) split=(--procs "1,3,1" --precision fp64) ;;
  *) fail "RANKS is 2 or 3" ;;
esac
run() { # FORMAT [ARGS...]: the run into $work/FORMAT
  local format=$1
  shift
  "$mpiexec" "$np_flag" "$ranks" "${preflags[@]}" "$app" --grid 41,37,43 "${split[@]}" --model layered \
    --steps 30 --warmup 0 --snapshot-every 10 --output "$work/$format" --output-format "$format" \
    --quiet "$@" >"$work/$format.txt" 2>&1
}
preflags=("$@")
run raw || { cat "$work/raw.txt"; fail "the raw run failed"; }
run hdf5 || { cat "$work/hdf5.txt"; fail "the HDF5 run failed"; }
PYTHONPATH="$here/../python" "$py" - "$work" <<'PY' || fail "the HDF5 snapshots are not the raw ones"
import json, os, sys
import h5py, numpy
import stencil_miniapp as sm
work = sys.argv[1]
for step in (10, 20, 30):
    stem = f"snapshot_{step:06d}"
    meta = json.load(open(os.path.join(work, "hdf5", stem + ".json")))
    nx, ny, nz = meta["dims"]
    raw = numpy.fromfile(os.path.join(work, "raw", stem + ".raw"), meta["dtype"]).reshape(nz, ny, nx)
    with h5py.File(os.path.join(work, "hdf5", stem + ".h5"), "r") as f:
        p = f["p"]
        assert p.shape == (nz, ny, nx) and p.dtype == raw.dtype, (p.shape, p.dtype)
        values = p[...]
        assert values.tobytes() == raw.tobytes(), f"{stem}: the values differ from the raw snapshot's"
        attrs = dict(p.attrs)
        assert attrs["step"] == step and list(attrs["dims"]) == [nx, ny, nz], attrs
        assert attrs["time_s"] == meta["time_s"] and attrs["dtype"] == meta["dtype"], attrs
        assert json.loads(attrs["provenance"]) == meta["provenance"], attrs["provenance"]
    assert meta["format"] == "hdf5" and meta["dataset"] == "/p" and meta["file"] == stem + ".h5", meta
    for name in (stem + ".h5", stem + ".json", stem + ".xmf"):
        got = sm.read_snapshot(os.path.join(work, "hdf5", name), xarray=False, verify=True)
        assert got.tobytes() == raw.tobytes(), name
print(f"h5py and the reader read 3 snapshots of {raw.dtype}, shape {raw.shape}: the raw run's bits")
PY
"$py" "$verify" "$work/hdf5" >"$work/verify.txt" || { cat "$work/verify.txt"; fail "the HDF5 folder does not verify"; }
[ "$(grep -c "dataset /p's shape and type as its sidecar says" "$work/verify.txt")" = 3 ] ||
  { cat "$work/verify.txt"; fail "verify-output did not check the datasets"; }
tail -1 "$work/verify.txt"
[ "$ranks" = 2 ] || { echo "hdf5_snapshots($ranks): HDF5 snapshots are the raw ones"; exit 0; }
bash "$here/hdf5_planted_faults.sh" "$py" "$work" "$mpiexec" "$np_flag" "$app" "$@"
