#!/usr/bin/env bash
# --overlap auto|on|off: the report says which schedule ran and why, in the
# text ("overlap on (REASON)", and on the FOM line) and in the JSON
# ("overlap": true/false, "overlap_reason"), for an explicit choice, for
# auto with an exchange (on the HOST back-end on, untimed; on a GPU timed)
# and for auto with nothing to hide (--comm none, a rank alone). The fused
# pack (--pack: JSON "fused_pack" and "pack_reason", and the text's "halo
# pack" line) runs with overlap on at depth 1 with a GPU-aware exchange,
# never with overlap off, at depth 2 or with --pack separate. The share of
# the exchange hidden is reported only where the exchange was overlapped;
# the x slabs' width (--slab-x) only where they run.
# usage: overlap_reported_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
preflags=("$@")
rm -rf "$work" && mkdir -p "$work"
fail() { echo "overlap_reported_test: $*"; exit 1; }
declare -A fused_of # per check: whether the fused pack ran
# check NAME RANKS WANT REASON ARGS...: a run with ARGS reports overlap WANT
# (a regex: on, off or (on|off)) for REASON (a regex over the whole reason).
check() {
  local name=$1 ranks=$2 want=$3 reason=$4
  shift 4
  # Two ranks split along x, whose faces the slabs store (z faces go in place).
  local split=()
  # shellcheck disable=SC2054 # the commas are inside the process grid
  [ "$ranks" = 2 ] && split=(--procs 2,1,1)
  "$mpiexec" "$np_flag" "$ranks" "${preflags[@]}" "$app" --grid 24,20,28 --steps 3 --warmup 1 "${split[@]}" \
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
  local fused=false pack
  if [ "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["halo_faces_rank0"])' \
         "$work/$name.json")" = 0 ]; then # nothing to pack
    grep -qE "^  halo pack none \((--comm none exchanges nothing|rank 0 has no halo face)\)$" "$work/$name.txt" ||
      { cat "$work/$name.txt"; fail "$name: no line 'halo pack none (REASON)' without halo faces"; }
    echo "$name: $line; no halo faces"
    return
  fi
  pack=$(grep -E "^  halo pack (fused|separate) \(.+\)$" "$work/$name.txt") ||
    { cat "$work/$name.txt"; fail "$name: no line 'halo pack fused|separate (REASON)'"; }
  [[ $pack == "  halo pack fused "* ]] && fused=true
  python3 - "$work/$name.json" "$fused" "${pack#*(}" <<'PY' || fail "$name: the JSON's pack is not the text's"
import json, sys
path, fused, reason = sys.argv[1:]
doc = json.load(open(path))
if (doc["fused_pack"], doc["pack_reason"]) != (fused == "true", reason[:-1]):
    sys.exit("%s says %r, the text %r" % (path, (doc["fused_pack"], doc["pack_reason"]), (fused, reason)))
PY
  echo "$name: $line; halo pack ${pack#  halo pack }"
  fused_of[$name]=$fused
}
host="kept on, untimed: the HOST back-end runs the phases in order"
timed="[0-9.e+-]+ ms off, [0-9.e+-]+ ms on per step"
spread="(; [0-9.]+% apart, within the trials' spread of [0-9.]+%: on kept)?" # a GPU's trials
check on 2 on "--overlap on" --overlap on
check off 2 off "--overlap off" --overlap off
check auto 2 "(on|off)" "auto: ($host|$timed$spread)" --overlap auto
check default 2 "(on|off)" "auto: ($host|$timed$spread)"
check auto_depth2 2 "(on|off)" "auto: ($host|$timed at k=2$spread)" --halo-depth 2
check comm_none 2 on "auto: kept on, untimed: --comm none exchanges nothing to hide" --overlap auto --comm none
check alone 1 on "auto: kept on, untimed: no rank has a neighbour, nothing to hide" --overlap auto --comm staged
check separate 2 "(on|off)" "auto: ($host|$timed$spread)" --pack separate
check fused_depth2 2 on "--overlap on" --overlap on --pack fused --halo-depth 2
want=true/false/false/false/false
got=${fused_of[on]}/${fused_of[off]}/${fused_of[auto_depth2]}/${fused_of[separate]}/${fused_of[fused_depth2]}
[ "$got" = "$want" ] || fail "fused pack on/off/depth 2/--pack separate/--pack fused at depth 2: $got, not $want"
grep -q "^  halo pack separate (--pack separate)$" "$work/separate.txt" || fail "separate: not '--pack separate'"
grep -q "^  halo pack separate (the fused pack needs overlap on, halo depth 1" "$work/fused_depth2.txt" ||
  fail "fused_depth2: no reason why the fused pack did not run"
