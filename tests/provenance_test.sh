#!/usr/bin/env bash
# A field's provenance travels with it (io/provenance.hpp): whether it is
# the one-domain answer, which test aids made it, whether its check failed.
#  - A leg run with --comm none on 4 ranks, continued with every halo
#    exchanged: the checkpoint, the continued checksum line, the JSON
#    report, the folder's record and tools/verify-output.py all say the
#    field is not the one-domain answer (it once was called so, exit 0).
#  - A leg with --inject-fault drop-face, continued without: the test aid is
#    named in the checkpoint, the later snapshot sidecars and the report.
#  - A run whose --check fails (issue 68's case): exit 1, the record says
#    failed, verify-output calls the folder failed (exit 1), and the JSON
#    never says bitwise_equal false beside checksum_is_one_domain_answer true.
#  - One rank, --comm none, periodic: --check runs there, and drop-face's
#    changed field is not called the one-domain answer.
#  - --quiet keeps the "faults planted" line, and marks the FOM line.
# usage: provenance_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
preflags=("$@")
verify=$(dirname "$0")/../tools/verify-output.py
rm -rf "$work" && mkdir -p "$work"
fail() { echo "provenance_test: $*"; exit 1; }
# mini NAME RANKS ARGS...: a run, its console in NAME.txt and status in $rc.
mini() {
  local name=$1 ranks=$2
  shift 2
  rc=0
  "$mpiexec" "$np_flag" "$ranks" "${preflags[@]}" "$app" --quiet --checksum "$@" >"$work/$name.txt" 2>&1 || rc=$?
}
# field FILE EXPR: a Python expression over the JSON document d in FILE.
field() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
checksum() { grep '^checksum:' "$work/$1.txt" || true; }

echo "== a --comm none leg, continued with --comm peer"
# shellcheck disable=SC2054 # the commas are inside the grid size
box=(--grid 32,32,32 --checkpoint-every 10)
mini none 4 "${box[@]}" --steps 20 --comm none --output "$work/none"
[ "$rc" = 0 ] || { cat "$work/none.txt"; fail "the --comm none leg failed"; }
[ "$(field "$work/none/checkpoints/step_000020/checkpoint.json" 'd["provenance"]["one_domain_answer"]')" = False ] ||
  fail "the --comm none checkpoint does not say its field is not the one-domain answer"
mini continued 4 "${box[@]}" --steps 40 --comm peer --restart latest --output "$work/none" --report "$work/continued.json"
[ "$rc" = 0 ] || { cat "$work/continued.txt"; fail "the continued run failed"; }
mini whole 4 "${box[@]}" --steps 40 --comm peer --output "$work/whole"
[[ $(checksum continued) == *"(up to step 20: --comm none: no message moved between ranks, so not the one-domain answer)" ]] ||
  fail "the continued checksum line claims the one-domain answer: $(checksum continued)"
[ "$(field "$work/continued.json" 'd["checksum_is_one_domain_answer"]')" = False ] ||
  fail "the continued JSON report says checksum_is_one_domain_answer true"
[ "$(field "$work/none/stencil-miniapp.run.json" 'd["provenance"]["one_domain_answer"]')" = False ] ||
  fail "the continued folder's record calls its field the one-domain answer"
status=0
python3 "$verify" "$work/none" >"$work/verify-none.txt" || status=$?
{ [ "$status" = 0 ] && grep -q "complete (not the one-domain answer)" "$work/verify-none.txt"; } ||
  { cat "$work/verify-none.txt"; fail "verify-output (exit $status) does not say the field is not the one-domain answer"; }
[ "$(field "$work/whole/stencil-miniapp.run.json" 'd["provenance"]["one_domain_answer"]')" = True ] ||
  fail "an uninterrupted run's record does not call its field the one-domain answer"
echo "ok  continued from --comm none: $(checksum continued), marked in the line, JSON, record and verify-output"

echo "== a drop-face leg, continued without it"
# shellcheck disable=SC2054 # the commas are inside the grid size
leg=(--grid 24,20,18 --radius 2 --comm peer --periodic x --snapshot-every 5 --checkpoint-every 10 --output "$work/drop")
mini drop 4 "${leg[@]}" --steps 10 --inject-fault drop-face
[ "$rc" = 0 ] || { cat "$work/drop.txt"; fail "the drop-face leg failed"; }
mini clean 4 "${leg[@]}" --steps 20 --restart latest --report "$work/clean.json"
[ "$rc" = 0 ] || { cat "$work/clean.txt"; fail "the run continued from the drop-face leg failed"; }
for file in "$work/drop/checkpoints/step_000010/checkpoint.json" "$work/drop/snapshot_000015.json" "$work/clean.json" \
  "$work/drop/stencil-miniapp.run.json"; do
  [ "$(field "$file" 'd["provenance"]["test_aids"]')" = "['--inject-fault drop-face']" ] ||
    fail "${file##*/} does not name the test aid that made its field"
  [ "$(field "$file" 'd["provenance"]["one_domain_answer"]')" = False ] ||
    fail "${file##*/} calls a field drop-face made the one-domain answer"
