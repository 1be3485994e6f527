#!/usr/bin/env bash
# A graceful stop: SIGTERM, SIGINT and SIGUSR1, each sent to the ranks (as
# Slurm's --signal does) during a run with snapshots and checkpoints. The
# run ends with exit status 75 and one line naming the signal, the step and
# the checkpoint; the checkpoint verifies; no .partial file and no lock are
# left; and --restart latest continues it to the same final field as an
# uninterrupted run of as many steps (with SIGINT the checkpoints are by
# wall time, --checkpoint-every 1s). A second signal while the stop's
# checkpoint is being written ends the run at once (exit 128 + 15), with
# nothing left but that checkpoint's .partial folder. A signal during the
# warm-up cuts it short rather than waiting for all of it.
# usage: stop_signal_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "stop_signal_test: $*"; exit 1; }
preflags=("$@")
# long NAME OPTIONS...: a run of a million steps on 2 ranks in the background
# ($job), its console in $run.txt and its outputs in $run/out (run is
# $work/NAME); a checkpoint only where a stop writes one.
long() {
  run=$work/$1
  shift
  "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" "$@" --steps 1000000 --checkpoint-every 1000000 \
    --output "$run/out" >"$run.txt" 2>&1 &
  job=$!
}
# shellcheck disable=SC2054 # the commas are inside the grid size
problem=(--grid 48,40,36 --radius 4 --quiet)
for signal in TERM INT USR1; do
  run=$work/$signal
  mkdir -p "$run"
  # SIGINT's run checkpoints by wall time: once a second, agreed with the stop.
  every=100; [ "$signal" = INT ] && every=1s
  "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" "${problem[@]}" --steps 1000000 --checkpoint-every "$every" \
    --snapshot-every 1000 --output "$run/out" --report "$run/report.json" >"$run.txt" 2>&1 &
  job=$!
  # The handlers are in place once the first checkpoint exists.
  first() { compgen -G "$run/out/checkpoints/step_*[0-9]" >/dev/null; }
  for _ in $(seq 600); do first && break; sleep 0.05; done
  first || { kill "$job"; fail "$signal: no first checkpoint"; }
  pkill "-$signal" -f "^$app ${problem[*]} --steps 1000000" || fail "$signal: no rank to signal"
  status=0
  wait "$job" || status=$?
  [ "$status" -eq 75 ] || { cat "$run.txt"; fail "$signal: exit status $status, not 75"; }
  line=$(grep '^stencil-miniapp: ' "$run.txt") || fail "$signal: no line from the program"
  [ "$(grep -c '^stencil-miniapp: ' "$run.txt")" -eq 1 ] || fail "$signal: more than one line"
  [[ $line =~ stopped\ by\ SIG$signal\ at\ step\ ([0-9]+)\;\ checkpoint\ .*/step_0*([0-9]+)\ written\;\ resume\ with\ --restart\ latest ]] ||
    fail "$signal: '$line'"
  step=${BASH_REMATCH[1]}
  [ "${BASH_REMATCH[2]}" = "$step" ] || fail "$signal: the checkpoint is not the stop's step"
  # The report is a finished run's: not written, and the stop line says so.
  [[ $line == *"; no report: $run/report.json is written by a finished run" ]] || fail "$signal: '$line' (no word of the report)"
  [ ! -e "$run/report.json" ] || fail "$signal: a stopped run wrote its report"
  [ -z "$(find "$run" -name '*.partial')" ] || fail "$signal: .partial files left: $(find "$run" -name '*.partial')"
  for lock in "$run/out/stencil-miniapp.lock" "$run/out/checkpoints/stencil-miniapp.lock"; do
    [ ! -e "$lock" ] || fail "$signal: $lock was left"
  done
  # A stopped run is incomplete, not complete: it can be resumed.
  verified=0
  python3 "$(dirname "$0")/../tools/verify-output.py" "$run/out" >"$run-verify.txt" 2>&1 || verified=$?
  { [ "$verified" = 3 ] && grep -q "the run was stopped by a signal after step $step" "$run-verify.txt"; } ||
    { cat "$run-verify.txt"; fail "$signal: verify-output exit $verified, not 3 for a stopped run"; }
  # A new run into the stopped run's folder is refused, writing nothing
  # there, so that the restart below still finds its run's record.
  if [ "$signal" = TERM ]; then
    status=0
    "$mpiexec" "$np_flag" 1 "${preflags[@]}" "$app" "${problem[@]}" --steps 3 --snapshot-every 3 \
      --output "$run/out" >"$run-over.txt" 2>&1 || status=$?
    { [ "$status" = 2 ] && grep -q "holds the record of a run stopped at step $step; continue it with --restart latest" "$run-over.txt"; } ||
      { cat "$run-over.txt"; fail "$signal: a new run took the stopped run's folder (exit $status)"; }
  fi
  total=$((step + 20))
  "$mpiexec" "$np_flag" 3 "${preflags[@]}" "$app" "${problem[@]}" --steps "$total" --checkpoint-dir "$run/out/checkpoints" \
    --restart latest --snapshot-every 1000 --output "$run/out" --checksum >"$run-restart.txt" 2>&1 || { cat "$run-restart.txt"; fail "$signal: the restart failed"; }
  "$mpiexec" "$np_flag" 1 "${preflags[@]}" "$app" "${problem[@]}" --steps "$total" --checksum >"$run-whole.txt" 2>&1
  a=$(grep '^checksum:' "$run-restart.txt") b=$(grep '^checksum:' "$run-whole.txt")
  if [ -z "$a" ] || [ "$a" != "$b" ]; then fail "$signal: restarted $a, uninterrupted $b"; fi
  echo "ok  SIG$signal: stopped at step $step, exit 75, checkpoint written, nothing partial, no lock; continued to $total: $a"
