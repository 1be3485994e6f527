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
#        choice), LABEL_SUFFIX (appended to the weak/strong labels, e.g. -along-x)
set -euo pipefail
cd "$(dirname "$0")/../.."
RANKS_LIST=${RANKS_LIST:-1 2 4 8}
WEAK_LOCAL=${WEAK_LOCAL:-512,512,512}
STRONG_GRID=${STRONG_GRID:-1024,512,512}
STUDIES=${STUDIES:-weak strong}
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
stencil_setup
suffix=${LABEL_SUFFIX:-}
for ranks in $RANKS_LIST; do
  procs=()
  case "${PROCS_ALONG:-}" in
    x) procs=(--procs "$ranks,1,1") ;;
    y) procs=(--procs "1,$ranks,1") ;;
    z) procs=(--procs "1,1,$ranks") ;;
  esac
  for study in $STUDIES; do
    case "$study" in
      weak) stencil_run "weak$suffix" "$ranks" --local "$WEAK_LOCAL" "${procs[@]}" ;;
      strong) stencil_run "strong$suffix" "$ranks" --grid "$STRONG_GRID" "${procs[@]}" ;;
    esac
  done
done
# shellcheck disable=SC2086 # COLLECT_FLAGS is a list of flags
[ "${COLLECT:-on}" = off ] || "$(stencil_python)" jobscripts/collect.py "$RESULTS" ${COLLECT_FLAGS:-}
