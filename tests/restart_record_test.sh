#!/usr/bin/env bash
# The folder's record (stencil-miniapp.run.json) says how the latest run
# over its field ended, whether or not that run wrote a file there, and a
# failed check travels with the field (issue 68's red team; each case
# failed before its fix):
#  - a deleted record: verify-output said complete, and nothing of the
#    --comm none field's provenance;
#  - a restart that writes nothing but fails its --check: the record said
#    the earlier run's "complete", and verify-output exit 0;
#  - a run stopped by SIGUSR1 and resumed without --checkpoint-every ends
#    bit for bit as an uninterrupted run: the record said "stopped";
#  - a failed check (drop-face) is inherited by a restart from a checkpoint
#    written before the verdict: into the same folder (--restart latest,
#    no outputs), into a new folder (--restart DIR --output NEW), and from
#    a --checkpoint-dir elsewhere: each report said check "none";
#  - the record's state is the latest run's: a restart without --check of a
#    failed folder completes with the failed check inherited (verify-output
#    calls it failed); a restart whose own --check passes settles it;
#  - checkpoints kept inside the output folder under another name
#    (--checkpoint-dir OUT/ckpt): verify-output passed a damaged one unread.
# usage: restart_record_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
preflags=("$@")
verify=$(dirname "$0")/../tools/verify-output.py
rm -rf "$work" && mkdir -p "$work"
cd "$work"
fail() { echo "restart_record_test: $*"; exit 1; }
# mini NAME RANKS ARGS...: a run, its console in NAME.txt and status in $rc.
mini() {
  local name=$1 ranks=$2
  shift 2
  rc=0
  "$mpiexec" "$np_flag" "$ranks" "${preflags[@]}" "$app" --quiet "$@" >"$name.txt" 2>&1 || rc=$?
}
# field FILE EXPR: a Python expression over the JSON document d in FILE.
field() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
record() { field "$1/stencil-miniapp.run.json" '(d["state"], d["provenance"]["check"])'; }
# verified FOLDER STATUS TEXT: verify-output's exit status and a line.
verified() {
  local status=0
  python3 "$verify" "$1" >"verify-$1.txt" 2>&1 || status=$?
  { [ "$status" = "$2" ] && grep -q -- "$3" "verify-$1.txt"; } ||
    { cat "verify-$1.txt"; fail "verify-output $1: exit $status, not $2 with '$3'"; }
}

echo "== a restart that writes nothing and fails its check"
# shellcheck disable=SC2054 # the commas are inside the grid size
box=(--grid 24,20,18)
mini none 2 "${box[@]}" --steps 20 --checkpoint-every 10 --comm none --output pn
[ "$rc" = 0 ] || { cat none.txt; fail "the --comm none leg failed"; }
cp -r pn pn-norecord && rm pn-norecord/stencil-miniapp.run.json
verified pn-norecord 3 "not the one-domain answer: --comm none"
echo "ok  a deleted record: incomplete, and the checkpoints still say what made the field"
rm -r pn/checkpoints/step_000020
mini none-check 2 "${box[@]}" --steps 20 --output pn --restart latest --check
[ "$rc" = 1 ] || { cat none-check.txt; fail "the failed check exited $rc"; }
[ "$(record pn)" = "('failed', 'failed')" ] || fail "the record after a failed check: $(record pn)"
verified pn 1 "FAILED .*the run failed its checks after step 20"
echo "ok  the record says failed, verify-output exit 1"

echo "== a stopped run resumed without --checkpoint-every"
"$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" "${box[@]}" --steps 1000000 --checkpoint-every 1000000 --progress 0.1 \
  --output st >stop.txt 2>&1 &
job=$!
for _ in $(seq 600); do grep -q '^progress:' stop.txt && break; sleep 0.05; done
kill -USR1 "$job"
rc=0
wait "$job" || rc=$?
[ "$rc" = 75 ] || { cat stop.txt; fail "the stop exited $rc, not 75"; }
step=$(sed -n 's/^stencil-miniapp: stopped by SIGUSR1 at step \([0-9]*\);.*/\1/p' stop.txt)
mini resumed 2 "${box[@]}" --steps $((step + 20)) --output st --restart latest --checksum
[ "$rc" = 0 ] || { cat resumed.txt; fail "the resume failed"; }
mini whole 1 "${box[@]}" --steps $((step + 20)) --checksum
[ "$(grep '^checksum' resumed.txt)" = "$(grep '^checksum' whole.txt)" ] || fail "the resumed run's field is not the uninterrupted run's"
[ "$(record st)" = "('complete', 'none')" ] || fail "the record of the resumed run: $(record st)"
verified st 0 "st: complete:"
echo "ok  stopped at $step, resumed to $((step + 20)) bit for bit: the record says complete"

