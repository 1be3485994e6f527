#!/usr/bin/env bash
# A run stopped by a signal without checkpoints (--checkpoint-every 0)
# cannot be resumed, and everything that speaks of it says so alike: its
# own line, tools/verify-output.py (incomplete, exit 3) and the refusal of
# the next run into its folder. None of them advises --restart latest,
# which would fail (they once did).
# usage: stop_advice_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
preflags=("$@")
rm -rf "$work" && mkdir -p "$work"
fail() { echo "stop_advice_test: $*"; exit 1; }
# shellcheck disable=SC2054 # the commas are inside the grid size
problem=(--grid 32,32,32 --quiet --snapshot-every 5 --output "$work/out")
"$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" "${problem[@]}" --steps 1000000 >"$work/run.txt" 2>&1 &
job=$!
for _ in $(seq 600); do [ -e "$work/out/snapshot_000005.json" ] && break; sleep 0.05; done
[ -e "$work/out/snapshot_000005.json" ] || { kill "$job"; fail "no first snapshot"; }
# SIGUSR1 to the launcher, which passes it to the ranks (docs/RUNNING.md).
kill -USR1 "$job"
status=0
wait "$job" || status=$?
[ "$status" = 75 ] || { cat "$work/run.txt"; fail "exit status $status, not 75"; }
grep -q "^stencil-miniapp: stopped by SIGUSR1 at step [0-9]*; no checkpoint (--checkpoint-every is 0), so it cannot be resumed" \
  "$work/run.txt" || { cat "$work/run.txt"; fail "the run's own line"; }
status=0
python3 "$(dirname "$0")/../tools/verify-output.py" "$work/out" >"$work/verify.txt" 2>&1 || status=$?
{ [ "$status" = 3 ] && grep -q "without a checkpoint (--checkpoint-every was 0), so it cannot be resumed" "$work/verify.txt"; } ||
  { cat "$work/verify.txt"; fail "verify-output (exit $status) does not say it cannot be resumed"; }
status=0
"$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" "${problem[@]}" --steps 10 >"$work/next.txt" 2>&1 || status=$?
{ [ "$status" = 2 ] && grep -q "the outputs of a run stopped at step [0-9]* without a checkpoint (--checkpoint-every was 0), which cannot be resumed" "$work/next.txt"; } ||
  { cat "$work/next.txt"; fail "the next run's refusal (exit $status)"; }
if grep -q -- "--restart latest" "$work/run.txt" "$work/verify.txt" "$work/next.txt"; then
  fail "advice to --restart latest for a run that cannot be resumed"
fi
echo "stop advice ok: the line, verify-output and the next run agree it cannot be resumed"
