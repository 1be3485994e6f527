#!/usr/bin/env bash
# Signals to the launcher, not to the ranks (tests/stop_signal_test.sh
# signals the ranks, as Slurm does).
#  1. SIGTERM to Open MPI's mpirun with OMPI_MCA_odls_base_sigkill_timeout
#     set: mpirun passes the SIGTERM on only after that many seconds and
#     kills the ranks as long again later (the default, 1 s, cuts a 2 x 128
#     MiB checkpoint and leaves the lock). With it the checkpoint completes,
#     no lock or .partial stays, and --restart latest gives an uninterrupted
#     run's checksum. mpirun's own status is 1 whatever the ranks did (75
#     under a launcher that passes the signal on, such as MPICH's mpiexec).
#  2. SIGTERM, a double SIGINT, SIGUSR1 and SIGHUP to jobscripts/local/run.sh,
#     and its terminal closed (SIGHUP from the kernel, then every write to
#     the terminal failing): exit 75 once mpirun has, nothing of the run
#     left running, the checkpoint complete, no lock, the restart's checksum
#     an uninterrupted run's.
#  3. run.sh stopped by SIGINT prints the command that continues the run,
#     and that command, typed as printed, finishes it into the same RESULTS
#     (before, the mini-app's "resume with --restart latest" was all there
#     was, and run.sh refused the folder or started a new one without the
#     checkpoint); the folder, without --restart, is refused saying how to
#     continue. run.sh is started with a relative RESULTS, APP and path to
#     itself, and the line is typed in another folder (before, it kept
#     RESULTS relative, and continued nothing there).
# usage: mpirun_signal_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
fail() { echo "mpirun_signal_test: $*"; exit 1; }
open_mpi=false
"$mpiexec" --version 2>&1 | grep -Eq "Open MPI|OpenRTE" && open_mpi=true

# The stopped run in $1 left one complete checkpoint, nothing partial, no
# lock; continued 4 steps past it on 3 ranks it ends as an uninterrupted run.
check_stopped() {
  local name=$1 out=$1/out; shift
  local ck step a b
  ck=$(find "$out/checkpoints" -mindepth 1 -maxdepth 1) || fail "$name: no checkpoint folder"
  { [ "$(echo "$ck" | wc -l)" -eq 1 ] && [[ $ck =~ step_0*([0-9]+)$ ]]; } || fail "$name: not one complete checkpoint: $ck"
  step=${BASH_REMATCH[1]}
  [ -z "$(find "$out" -name '*.partial')" ] || fail "$name: .partial left: $(find "$out" -name '*.partial')"
  [ ! -e "$out/stencil-miniapp.lock" ] || fail "$name: the lock was left"
  "$mpiexec" "$np_flag" 3 "${preflags[@]}" "$app" "$@" --steps $((step + 4)) --restart latest \
    --output "$out" --checksum >"$name-restart.txt" 2>&1 || { cat "$name-restart.txt"; fail "$name: the restart failed"; }
  grep -q "continuing from checkpoint .*step_0*$step at step $step" "$name-restart.txt" ||
    { cat "$name-restart.txt"; fail "$name: the restart did not continue from step $step"; }
  "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" "$@" --steps $((step + 4)) --checksum >"$name-whole.txt" 2>&1
  a=$(grep '^checksum:' "$name-restart.txt") b=$(grep '^checksum:' "$name-whole.txt")
  if [ -z "$a" ] || [ "$a" != "$b" ]; then fail "$name: restarted $a, uninterrupted $b"; fi
  echo "ok  $name: checkpoint at step $step complete, nothing partial, no lock; continued: $a"
}
preflags=("$@")
# The processes of the run in $1 still there: mpirun runs in a session of
# its own, out of reach of this test's, and its command line and the ranks'
# name the run's output folder. Killed, and the test failed, if any are.
left_behind() {
  local pids
  pids=$(pgrep -f -- "--output $1/out") || return 0
  # shellcheck disable=SC2086 # a list of process ids
  kill -KILL $pids 2>/dev/null || true
  fail "run.sh exited and left its run running (pids ${pids//$'\n'/ })"
}
started() { for _ in $(seq 1200); do grep -q '^progress:' "$1" && return 0; sleep 0.05; done; cat "$1"; fail "$1: the run did not start"; }

if $open_mpi; then
  echo "== SIGTERM to mpirun, with OMPI_MCA_odls_base_sigkill_timeout=20"
  # shellcheck disable=SC2054 # the commas are inside the grid size
  big=(--grid 256,256,256 --precision fp64 --radius 1 --warmup 0)
  run=$work/mpirun
  OMPI_MCA_odls_base_sigkill_timeout=20 "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" "${big[@]}" --progress 0.1 \
    --steps 1000000 --checkpoint-every 1000000 --output "$run/out" >"$run.txt" 2>&1 &
  job=$!
  started "$run.txt"
  kill -TERM "$job"
  status=0
  wait "$job" || status=$?
  grep -q '^stencil-miniapp: stopped by SIGTERM at step' "$run.txt" || { cat "$run.txt"; fail "mpirun: the ranks did not stop"; }
  [ "$status" -eq 1 ] || fail "mpirun: status $status (Open MPI 4's mpirun exits 1 after a SIGTERM)"
  check_stopped "$run" "${big[@]}" --quiet
fi

