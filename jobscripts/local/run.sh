#!/usr/bin/env bash
# The mini-app on one multi-GPU node with mpirun: one rank per GPU, a JSON
# report and the binding per run, in a results folder named after the run.
#
# usage: jobscripts/local/run.sh [mini-app options]
# env:   APP (default build/miniapp/stencil-miniapp), RANKS (default: GPUs seen
#        by nvidia-smi or rocm-smi, else 4), RESULTS (default results/local-DATE-PID,
#        one folder per run even for runs started in the same second), MPIRUN
#        (default mpirun), MPIRUN_FLAGS. Without --output among the options,
#        the run's outputs and checkpoints go to RESULTS/output; without
#        --report, its report to RESULTS/report.json. A RESULTS that holds
#        files already (another run's, a study's) is refused: nothing in it
#        is overwritten.
set -euo pipefail
APP=${APP:-$(dirname "$0")/../../build/miniapp/stencil-miniapp}
# --help: this header, then the mini-app's own options; nothing runs.
for arg in "$@"; do
  if [ "$arg" = --help ] || [ "$arg" = -h ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    echo
    if [ -x "$APP" ]; then "$APP" --help; else echo "(build the mini-app for its options: README)"; fi
    exit 0
  fi
done
if [ -z "${RANKS:-}" ]; then
  RANKS=$(nvidia-smi -L 2>/dev/null | grep -c GPU || true)
  [ "$RANKS" -gt 0 ] || RANKS=$(rocm-smi --showid 2>/dev/null | grep -c "GPU\[" || true)
  [ "$RANKS" -gt 0 ] || RANKS=4
fi
[[ $RANKS =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: RANKS=$RANKS: a positive number of ranks" >&2; exit 2; }
RESULTS=${RESULTS:-results/local-$(date +%Y%m%d-%H%M%S)-$$}
# The folder is this run's alone: its environment.txt, stdout.txt and
# report.json would replace a study's or another run's.
if [ -n "$(ls -A "$RESULTS" 2>/dev/null)" ] || { [ -e "$RESULTS" ] && [ ! -d "$RESULTS" ]; }; then
  echo "run.sh: $RESULTS holds files already (a run's or a study's); nothing is overwritten:" \
    "choose another RESULTS" >&2
  exit 2
fi
output=(--output "$RESULTS/output") report=(--report "$RESULTS/report.json") where_report=
previous=
for arg in "$@"; do
  [[ $arg == --output || $arg == --output=* ]] && output=()
  # The report where the options say, and said there.
  if [ "$previous" = --report ]; then report=() where_report=$arg; fi
  if [[ $arg == --report=* ]]; then report=() where_report=${arg#--report=}; fi
  previous=$arg
done
mkdir -p "$RESULTS"
[ -x "$APP" ] || { echo "run.sh: $APP not found; build first (see README)" >&2; exit 1; }
export NCCL_NVLS_ENABLE=0 OMPI_MCA_rmaps_base_oversubscribe=1
{ date; hostname; env | grep -E '^(STENCIL|OMPI_MCA|UCX|MPICH|CUDA|ROCR|HIP)_' | sort || true; } >"$RESULTS/environment.txt"
# Open MPI 4's mpirun answers SIGTERM and SIGINT by killing the ranks a
# second later, cutting a checkpoint (docs/RUNNING.md, "Stopping a run").
# So mpirun runs in its own session, out of reach of the terminal's Ctrl-C
# and hangup, and the first SIGTERM, SIGINT, SIGUSR1 (the documented stop
# signal) or SIGHUP (the terminal closed) to this script becomes SIGUSR1 to
# mpirun, which forwards it to the ranks at once: they stop after a
# checkpoint with status 75, and this script waits for mpirun and exits
# with its status. (A signal not trapped here, SIGQUIT say, ends the script
# alone and leaves the run going.) Should mpirun itself be signalled, the
# ranks get 20 s (mpirun then also takes 2 x 20 s to exit after a rank's
# status 75).
export OMPI_MCA_odls_base_sigkill_timeout=${OMPI_MCA_odls_base_sigkill_timeout:-20}
# shellcheck disable=SC2086 # MPIRUN_FLAGS is a list of flags
setsid ${MPIRUN:-mpirun} -np "$RANKS" ${MPIRUN_FLAGS:-} "$APP" --print-binding "${report[@]}" "${output[@]}" "$@" \
  > >(tee "$RESULTS/stdout.txt") &
launcher=$!
# After a hangup every write to the terminal fails: no message is worth
# ending the script over (set -e) and leaving mpirun unwaited for.
say() { echo "run.sh: $*" || true; }
stop() {
  say "stopping at the next agreed step, after a checkpoint if they are on" >&2
  kill -USR1 "$launcher" 2>/dev/null || true
  trap 'say "already stopping; kill -KILL $launcher ends it at once" >&2' TERM INT USR1 HUP
}
trap stop TERM INT USR1 HUP
status=
while [ -z "$status" ]; do # a trapped signal interrupts wait (status > 128)
  code=0
  wait "$launcher" || code=$?
  if [ "$code" -le 128 ] || ! kill -0 "$launcher" 2>/dev/null; then status=$code; fi
done
[ "$status" -eq 0 ] || { say "results so far in $RESULTS (status $status)"; exit "$status"; }
where=$RESULTS
[ -z "$where_report" ] || where+=" (the report in $where_report, as --report asked)"
[ ! -d "$RESULTS/output" ] || where+=" (its outputs in output/; tools/verify-output.py $RESULTS checks them)"
say "results in $where"
