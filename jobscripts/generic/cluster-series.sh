# The body of amd-cluster.sbatch and nvidia-cluster.sbatch: weak and strong
# scaling on an Open MPI + UCX cluster, once per halo path in MODES, every
# rank count from 1 GPU to the whole allocation. The caller sets
# GPU_VENDOR; site.sh sets the UCX environment for it (and says why).
# shellcheck shell=bash
LOCAL=${LOCAL:-512,512,512}
GRID=${GRID:-1024,1024,512}
RADIUS=${RADIUS:-4}
STEPS=${STEPS:-100}
MODES=${MODES:-gpu-aware nccl}

set -euo pipefail
cd "${SLURM_SUBMIT_DIR:-.}"
source jobscripts/slurm_only.sh
source jobscripts/generic/site.sh
source jobscripts/common.sh
# each_run COMMAND: COMMAND LABEL RANKS OPTIONS for every run of the study,
# in order; first with stencil_refuse_run, so that a study that would
# overwrite any of its reports (or the preflight's) is refused before its
# first run.
each_run() {
  local ranks
  for COMM in $MODES; do
    for ranks in $(stencil_rank_series "$((GCDS_PER_NODE * SLURM_NNODES))"); do
      "$1" "weak-$COMM" "$ranks" --local "$LOCAL" || return
      "$1" "strong-$COMM" "$ranks" --grid "$GRID" || return
    done
  done
}
each_run stencil_refuse_run || exit 2
stencil_refuse_file preflight.txt || exit 2
stencil_setup
# The halo path proved before the first timed run: device buffers through
# MPI (where the library says it takes them; STENCIL_GPU_AWARE_MPI=1 makes
# it try) and through pinned host memory, contents checked, one line each.
launch "$((GCDS_PER_NODE * SLURM_NNODES))" "$APP" --grid "$GRID" --radius "$RADIUS" --steps 1 \
  --comm auto --preflight >"$RESULTS/preflight.txt" 2>&1 ||
  { echo "stencil: the preflight failed (jobscripts/README.md, \"Open MPI with UCX\"):"; tail -8 "$RESULTS/preflight.txt"; exit 1; }
grep -A3 "^preflight" "$RESULTS/preflight.txt" || true
each_run stencil_run
"$(stencil_python)" "jobscripts/collect.py" "$RESULTS"
