#!/usr/bin/env bash
# The files written for the field's tools, checked with the standard
# library alone (the clients themselves: format_clients_test.sh):
#  - traces.sgy from 2 and from 4 ranks is the same past its textual header
#    (which names the run), and its samples after t = 0 are traces.bin's;
#  - every .xmf names its raw file by a relative name, as Binary from byte 0;
#  - tools/verify-output.py passes both folders, and one moved elsewhere;
#  - planted faults it must fail: an XDMF whose extent disagrees with its
#    sidecar, a series that lists a file no sidecar describes, a SEG-Y with
#    a trace too few (its sidecar's length and CRC-32 made to match, as a
#    writer's bug would), a SEG-Y with a wrong sample count, a damaged
#    traces.bin beside a sound traces.sgy (which must still verify).
# usage: formats_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
verify=$(cd "$(dirname "$0")/.." && pwd)/tools/verify-output.py
fail() { echo "formats_test: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work"
printf '5,18,22\n39,35,43\n0,0,0\n' >"$work/receivers.txt"
for np in 2 4; do
  "$mpiexec" "$np_flag" "$np" "$@" "$app" --grid 40,36,44 --steps 30 --warmup 0 --snapshot-every 10 \
    --receivers "$work/receivers.txt" --receiver-line z=5 --trace-format both --output "$work/np$np" \
    --quiet >"$work/np$np.txt" 2>&1 || { cat "$work/np$np.txt"; fail "the run on $np ranks failed"; }
done
cmp <(tail -c +3201 "$work/np2/traces.sgy") <(tail -c +3201 "$work/np4/traces.sgy") ||
  fail "traces.sgy differs between 2 and 4 ranks past its textual header"
python3 - "$work/np2" <<'PY' || fail "the SEG-Y samples or the XDMF files are not as written"
import json, os, struct, sys
import xml.etree.ElementTree as ET
out = sys.argv[1]
meta = json.load(open(os.path.join(out, "traces.json")))
nt, count = meta["nt"], len(meta["receivers"])
raw = struct.unpack(f"<{count * nt}f", open(os.path.join(out, "traces.bin"), "rb").read())
segy = open(os.path.join(out, "traces.sgy"), "rb").read()
for n in range(count):
    at = 3600 + n * (240 + 4 * (nt + 1)) + 240
    samples = struct.unpack_from(f">{nt + 1}f", segy, at)
    assert samples[0] == 0 and list(samples[1:]) == list(raw[n * nt:(n + 1) * nt]), n
for name in sorted(os.listdir(out)):
    if name.endswith(".xmf"):
        for item in ET.parse(os.path.join(out, name)).getroot().iter("DataItem"):
            if item.get("Format") == "Binary":
                assert item.get("Seek") == "0" and "/" not in item.text, (name, item.attrib, item.text)
                assert os.path.isfile(os.path.join(out, item.text)), (name, item.text)
print(f"{count} SEG-Y traces hold traces.bin's samples after t = 0; the XDMF files point at their raw files")
PY
python3 "$verify" "$work/np2" "$work/np4" >"$work/verify.txt" || { cat "$work/verify.txt"; fail "the folders do not verify"; }
mkdir -p "$work/elsewhere" && cp -r "$work/np2" "$work/elsewhere/moved"
python3 "$verify" "$work/elsewhere/moved" | tail -1
# FOLDER WHY: verify-output must fail FOLDER with a line matching WHY.
must_fail() {
  local status=0
  python3 "$verify" "$work/$1" >"$work/$1.txt" || status=$?
  [ "$status" = 1 ] || { cat "$work/$1.txt"; fail "$1: verify-output exited $status, not 1"; }
  grep -E "^FAILED .*$2" "$work/$1.txt" || { cat "$work/$1.txt"; fail "$1: no FAILED line for $2"; }
}
copy() { rm -rf "${work:?}/${1:?}" && cp -r "$work/np2" "$work/$1"; }
copy extent && sed -i 's/Dimensions="44 36 40"/Dimensions="44 36 41"/' "$work/extent/snapshot_000010.xmf"
must_fail extent "snapshot_000010.xmf: dimensions 44 36 41, its sidecar says 44 36 40"
copy series && sed -i 's/>snapshot_000020.raw</>snapshot_000021.raw</' "$work/series/snapshots.xmf"
must_fail series "snapshots.xmf: lists snapshot_000021.raw, which no sidecar describes"
# A trace too few, or a sample count off by one, with the sidecar made to
# agree with the file's length and CRC-32: the headers must be read.
python3 - "$work" <<'PY'
import json, os, shutil, struct, sys, zlib
work = sys.argv[1]
for name, edit in (("short", lambda d, size: d[:-size]),
                   ("samples", lambda d, size: d[:3220] + struct.pack(">h", struct.unpack_from(">h", d, 3220)[0] - 1) + d[3222:])):
    out = os.path.join(work, name)
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(os.path.join(work, "np2"), out)
    meta = json.load(open(os.path.join(out, "traces.json")))
    path = os.path.join(out, "traces.sgy")
    data = edit(open(path, "rb").read(), 240 + 4 * (meta["nt"] + 1))
    open(path, "wb").write(data)
    meta["segy"].update(bytes=len(data), crc32=f"{zlib.crc32(data):08x}")
    json.dump(meta, open(os.path.join(out, "traces.json"), "w"))
PY
must_fail short "traces.sgy: [0-9.]+ traces, traces.json lists 43 receivers"
must_fail samples "traces.sgy: 30 samples a trace, traces.json says 30 steps and t = 0"
# A damaged traces.bin is its own fault: traces.sgy still verifies.
copy rawbad && printf 'XXXX' | dd of="$work/rawbad/traces.bin" bs=1 seek=100 conv=notrunc 2>/dev/null
must_fail rawbad "traces.bin: CRC-32 [0-9a-f]+, its sidecar says"
grep -q "^ok .*traces.sgy: " "$work/rawbad.txt" || { cat "$work/rawbad.txt"; fail "traces.sgy was not verified beside a damaged traces.bin"; }
echo "formats_test: the SEG-Y and XDMF files are as written, and every planted fault was caught"
