#!/usr/bin/env bash
# The mini-app on one multi-GPU node with mpirun: one rank per GPU, a JSON
# report and the binding per run, in a results folder named after the run.
#
# usage: jobscripts/local/run.sh [mini-app options]
# env:   APP (default build/miniapp/stencil-miniapp), RANKS (default: GPUs seen
#        by nvidia-smi or rocm-smi, else 4), RESULTS (default results/local-DATE),
#        MPIRUN (default mpirun), MPIRUN_FLAGS
set -euo pipefail
APP=${APP:-build/miniapp/stencil-miniapp}
if [ -z "${RANKS:-}" ]; then
  RANKS=$(nvidia-smi -L 2>/dev/null | grep -c GPU || true)
  [ "$RANKS" -gt 0 ] || RANKS=$(rocm-smi --showid 2>/dev/null | grep -c "GPU\[" || true)
  [ "$RANKS" -gt 0 ] || RANKS=4
fi
RESULTS=${RESULTS:-results/local-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$RESULTS"
[ -x "$APP" ] || { echo "run.sh: $APP not found; build first (see README)" >&2; exit 1; }
export NCCL_NVLS_ENABLE=0 OMPI_MCA_rmaps_base_oversubscribe=1
{ date; hostname; env | grep -E '^(STENCIL|OMPI_MCA|UCX|MPICH|CUDA|ROCR|HIP)_' | sort || true; } >"$RESULTS/environment.txt"
# shellcheck disable=SC2086 # MPIRUN_FLAGS is a list of flags
${MPIRUN:-mpirun} -np "$RANKS" ${MPIRUN_FLAGS:-} "$APP" --print-binding --report "$RESULTS/report.json" "$@" \
  | tee "$RESULTS/stdout.txt"
echo "run.sh: results in $RESULTS"
