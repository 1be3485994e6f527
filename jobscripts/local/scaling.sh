#!/usr/bin/env bash
# Weak and strong scaling on one machine with mpirun: the same series as the
# Slurm scripts, then the collector's tables and plots. CI runs it on the
# HOST back-end; on a multi-GPU node it runs one rank per GPU.
#
# usage: jobscripts/local/scaling.sh
# env:   RANKS_LIST ("1 2 4 8"), WEAK_LOCAL (512,512,512), STRONG_GRID (1024,512,512),
#        APP, RADIUS, STEPS, WARMUP, COMM, OVERLAP, RESULTS, MPIRUN ("mpirun"),
#        STUDIES ("weak strong"), COLLECT_FLAGS (e.g. --verify), COLLECT (off: reports only),
#        PROCS_ALONG (x, y or z: every rank along one axis instead of MPI_Dims_create's
#        choice), LABEL_SUFFIX (appended to the weak/strong labels, e.g. -along-x),
#        APPEND (off: a RESULTS that holds files is refused; on: this study's runs join
#        the studies there, as calibrate.sh's four do, and no report is overwritten)
# A relative RESULTS, APP, TUNING or COLLECT_FLAGS --out is taken from the folder
# it is started in.
set -euo pipefail
# shellcheck source=jobscripts/local/settings_only.sh
source "$(dirname "$0")/settings_only.sh"
stencil_absolute RESULTS APP TUNING
caller=$PWD
cd "$(dirname "$0")/../.."
RANKS_LIST=${RANKS_LIST:-1 2 4 8}
WEAK_LOCAL=${WEAK_LOCAL:-512,512,512}
STRONG_GRID=${STRONG_GRID:-1024,512,512}
STUDIES=${STUDIES:-weak strong}
stencil_counts RANKS_LIST "$RANKS_LIST"
case "${PROCS_ALONG:-}" in
  "" | x | y | z) ;;
  *) echo "scaling.sh: PROCS_ALONG=$PROCS_ALONG: x, y or z (or unset)" >&2 && exit 2 ;;
esac
case "${APPEND:=off}" in
  on | off) ;;
  *) echo "scaling.sh: APPEND=$APPEND: on or off" >&2 && exit 2 ;;
esac
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if ! command -v nvidia-smi >/dev/null && ! [ -e /dev/kfd ]; then
  export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} OMP_WAIT_POLICY=passive # HOST: ranks share the cores
fi
launch() {
  local ranks=$1
  shift
  # shellcheck disable=SC2086 # MPIRUN may carry flags
  ${MPIRUN:-mpirun} -np "$ranks" "$@"
}
source jobscripts/common.sh
stencil_absolute RESULTS # the default, results/local-DATE, lies in the checkout
# A folder that holds a study already (its reports, its tables) would give
# the collector both studies' runs, and its tables would no longer be the
# first study's: a new study goes into a new folder unless APPEND=on asks
# for the two together.
if [ "$APPEND" = off ] && { [ -n "$(ls -A "$RESULTS" 2>/dev/null)" ] || { [ -e "$RESULTS" ] && [ ! -d "$RESULTS" ]; }; }; then
  echo "scaling.sh: $RESULTS holds files already (another study's?): choose a new or empty RESULTS," \
    "or set APPEND=on to add this study's runs to it" >&2
  exit 2
fi
suffix=${LABEL_SUFFIX:-}
# each_run COMMAND: COMMAND LABEL RANKS OPTIONS... for every run of the study.
each_run() {
  local ranks study procs
  for ranks in $RANKS_LIST; do
    procs=()
    case "${PROCS_ALONG:-}" in
      x) procs=(--procs "$ranks,1,1") ;;
      y) procs=(--procs "1,$ranks,1") ;;
      z) procs=(--procs "1,1,$ranks") ;;
    esac
    for study in $STUDIES; do
      case "$study" in
        weak) "$@" "weak$suffix" "$ranks" --local "$WEAK_LOCAL" "${procs[@]}" || return ;;
        strong) "$@" "strong$suffix" "$ranks" --grid "$STRONG_GRID" "${procs[@]}" || return ;;
        *) echo "scaling.sh: STUDIES=$STUDIES: weak and/or strong" >&2; return 2 ;;
      esac
    done
  done
}
# Every run's report name is asked for before the first run: a study that
# would overwrite a report is refused whole.
refuse_existing() { stencil_refuse_existing "$(stencil_report_name "$@")"; }
each_run refuse_existing || exit 2
stencil_setup
# A study stopped by a failed run or a signal says what is there and what
# to do, in one line. A report already written stays, and the folder
# refuses the same study again. (A signal that reaches mpirun ends its run
# with the mini-app's own "stopped by" line; bash then sees a failed run.)
stopped() {
  echo "scaling.sh: $1 with $(find "$RESULTS" -maxdepth 1 -name '*.json' | wc -l) reports in" \
    "$RESULTS; to finish the study, run it again into another RESULTS" >&2
  exit "$2"
}
trap 'stopped "stopped by SIGINT" 130' INT
trap 'stopped "stopped by SIGTERM" 143' TERM
each_run stencil_run || stopped "stopped at a failed run" $?
# The collector runs in the folder the study was started in, where a
# relative --out among COLLECT_FLAGS (or PYTHON) is meant, and where $0 is.
# shellcheck disable=SC2086 # COLLECT_FLAGS is a list of flags
[ "${COLLECT:-on}" = off ] || (cd "$caller" && python=$(stencil_python) &&
  "$python" "$(dirname "$0")/../../jobscripts/collect.py" "$RESULTS" ${COLLECT_FLAGS:-})
