#!/usr/bin/env bash
# The measured inputs of jobscripts/project.py, on one node of the machine
# you plan for: one rank at each --local N,N,N with --comm none (kernel time
# against cells), stencil-halo-bench on two ranks (latency and bandwidth of
# an exchange inside the node), two ranks split along x (strided faces, thin
# x slabs; at SWEEP's two smallest boxes per rank, the host's cost per
# exchange), the shell bench on a GPU node where stencil-bench is built (the
# slabs' cost), and the weak
# and strong series to compare the projection with.
#
# usage: jobscripts/local/calibrate.sh
# env:   RESULTS (default results/calibration-DATE), APP and HALO_BENCH (the
#        HOST build in build/ by default; installed, beside it), STENCIL_BENCH (beside them), MPIRUN ("mpirun"), SWEEP ("64 96
#        128 192 256 384 512"), RADIUS (4), STEPS (auto: each run the steps that time
#        about 2 s, from a probe of 20 steps; a number of steps under about 0.5 s
#        leaves reports that project.py refuses), COMM (gpu-aware; staged: project.py
#        --comm staged), RANKS_LIST ("1 2"), WEAK_LOCAL (512,512,512), STRONG_GRID (1024,512,512)
# then:  python3 jobscripts/project.py RESULTS --machine M.json validate RESULTS
# A relative RESULTS, APP, HALO_BENCH, STENCIL_BENCH or TUNING is taken from the
# folder it is started in.
set -euo pipefail
# shellcheck source=jobscripts/local/settings_only.sh
source "$(dirname "$0")/settings_only.sh"
stencil_absolute RESULTS APP HALO_BENCH STENCIL_BENCH TUNING
cd "$(dirname "$0")/../.."
: "${RESULTS:=results/calibration-$(date +%Y%m%d-%H%M%S)}" "${APP:=build/miniapp/stencil-miniapp}"
# The benchmarks beside APP where it is installed (one bin/), else in its
# build folder's bench/.
beside_app() {
  local dir
  dir=$(dirname "$APP")
  if [ -x "$dir/$1" ]; then echo "$dir/$1"; else echo "$(dirname "$dir")/bench/$1"; fi
}
: "${HALO_BENCH:=$(beside_app stencil-halo-bench)}" "${MPIRUN:=mpirun}"
: "${STENCIL_BENCH:=$(beside_app stencil-bench)}"
: "${SWEEP:=64 96 128 192 256 384 512}" "${RADIUS:=4}" "${STEPS:=auto}" "${COMM:=gpu-aware}"
export RESULTS APP MPIRUN RADIUS STEPS COMM RANKS_LIST=${RANKS_LIST:-1 2}
[[ $STEPS == auto || $STEPS =~ ^[1-9][0-9]*$ ]] ||
  { echo "calibrate.sh: STEPS=$STEPS: auto or a whole number of steps, 1 or more" >&2; exit 2; }
stencil_counts SWEEP "$SWEEP"
stencil_counts RANKS_LIST "$RANKS_LIST"
if [ "$(wc -w <<<"$SWEEP")" -lt 2 ]; then
  echo "calibrate.sh: SWEEP=\"$SWEEP\": the kernel's time against cells needs two sizes or more" >&2
  exit 2
fi
gpu_node=0 # an NVIDIA or AMD GPU here: the HOST back-end's settings do not apply, the shell bench does
if command -v nvidia-smi >/dev/null || [ -e /dev/kfd ]; then gpu_node=1; fi
if [ "$gpu_node" = 0 ]; then
  export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} OMP_WAIT_POLICY=passive # HOST: one core per rank, as scaling.sh
fi
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# A calibration is one node's, whole: another into the same folder would
# mix two (or replace one).
if [ -n "$(ls -A "$RESULTS" 2>/dev/null)" ]; then
  echo "calibrate: $RESULTS holds files already; nothing is overwritten: choose another RESULTS" >&2
  exit 2
fi
# shellcheck source=jobscripts/common.sh
source jobscripts/common.sh # stencil_steps
# calibration_run RANKS REPORT OPTIONS...: one run of its own steps (STEPS).
calibration_run() {
  local ranks=$1 report=$2 run steps
  shift 2
  # shellcheck disable=SC2206 # MPIRUN may carry flags
  run=($MPIRUN -np "$ranks" "$APP" --radius "$RADIUS" --warmup 10 "$@")
  steps=$(stencil_steps "${run[@]}")
  "${run[@]}" --steps "$steps" --quiet --report "$report" >/dev/null
}
mkdir -p "$RESULTS/sweep"
for n in $SWEEP; do
  calibration_run 1 "$RESULTS/sweep/sweep-$n.json" --local "$n,$n,$n" --comm none --label sweep
done
sizes=$(echo "$SWEEP" | tr ' ' ',')
# shellcheck disable=SC2086
$MPIRUN -np 2 "$HALO_BENCH" --sizes "$sizes" --radius "$RADIUS" --modes "$COMM" >"$RESULTS/halo-bench-calibration.txt"
mkdir -p "$RESULTS/host"
for n in $(tr ' ' '\n' <<<"$SWEEP" | sort -n | head -2); do
  for overlap in off on; do
    calibration_run 2 "$RESULTS/host/host-along-x-$n-$overlap.json" --local "$n,$n,$n" --procs 2,1,1 \
      --comm "$COMM" --overlap "$overlap" --halo-depth 1 --pack separate --label host
  done
done
if [ "$gpu_node" = 1 ] && [ -x "$STENCIL_BENCH" ]; then
  "$STENCIL_BENCH" --sizes="$sizes" --radii="$RADIUS" --precision=fp32 --variants=wave,shell \
    --benchmark_filter='^(wave|shell_inner|shell_slabs)/' --benchmark_out="$RESULTS/shell-bench.json" >/dev/null
fi
# The four series share one folder, new with this calibration: APPEND=on.
for overlap in on off; do
  OVERLAP=$overlap RESULTS=$RESULTS/scaling COLLECT=off APPEND=on "jobscripts/local/scaling.sh" >/dev/null
  OVERLAP=$overlap PROCS_ALONG=x LABEL_SUFFIX=-along-x RESULTS=$RESULTS/scaling COLLECT=off APPEND=on \
    "jobscripts/local/scaling.sh" >/dev/null
done
# The exchange it measured is COMM's: project.py fits the halo bench's rows of that mode.
echo "calibrate: inputs in $RESULTS; then: python3 jobscripts/project.py $RESULTS --machine M.json" \
  "--comm $COMM weak (or strong, or validate $RESULTS)"
