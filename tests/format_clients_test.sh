#!/usr/bin/env bash
# The mini-app's files as the field's own tools read them, each with a
# planted fault it must catch:
#   segyio:   Debian's python3-segyio reads traces.sgy (segyio_check.py):
#             the samples and coordinates the run recorded; a trace header
#             with a wrong receiver x, and a wrong sample interval, fail;
#   paraview: ParaView's XDMF 3 reader under pvbatch (Debian's paraview and
#             python3-paraview) opens every snapshot's .xmf and the series
#             (xdmf_paraview_check.py), FP32 and FP64: the raw files'
#             values, extent, spacing and times; a wrong extent fails;
#   reader:   the stencil_miniapp package (python/, reader_test.py) with
#             NumPy, and xarray where importable, on a run with --check.
# Exit 77 (ctest's skip) where the client is not installed.
# usage: format_clients_test.sh CLIENT MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
client=$1 mpiexec=$2 np_flag=$3 app=$4 work=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "format_clients($client): $*"; exit 1; }
# The first Python that imports the modules (Debian's packages live in
# /usr/bin/python3, which another python3 on PATH may shadow).
python_with() {
  local py
  for py in ${PYTHON:-} python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null && "$py" -c "import $1" 2>/dev/null; then echo "$py"; return; fi
  done
  return 1
}
case "$client" in
  segyio) py=$(python_with "segyio, numpy") || { echo "skipped: no Python with segyio (apt-get install python3-segyio)"; exit 77; } ;;
  paraview) command -v pvbatch >/dev/null || { echo "skipped: no pvbatch (apt-get install paraview python3-paraview)"; exit 77; } ;;
  reader) py=$(python_with numpy) || { echo "skipped: no Python with NumPy (apt-get install python3-numpy)"; exit 77; } ;;
  *) echo "usage: format_clients_test.sh segyio|paraview|reader MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]"; exit 2 ;;
esac
rm -rf "$work" && mkdir -p "$work"
# Receivers on the ranks' boundary (y = 18, z = 22 on a 1x2x1 split), at
# the corners, and a line along x.
printf '# x,y,z\n5,18,22\n39,35,43\n0,0,0\n' >"$work/receivers.txt"
run() {
  local out=$1
  shift
  "$mpiexec" "$np_flag" 2 "$@" "$app" --grid 40,36,44 --model layered --steps 30 --warmup 0 \
    --receivers "$work/receivers.txt" --receiver-line z=5 --trace-format both --report "$out.json" \
    --output "$out" --quiet "${extra[@]}" >"$out.txt" 2>&1 || { cat "$out.txt"; fail "the run failed"; }
}
extra=(--snapshot-every 10)
# The reader's run is checked: its files say the check is pending, and the
# reader takes the verdict from the folder's record.
if [ "$client" = reader ]; then extra+=(--check); fi
run "$work/out" "$@"
# A copy with one byte range of FILE replaced: plant COPY FILE OFFSET HEX.
plant() {
  rm -rf "${work:?}/${1:?}" && cp -r "$work/out" "$work/$1"
  python3 -c 'import sys; p, at, new = sys.argv[1], int(sys.argv[2]), bytes.fromhex(sys.argv[3])
data = bytearray(open(p, "rb").read()); data[at:at + len(new)] = new; open(p, "wb").write(data)' \
    "$work/$1/$2" "$3" "$4"
}
case "$client" in
  segyio)
    "$py" "$here/segyio_check.py" "$work/out" || fail "segyio does not read what the run recorded"
    # The second trace's receiver x (bytes 81-84 of its header), and the
    # sample interval in every header (bytes 117-118 of the first; 3217 of the file).
    samples=31
    plant wrong-x traces.sgy $((3600 + 240 + 4 * samples + 80)) 7fffffff
    if "$py" "$here/segyio_check.py" "$work/wrong-x"; then fail "a trace header with a wrong receiver x passed"; fi
    plant wrong-dt traces.sgy 3216 0001
    if "$py" "$here/segyio_check.py" "$work/wrong-dt"; then fail "a wrong sample interval passed"; fi
    echo "segyio: the traces read right, and both planted faults were caught"
    ;;
  paraview)
    # Whether ParaView reads FOLDER as its sidecars say (its lines kept in FOLDER.pv.txt).
    opens() { pvbatch "$here/xdmf_paraview_check.py" "$1" >"$1.pv.txt" 2>&1; grep -q "^ParaView opens" "$1.pv.txt"; }
    opens "$work/out" || { cat "$work/out.pv.txt"; fail "ParaView does not open the snapshots as written"; }
    extra=(--snapshot-every 15 --precision fp64)
    run "$work/out64" "$@"
    opens "$work/out64" || { cat "$work/out64.pv.txt"; fail "ParaView does not open the FP64 snapshots as written"; }
    # A wrong extent: one plane too few along x, in one snapshot's file.
    rm -rf "$work/extent" && cp -r "$work/out" "$work/extent"
    sed -i 's/Dimensions="44 36 40"/Dimensions="44 36 39"/g' "$work/extent/snapshot_000020.xmf"
    grep -q 'Dimensions="44 36 39"' "$work/extent/snapshot_000020.xmf" || fail "the fault was not planted"
    if opens "$work/extent"; then fail "an XDMF with a wrong extent passed"; fi
    grep "FAILED" "$work/extent.pv.txt"
    echo "paraview: the snapshots open right, and the planted wrong extent was caught"
    ;;
  reader)
    PYTHONPATH="$here/../python" "$py" "$here/reader_test.py" "$work/out" "$work/out.json" ||
      fail "the Python reader does not read what the run wrote"
    ;;
esac