done
[[ $(checksum clean) == *"[test aids: --inject-fault drop-face]" ]] || fail "the continued checksum line names no aid: $(checksum clean)"
echo "ok  drop-face named in the checkpoint, a later sidecar, the record and the continued run's report"

echo "== a failed --check"
# shellcheck disable=SC2054 # the commas are inside the grid size
mini failed 4 --grid 24,20,18 --radius 2 --steps 20 --comm peer --periodic x --check --inject-fault drop-face \
  --snapshot-every 5 --output "$work/failed" --report "$work/failed.json"
[ "$rc" = 1 ] || { cat "$work/failed.txt"; fail "the failed check exited $rc, not 1"; }
[ "$(field "$work/failed.json" '(d["check"]["bitwise_equal"], d["checksum_is_one_domain_answer"], d["provenance"]["check"])')" = "(False, False, 'failed')" ] ||
  fail "the JSON report of the failed check: $(field "$work/failed.json" '(d["check"], d["checksum_is_one_domain_answer"])')"
[ "$(field "$work/failed/stencil-miniapp.run.json" '(d["state"], d["provenance"]["check"])')" = "('failed', 'failed')" ] ||
  fail "the record of the failed check: $(field "$work/failed/stencil-miniapp.run.json" 'd["state"]')"
status=0
python3 "$verify" "$work/failed" >"$work/verify-failed.txt" || status=$?
{ [ "$status" = 1 ] && grep -q "FAILED .*the run failed its checks after step 20" "$work/verify-failed.txt"; } ||
  { cat "$work/verify-failed.txt"; fail "verify-output exited $status on a failed check's folder, not 1"; }
[ "$(field "$work/failed/snapshot_000005.json" 'd["provenance"]["check"]')" = pending ] ||
  fail "a snapshot written before the check does not say the check is still to come"
echo "ok  a failed check: exit 1, its record and JSON say failed, verify-output exit 1"

echo "== one rank, --comm none, periodic: drop-face is checked and not called the answer"
# shellcheck disable=SC2054 # the commas are inside the grid size
alone=(--grid 24,24,24 --steps 12 --comm none --periodic x,y,z)
mini alone 1 "${alone[@]}" --check
[ "$rc" = 0 ] || { cat "$work/alone.txt"; fail "--check with --comm none on one rank did not pass"; }
mini alone-drop 1 "${alone[@]}" --check --inject-fault drop-face
[ "$rc" = 1 ] || { cat "$work/alone-drop.txt"; fail "drop-face on one rank with --comm none: the check exited $rc"; }
[[ $(checksum alone-drop) == *"drop-face planted a bug in the field"*"so not the one-domain answer"* ]] ||
  fail "one rank's drop-face checksum claims the one-domain answer: $(checksum alone-drop)"
echo "ok  one rank, --comm none: --check runs, and catches drop-face"

echo "== --quiet keeps the faults-planted line, and marks the FOM line"
grep -q "^  NOTE: faults planted (--inject-fault drop-face): not a measurement" "$work/alone-drop.txt" ||
  fail "--quiet dropped the faults-planted line"
grep -q "^FOM: .* \[faults planted: --inject-fault drop-face; not a measurement\]$" "$work/alone-drop.txt" ||
  fail "the FOM line carries no mark: $(grep '^FOM' "$work/alone-drop.txt")"
echo "ok  --quiet: NOTE line kept, FOM marked"

echo "== a test aid a restart has passed is refused"
mini passed 2 --grid 24,24,24 --steps 20 --checkpoint-every 10 --output "$work/passed"
mini passed-nan 2 --grid 24,24,24 --steps 30 --checkpoint-every 10 --output "$work/passed" --restart latest \
  --inject-fault nan
{ [ "$rc" = 2 ] && grep -q "^stencil-miniapp: --inject-fault nan strikes after step 3, and the run continues from step 20" \
  "$work/passed-nan.txt"; } || { cat "$work/passed-nan.txt"; fail "a NaN the restart passes was not refused (exit $rc)"; }
echo "== a record whose provenance was changed by hand is no record of this program's"
python3 - "$work/whole/stencil-miniapp.run.json" <<'PY'
import json, sys
record = json.load(open(sys.argv[1]))
record["provenance"] = "trust me"
json.dump(record, open(sys.argv[1], "w"))
PY
status=0
python3 "$verify" "$work/whole" >"$work/verify-edited.txt" || status=$?
[ "$status" = 1 ] || { cat "$work/verify-edited.txt"; fail "verify-output exited $status on an edited provenance, not 1"; }
mini edited 2 --grid 32,32,32 --steps 50 --checkpoint-every 10 --restart latest --output "$work/whole"
{ [ "$rc" = 2 ] && grep -q "its provenance is not this program's" "$work/edited.txt"; } ||
  { cat "$work/edited.txt"; fail "a restart took a record with an edited provenance (exit $rc)"; }
echo "ok  an edited provenance: verify-output exit 1, the restart refused"
echo "provenance ok"