done

# NAME MOST WHEN: the background run $job (its output in $run.txt), signalled
# with SIGUSR1, ends with status 75 and a checkpoint by step MOST (the first
# agreements on a stop come every kStopAgreement = 16 steps, and the stop
# acts at the second after the signal).
stopped_with_a_checkpoint() {
  local name=$1 most=$2 when=$3 status=0 line
  wait "$job" || status=$?
  [ "$status" -eq 75 ] || { cat "$run.txt"; fail "$name: exit status $status, not 75"; }
  line=$(grep '^stencil-miniapp: stopped by SIGUSR1' "$run.txt") || { cat "$run.txt"; fail "$name: no stop line"; }
  { [[ $line =~ at\ step\ ([0-9]+)\;\ checkpoint ]] && [ "${BASH_REMATCH[1]}" -le "$most" ]; } ||
    { cat "$run.txt"; fail "$name: '$line' (expected a stop with a checkpoint by step $most)"; }
  echo "ok  SIGUSR1 $when: $line"
}

echo "== a signal during start-up (a scheduler's warning can come that early)"
# A long warm-up (about 3 s here, undone before step 1) keeps the ranks in
# their start-up while a loaded machine takes its time to find them.
# shellcheck disable=SC2054 # the commas are inside the grid size
slow_start=(--grid 128,128,128 --radius 4 --quiet --warmup 1500)
long early "${slow_start[@]}"
# As soon as a rank catches SIGUSR1 (its handler is the first thing main
# does, before MPI_Init), signal it: while the ranks are still starting.
pattern="^$app ${slow_start[*]} --steps 1000000 --checkpoint-every 1000000"
catching() { # a rank whose caught-signal mask has SIGUSR1 (bit 10)
  local pid mask
  for pid in $(pgrep -f "$pattern"); do
    mask=$(awk '/^SigCgt:/ {print $2}' "/proc/$pid/status" 2>/dev/null) || continue
    [ -n "$mask" ] && (( (16#$mask >> 9) & 1 )) && { echo "$pid"; return 0; }
  done
  return 1
}
for _ in $(seq 2000); do catching >/dev/null && break; sleep 0.005; done
pid=$(catching) || { kill "$job"; fail "early: no rank ever caught SIGUSR1"; }
kill -USR1 "$pid"
stopped_with_a_checkpoint early 48 "while starting up"

echo "== a signal during a long warm-up cuts it short"
# A warm-up of 10^8 steps would take days: the stop must not wait for it.
# shellcheck disable=SC2054 # the commas are inside the grid size
endless=(--grid 32,32,32 --radius 2 --quiet --warmup 100000000)
long warmup "${endless[@]}"
# The run holds its output folder's lock from before the warm-up.
for _ in $(seq 1200); do [ -e "$run/out/stencil-miniapp.lock" ] && break; sleep 0.05; done
[ -e "$run/out/stencil-miniapp.lock" ] || { kill "$job"; cat "$run.txt"; fail "warmup: the run did not start"; }
sleep 1
pkill -USR1 -f "^$app ${endless[*]} --steps 1000000" || fail "warmup: no rank to signal"
for _ in $(seq 1200); do kill -0 "$job" 2>/dev/null || break; sleep 0.05; done
if kill -0 "$job" 2>/dev/null; then
  pkill -KILL -f "^$app ${endless[*]}" || true
  fail "warmup: still warming up a minute after SIGUSR1"
fi
stopped_with_a_checkpoint warmup 32 "during the warm-up"

echo "== a second signal during the stop ends the run at once"
# Large enough that the stop's checkpoint (2 x 128 MiB) takes a while to write.
# shellcheck disable=SC2054 # the commas are inside the grid size
big=(--grid 256,256,256 --precision fp64 --radius 1 --progress 0.1 --warmup 0 --snapshot-every 1000000)
long twice "${big[@]}"
for _ in $(seq 1200); do grep -q '^progress:' "$run.txt" && break; sleep 0.05; done
grep -q '^progress:' "$run.txt" || { kill "$job"; cat "$run.txt"; fail "twice: the run did not start"; }
pkill -TERM -f "^$app ${big[*]} --steps 1000000" || fail "twice: no rank to signal"
writing() { compgen -G "$run/out/checkpoints/step_*.partial" >/dev/null; }
for _ in $(seq 2400); do writing && break; sleep 0.005; done
writing || { kill "$job"; cat "$run.txt"; fail "twice: the stop's checkpoint was never seen being written"; }
pkill -TERM -f "^$app ${big[*]} --steps 1000000" || fail "twice: no rank to signal again"
status=0
wait "$job" || status=$?
[ "$status" -eq 143 ] || { cat "$run.txt"; fail "twice: exit status $status, not 143 (128 + SIGTERM)"; }
[ -z "$(find "$run/out/checkpoints" -mindepth 1 -maxdepth 1 ! -name '*.partial')" ] ||
  fail "twice: a complete checkpoint was left: $(ls "$run/out/checkpoints")"
# The folder's record stays, saying the run never ended (verify-output: interrupted).
[ "$(find "$run/out" -mindepth 1 -maxdepth 1 ! -name checkpoints ! -name stencil-miniapp.run.json)" = "" ] ||
  fail "twice: left besides the .partial checkpoint and the record: $(ls "$run/out")"
grep -q '"state": "running"' "$run/out/stencil-miniapp.run.json" || fail "twice: the record does not say running"
echo "ok  a second SIGTERM while the stop's checkpoint was written: exit 143, only a .partial folder left, no lock"