echo "== a failed check is inherited from the record of the checkpoint's run"
# shellcheck disable=SC2054 # the commas are inside the grid size
drop=(--grid 24,20,18 --radius 2 --comm peer --periodic x)
mini pf 4 "${drop[@]}" --steps 20 --checkpoint-every 10 --check --inject-fault drop-face --output pf
[ "$rc" = 1 ] || { cat pf.txt; fail "drop-face's check exited $rc"; }
[ "$(field pf/checkpoints/step_000010/checkpoint.json 'd["provenance"]["check"]')" = pending ] ||
  fail "the checkpoint written before the verdict does not say it is pending"
mini pf-new 4 "${drop[@]}" --steps 30 --restart pf/checkpoints/step_000010 --output pf-new --report pf-new.json
[ "$(field pf-new.json 'd["provenance"]["check"]')" = failed ] || fail "a restart into a new folder: check $(field pf-new.json 'd["provenance"]')"
grep -q "^note: continuing from checkpoint pf/checkpoints/step_000010 at step 10; its field failed a check" pf-new.txt ||
  { cat pf-new.txt; fail "the restart does not say its field failed a check"; }
mini pf-latest 4 "${drop[@]}" --steps 30 --restart latest --output pf --report pf-latest.json
[ "$rc" = 0 ] || { cat pf-latest.txt; fail "the restart into the failed folder exited $rc"; }
[ "$(field pf-latest.json 'd["provenance"]["check"]')" = failed ] || fail "--restart latest: check $(field pf-latest.json 'd["provenance"]')"
[ "$(record pf)" = "('complete', 'failed')" ] || fail "the record after a restart that inherits the failure: $(record pf)"
verified pf 1 "FAILED .*stencil-miniapp.run.json: the field continues one that failed a check"
mini ck 4 "${drop[@]}" --steps 20 --checkpoint-every 10 --check --inject-fault drop-face --output ck-out --checkpoint-dir ck
mini ck-new 4 "${drop[@]}" --steps 30 --restart ck/step_000010 --output ck-new --report ck-new.json
[ "$(field ck-new.json 'd["provenance"]["check"]')" = failed ] || fail "from --checkpoint-dir: check $(field ck-new.json 'd["provenance"]')"
echo "ok  inherited: into the same folder, a new one, and from a --checkpoint-dir"

echo "== a restart whose own --check passes settles an inherited failure"
# Two steps in, drop-face has changed nothing yet: the check at step 4 fails,
# the continuation from the checkpoint at step 2 is the one-domain answer.
mini early 4 "${drop[@]}" --steps 4 --checkpoint-every 2 --check --inject-fault drop-face --output early
[ "$rc" = 1 ] || { cat early.txt; fail "drop-face's check at step 4 exited $rc"; }
mini early-check 4 "${drop[@]}" --steps 10 --restart early/checkpoints/step_000002 --output early --check
[ "$rc" = 0 ] || { cat early-check.txt; fail "the checked restart exited $rc"; }
[ "$(record early)" = "('complete', 'passed')" ] || fail "the record after a passing check: $(record early)"
verified early 0 "complete (not the one-domain answer)"
grep -q "up to step 2: the run that wrote checkpoint early/checkpoints/step_000002 failed its checks at step 4" verify-early.txt ||
  { cat verify-early.txt; fail "verify-output does not name the earlier failure"; }
echo "== checkpoints inside the output folder, under another name"
mini inside 2 "${box[@]}" --steps 20 --checkpoint-every 10 --output in --checkpoint-dir in/ckpt
[ "$rc" = 0 ] || { cat inside.txt; fail "the run with --checkpoint-dir in/ckpt failed"; }
verified in 0 "^ok .*in/ckpt/step_000010/p.raw: "
printf 'XXXX' | dd of=in/ckpt/step_000010/p.raw bs=1 seek=100 conv=notrunc 2>/dev/null
verified in 1 "FAILED .*in/ckpt/step_000010/p.raw: CRC-32"
echo "ok  the checkpoints in in/ckpt verified, and a damaged one fails"
echo "restart record ok"