# shellcheck disable=SC2054 # the commas are inside the grid size
problem=(--grid 48,40,36 --radius 4)
for signals in TERM INT,INT USR1 HUP; do
  echo "== SIG${signals//,/ and SIG} to jobscripts/local/run.sh"
  run=$work/script-${signals//,/-} # (a background job starts with SIGINT ignored: undo that)
  APP=$app RANKS=2 RESULTS=$run/results MPIRUN=$mpiexec MPIRUN_FLAGS="${preflags[*]}" OMPI_MCA_odls_base_sigkill_timeout=2 \
    env --default-signal=INT bash "$here/../jobscripts/local/run.sh" "${problem[@]}" --progress 0.1 --steps 1000000 --checkpoint-every 1000000 \
    --output "$run/out" >"$run.txt" 2>&1 &
  job=$!
  started "$run.txt"
  IFS=, read -ra list <<<"$signals"
  for s in "${list[@]}"; do kill "-$s" "$job"; sleep 0.2; done
  status=0
  wait "$job" || status=$?
  left_behind "$run"
  [ "$status" -eq 75 ] || { cat "$run.txt"; fail "run.sh: status $status, not 75"; }
  check_stopped "$run" "${problem[@]}" --quiet
done

echo "== the terminal of jobscripts/local/run.sh closed"
# run.sh in a session of its own on a pseudo-terminal, which is closed once
# the run reports progress: the kernel sends it SIGHUP, and from then on
# every write to the terminal fails, its messages and mpirun's alike.
run=$work/script-hangup
status=$(APP=$app RANKS=2 RESULTS=$run/results MPIRUN=$mpiexec MPIRUN_FLAGS="${preflags[*]}" \
  OMPI_MCA_odls_base_sigkill_timeout=2 python3 - "$run.txt" bash "$here/../jobscripts/local/run.sh" "${problem[@]}" \
  --progress 0.1 --steps 1000000 --checkpoint-every 1000000 --output "$run/out" <<'PY'
import os, pty, select, signal, sys, time
log, command = sys.argv[1], sys.argv[2:]
pid, terminal = pty.fork()
if pid == 0:  # the signals Python ignores are not ignored in a shell on a terminal
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    os.execvp(command[0], command)
seen, deadline = b"", time.time() + 60
while b"progress:" not in seen and time.time() < deadline:
    if select.select([terminal], [], [], 1)[0]:
        try:
            seen += os.read(terminal, 65536)
        except OSError:
            break
with open(log, "wb") as f:
    f.write(seen)
os.close(terminal)  # the only end of it this side: the terminal hangs up
status = os.waitpid(pid, 0)[1]  # as the shell gives it: 128 + N for a death by signal N
print(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
PY
)
grep -q '^progress:' "$run.txt" || { cat "$run.txt"; fail "hangup: the run did not start"; }
left_behind "$run"
[ "$status" -eq 75 ] || fail "hangup: run.sh's status $status, not 75"
check_stopped "$run" "${problem[@]}" --quiet

echo "== a stopped run.sh continued by the command it prints"
run=$work/script-continue
relative_app=$(realpath --relative-to="$work" "$app")
relative_script=$(realpath --relative-to="$work" "$here/../jobscripts/local/run.sh")
(cd "$work" && APP=$relative_app RANKS=2 RESULTS=script-continue/results MPIRUN=$mpiexec MPIRUN_FLAGS="${preflags[*]}" \
  OMPI_MCA_odls_base_sigkill_timeout=2 exec env --default-signal=INT bash "$relative_script" "${problem[@]}" \
  --progress 0.1 --steps 20000 --checkpoint-every 1000000) >"$run.txt" 2>&1 &
job=$!
started "$run.txt"
kill -INT "$job"
status=0
wait "$job" || status=$?
[ "$status" -eq 75 ] || { cat "$run.txt"; fail "continue: run.sh's status $status, not 75"; }
again=$(sed -n 's/^run.sh: to continue it: //p' "$run.txt")
[ -n "$again" ] || { cat "$run.txt"; fail "continue: run.sh did not say how to continue the run"; }
status=0
APP=$app RANKS=2 RESULTS=$run/results MPIRUN=$mpiexec bash "$here/../jobscripts/local/run.sh" "${problem[@]}" \
  --steps 20000 >"$run-refused.txt" 2>&1 || status=$?
{ [ "$status" -eq 2 ] && grep -q "or continue the run that stopped there: the same command with --restart latest" \
  "$run-refused.txt"; } || { cat "$run-refused.txt"; fail "continue: the stopped run's folder, status $status"; }
# As typed by hand in another folder: only the settings the line names,
# none of this test's.
mkdir -p "$work/elsewhere"
(cd "$work/elsewhere" && env -u APP -u RANKS -u RESULTS -u MPIRUN -u MPIRUN_FLAGS OMPI_MCA_odls_base_sigkill_timeout=2 \
  bash -c "$again") >"$run-again.txt" 2>&1 || { cat "$run-again.txt"; fail "continue: '$again' failed"; }
grep -q "continuing from checkpoint" "$run-again.txt" || { cat "$run-again.txt"; fail "continue: not from the checkpoint"; }
{ [ -f "$run/results/report.json" ] && grep -Eq '"state": *"complete"' "$run/results/output/stencil-miniapp.run.json"; } ||
  fail "continue: '$again' left no report, or a record that is not complete"
echo "ok  continued by: $again"