# Split along z alone, every face goes whole and in place: nothing packed,
# and not reported as the fused pack.
"$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" --grid 24,20,28 --steps 3 --warmup 1 --procs 1,1,2 \
  --overlap on --report "$work/z.json" >"$work/z.txt" 2>&1 || { cat "$work/z.txt"; fail "z: the run failed"; }
grep -q "^  halo pack none (rank 0's faces are z faces, sent whole and in place)$" "$work/z.txt" ||
  { cat "$work/z.txt"; fail "z: not 'halo pack none' for faces in place"; }
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(d["fused_pack"] or d["halo_pack"] != "none")' \
  "$work/z.json" || fail "z: the JSON says fused_pack or another halo_pack"
# The share of the exchange hidden is a number only where the exchange runs
# beside the interior; elsewhere the text says why and the JSON holds null.
hidden() { # NAME WHY: the run NAME reports no share hidden, because WHY
  grep -q "^  exchange [0-9.]* ms per step, none overlapped ($2)$" "$work/$1.txt" ||
    { cat "$work/$1.txt"; fail "$1: no 'none overlapped ($2)'"; }
  python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["exchange_hidden_fraction"] is not None)' \
    "$work/$1.json" || fail "$1: exchange_hidden_fraction is not null"
}
hidden off "overlap off"
hidden comm_none "--comm none"
hidden alone "nothing exchanged"
if grep -q "HOST back-end" "$work/on.txt"; then
  hidden on "the HOST back-end runs the phases in order"
else # a GPU: overlap on hides a share of the exchange, the JSON's number
  grep -qE "^  exchange [0-9.]+ ms per step, [0-9]+% hidden behind the interior kernel$" "$work/on.txt" ||
    fail "on: no share hidden"
fi
echo "the share hidden: a number only beside an overlapped exchange"
# The x boundary slabs' width: in the text and the JSON ("slab_x") where
# slabs run beside an x neighbour; null with overlap off or without one,
# and --slab-x with overlap off warns that it does nothing.
slab_x() { # NAME WANT: the JSON's slab_x (a number or None)
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["slab_x"])' "$work/$1.json"
}
if ! grep -q "^  x boundary slabs: 4 cells (auto: the halo's depth)$" "$work/on.txt" || [ "$(slab_x on)" != 4 ]; then
  cat "$work/on.txt"; fail "on: the x slabs are not reported 4 cells wide"
fi
if [ "$(slab_x off)" != None ] || [ "$(slab_x z)" != None ] || grep -q "x boundary slabs" "$work/off.txt" "$work/z.txt"
then
  fail "off, z: x slabs reported where none ran"
fi
"$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" --grid 24,20,28 --steps 3 --warmup 1 --procs 2,1,1 \
  --overlap on --slab-x 6 --report "$work/wide.json" >"$work/wide.txt" 2>&1 || fail "wide: the run failed"
if ! grep -q "^  x boundary slabs: 6 cells (--slab-x)$" "$work/wide.txt" || [ "$(slab_x wide)" != 6 ]; then
  cat "$work/wide.txt"; fail "wide: --slab-x 6 not reported"
fi
# As they ran: capped at the 12-cell box, raised to a halo 2R deep.
for spec in "capped|--slab-x 1000|12 cells (--slab-x 1000, capped: the slabs fill the box)" \
            "raised|--slab-x 4 --halo-depth 2|8 cells (--slab-x 4, raised to the halo's depth)"; do
  IFS='|' read -r name args want <<<"$spec"
  # shellcheck disable=SC2086 # args are words
  "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" --grid 24,20,28 --steps 3 --warmup 1 --procs 2,1,1 \
    --overlap on $args --report "$work/$name.json" >"$work/$name.txt" 2>&1 || fail "$name: the run failed"
  if ! grep -qF "  x boundary slabs: $want" "$work/$name.txt" || [ "$(slab_x "$name")" != "${want%% *}" ]; then
    cat "$work/$name.txt"; fail "$name: not 'x boundary slabs: $want'"
  fi
done
"$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" --grid 24,20,28 --steps 3 --warmup 1 --procs 2,1,1 \
  --overlap off --slab-x 6 >"$work/wide_off.txt" 2>&1 || fail "wide_off: the run failed"
grep -q "warning: --slab-x 6 does nothing with --overlap off" "$work/wide_off.txt" ||
  { cat "$work/wide_off.txt"; fail "wide_off: no warning that --slab-x does nothing"; }
echo "the x slabs' width: reported where they run"
echo "overlap reported as it ran"
