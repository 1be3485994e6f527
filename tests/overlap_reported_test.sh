#!/usr/bin/env bash
# --overlap auto|on|off: the report says which schedule ran and why, in the
# text ("overlap on (REASON)", and on the FOM line) and in the JSON
# ("overlap": true/false, "overlap_reason"), for an explicit choice, for
# auto with an exchange (on the HOST back-end on, untimed; on a GPU timed)
# and for auto with nothing to hide (--comm none, a rank alone). The fused
# pack (JSON "fused_pack", and its text line) is reported where it runs:
# overlap on at depth 1 with a GPU-aware exchange, never with overlap off.
# usage: overlap_reported_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
preflags=("$@")
rm -rf "$work" && mkdir -p "$work"
fail() { echo "overlap_reported_test: $*"; exit 1; }
# check NAME RANKS WANT REASON ARGS...: a run with ARGS reports overlap WANT
# (a regex: on, off or (on|off)) for REASON (a regex over the whole reason).
check() {
  local name=$1 ranks=$2 want=$3 reason=$4
  shift 4
  "$mpiexec" "$np_flag" "$ranks" "${preflags[@]}" "$app" --grid 24,20,28 --steps 3 --warmup 1 \
    --report "$work/$name.json" "$@" >"$work/$name.txt" 2>&1 ||
    { cat "$work/$name.txt"; fail "$name: the run failed"; }
  local line
  line=$(grep -E "^  overlap $want \($reason\)$" "$work/$name.txt") ||
    { cat "$work/$name.txt"; fail "$name: no line 'overlap $want ($reason)'"; }
  local ran=${line#  overlap } && ran=${ran%% *}
  grep -q "^FOM: .*, overlap $ran, " "$work/$name.txt" || fail "$name: the FOM line does not say overlap $ran"
  python3 - "$work/$name.json" "$ran" "${line#*(}" <<'PY' || fail "$name: the JSON report disagrees with the text"
import json, sys
path, ran, reason = sys.argv[1:]
doc = json.load(open(path))
got, want = (doc.get("overlap"), doc.get("overlap_reason")), (ran == "on", reason[:-1])
if got != want:
    sys.exit("%s says %r, the text %r" % (path, got, want))
PY
  local fused=false
  grep -q "^  fused pack: " "$work/$name.txt" && fused=true
  python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["fused_pack"] != (sys.argv[2] == "true"))' \
    "$work/$name.json" "$fused" || fail "$name: the JSON's fused_pack is not the text's $fused"
  echo "$name: $line; fused pack $fused"
  eval "fused_$name=$fused"
}
host="the HOST back-end runs the phases in order"
timed="[0-9.e+-]+ ms off, [0-9.e+-]+ ms on per step"
check on 2 on "--overlap on" --overlap on
check off 2 off "--overlap off" --overlap off
check auto 2 "(on|off)" "auto: ($host|$timed)" --overlap auto
check default 2 "(on|off)" "auto: ($host|$timed)"
check auto_depth2 2 "(on|off)" "auto: ($host|$timed at k=2)" --halo-depth 2
check comm_none 2 on "auto: --comm none exchanges nothing to hide" --overlap auto --comm none
check alone 1 on "auto: no rank has a neighbour, nothing to hide" --overlap auto --comm staged
# shellcheck disable=SC2154 # set by check's eval
if [ "$fused_on/$fused_off/$fused_auto_depth2" != true/false/false ]; then
  fail "fused pack on/off/depth 2: $fused_on/$fused_off/$fused_auto_depth2, not true/false/false"
fi
echo "overlap reported as it ran"
