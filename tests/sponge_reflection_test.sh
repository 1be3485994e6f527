#!/usr/bin/env bash
# The sponge's reflection, measured by tools/sponge-reflection.py on 2 ranks:
#  - --sponge 16 at the default strength, normal incidence, reflects less
#    than $bound dB (measured -27.6 dB on the HOST back-end; the table
#    under --sponge in docs/OPTIONS.md): 3.6 dB of margin, so a change that
#    doubles the reflected energy fails;
#  - and the check can fail: the same measurement with the box's sponge
#    planted off (--plant-sponge-off runs that box with --sponge 0, the
#    rigid wall: about -4 dB) must exit 1 and say which width reflects.
# usage: sponge_reflection_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
repo=$(cd "$(dirname "$0")/.." && pwd)
bound=-24
rm -rf "$work" && mkdir -p "$work"
fail() { echo "sponge_reflection: $*"; exit 1; }
# A Python that has NumPy: another python3 earlier on PATH may lack it.
python=python3
python3 -c "import numpy" 2>/dev/null || python=/usr/bin/python3
launcher=$(printf '%q ' "$mpiexec" "$np_flag" 2 "$@")
measure() {
  local status=0
  "$python" "$repo/tools/sponge-reflection.py" "$app" --launcher "$launcher" --widths 16 --angles 0 \
    --below "$bound" "$@" >"$work/out.txt" 2>"$work/err.txt" || status=$?
  cat "$work/out.txt" "$work/err.txt"
  return "$status"
}
measure --work "$work/sponge" || fail "--sponge 16 reflects more than $bound dB, or the measurement failed"
status=0
measure --work "$work/planted" --plant-sponge-off || status=$?
[ "$status" -eq 1 ] || fail "with the sponge planted off the check exited $status, not 1: it cannot fail"
grep -q "^sponge-reflection: --sponge 16 at 0 degrees reflects .* not below $bound dB (planted" "$work/out.txt" ||
  fail "the planted failure does not say which width reflects"
echo "sponge reflection below $bound dB, and the sponge planted off fails the check"
