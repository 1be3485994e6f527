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
#        is overwritten. The one exception is a restart (--restart) of the
#        unfinished run in it: a run stopped with a checkpoint prints the
#        command that continues it, into the same RESULTS.
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
output=(--output "$RESULTS/output") report=(--report "$RESULTS/report.json") where_report=
outputs=$RESULTS/output restart=no previous=
for arg in "$@"; do
  [[ $arg == --output || $arg == --output=* ]] && output=()
  [[ $arg == --restart || $arg == --restart=* ]] && restart=yes
  if [ "$previous" = --output ]; then outputs=$arg; fi
  if [[ $arg == --output=* ]]; then outputs=${arg#--output=}; fi
  # The report where the options say, and said there.
  if [ "$previous" = --report ]; then report=() where_report=$arg; fi
  if [[ $arg == --report=* ]]; then report=() where_report=${arg#--report=}; fi
  previous=$arg
done
# unfinished: true where RESULTS holds only what this script writes, and
# its output folder's record (docs/RUNNING.md, "Stopping a run") says
# that the run there did not finish and was not stopped without a
# checkpoint: a restart can continue it.
unfinished() {
  local record=$RESULTS/output/stencil-miniapp.run.json
  [ -f "$record" ] && ! grep -Eq '"state": *"complete"|"stop_checkpoint": *""' "$record" &&
    [ -z "$(find "$RESULTS" -mindepth 1 -maxdepth 1 -not -name environment.txt -not -name stdout.txt \
      -not -name output -print -quit)" ]
}
# The folder is this run's alone: its environment.txt, stdout.txt and
# report.json would replace a study's or another run's. A restart of the
# run that stopped there, with the output folder this script chose for
# it, continues that run's record instead (both files are appended to).
if [ -n "$(ls -A "$RESULTS" 2>/dev/null)" ] || { [ -e "$RESULTS" ] && [ ! -d "$RESULTS" ]; }; then
  if [ "$restart" = no ] || [ ${#output[@]} -eq 0 ] || ! unfinished; then
    hint=
    if [ "$restart" = no ] && [ -d "$RESULTS" ] && unfinished; then
      hint="; or continue the run that stopped there: the same command with --restart latest"
    fi
    echo "run.sh: $RESULTS holds files already (a run's or a study's); nothing is overwritten:" \
      "choose another RESULTS$hint" >&2
    exit 2
  fi
fi
# Checked before anything is written: a wrong APP leaves no folder behind.
[ -x "$APP" ] || { echo "run.sh: $APP not found; build first (see README)" >&2; exit 1; }
mkdir -p "$RESULTS"
export NCCL_NVLS_ENABLE=0 OMPI_MCA_rmaps_base_oversubscribe=1
{ date; hostname; env | grep -E '^(STENCIL|OMPI_MCA|UCX|MPICH|CUDA|ROCR|HIP)_' | sort || true; } >>"$RESULTS/environment.txt"
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
  > >(tee -a "$RESULTS/stdout.txt") &
launcher=$!
# After a hangup every write to the terminal fails: no message is worth
# ending the script over (set -e) and leaving mpirun unwaited for.
say() { echo "run.sh: $*" || true; }
stop() {
  say "stopping at the next agreed step, after a checkpoint if they are on" >&2
  kill -USR1 "$launcher" 2>/dev/null || true
  trap 'say "already stopping; kill -KILL $launcher ends mpirun now and its ranks with it, without the checkpoint" \
    "they may be writing" >&2' TERM INT USR1 HUP
}
trap stop TERM INT USR1 HUP
status=
while [ -z "$status" ]; do # a trapped signal interrupts wait (status > 128)
  code=0
  wait "$launcher" || code=$?
  if [ "$code" -le 128 ] || ! kill -0 "$launcher" 2>/dev/null; then status=$code; fi
done
# continue_command ARGS...: the command that continues this run from its
# newest checkpoint: the same settings and options, with --restart latest
# in place of any --restart, into the same RESULTS where this script chose
# the output folder (a new RESULTS where --output did). APP, RESULTS and
# this script are named by absolute paths, so that the line works typed in
# any folder.
continue_command() {
  local line previous='' arg
  line="RANKS=$RANKS APP=$(quoted "$(absolute "$APP")")"
  [ -z "${MPIRUN:-}" ] || line+=" MPIRUN=$(quoted "$MPIRUN")"
  [ -z "${MPIRUN_FLAGS:-}" ] || line+=" MPIRUN_FLAGS=$(quoted "$MPIRUN_FLAGS")"
  [ ${#output[@]} -eq 0 ] || line+=" RESULTS=$(quoted "$(absolute "$RESULTS")")"
  line+=" $(quoted "$(absolute "$0")")"
  for arg in "$@"; do
    if [ "$previous" = --restart ]; then previous=''; continue; fi
    previous=$arg
    [[ $arg == --restart || $arg == --restart=* ]] || line+=" $(quoted "$arg")"
  done
  echo "$line --restart latest"
}
# absolute PATH: PATH, which exists, as an absolute path (this script
# changes folder nowhere, so a relative one is from the current folder).
absolute() {
  local dir
  if dir=$(CDPATH='' cd -- "$(dirname -- "$1")" 2>/dev/null && pwd); then
    echo "${dir%/}/$(basename -- "$1")"
  else
    echo "$PWD/$1"
  fi
}
# quoted WORD: WORD as the shell reads it back, plain where it can be
# (48,40,36 rather than printf %q's 48\,40\,36).
quoted() { if [[ $1 =~ ^[A-Za-z0-9_./,:=+@%-]+$ ]]; then echo "$1"; else printf '%q\n' "$1"; fi; }
if [ "$status" -ne 0 ]; then
  say "results so far in $RESULTS (status $status)"
  # Stopped with a checkpoint (its record names one): the mini-app's own
  # "resume with --restart latest" needs this script's RESULTS too.
  if [ "$status" -eq 75 ] && grep -Eq '"stop_checkpoint": *"[^"]' "$outputs/stencil-miniapp.run.json" 2>/dev/null; then
    say "to continue it: $(continue_command "$@")"
  fi
  exit "$status"
fi
where=$RESULTS
[ -z "$where_report" ] || where+=" (the report in $where_report, as --report asked)"
[ ! -d "$RESULTS/output" ] || where+=" (its outputs in output/; tools/verify-output.py $RESULTS checks them)"
say "results in $where"
