# Sourced by every job script. Before sourcing, a script defines
#   launch RANKS CMD...   start CMD on RANKS ranks (one GPU each)
# and may set APP, RADIUS, STEPS, WARMUP, COMM, OVERLAP, PERIODIC, HALO_DEPTH, RESULTS, TUNING.
# shellcheck shell=bash

: "${APP:=build/miniapp/stencil-miniapp}"
: "${RADIUS:=4}" "${STEPS:=100}" "${WARMUP:=10}" "${COMM:=auto}" "${OVERLAP:=on}"
# PERIODIC=x,y,z: every rank has six neighbours, so a weak-scaling series
# does the same work on every rank at every size. Default none, so that a
# series stays comparable with the open-edge series already recorded.
: "${PERIODIC:=none}"
# HALO_DEPTH=K: a halo K*R deep, exchanged once every K steps (jobscripts/
# README.md, "How small a box still scales"); auto times 1, 2 and 4 per run.
: "${HALO_DEPTH:=auto}"
: "${RESULTS:=results/${SLURM_JOB_NAME:-local}-${SLURM_JOB_ID:-$(date +%Y%m%d-%H%M%S)}}"
# Launch shapes tuned on these GPUs, kept with the results: the first run of
# each box shape tunes it (before its timed steps) and the rest read the
# cache. TUNING=off runs the built-in shapes.
: "${TUNING:=$RESULTS/tuning-cache.json}"
export NCCL_NVLS_ENABLE=0 # NVLink multicast off: it can take shared nodes' GPUs down

# One JSON report per run, plus its stdout, in one folder named after the job.
stencil_setup() {
  mkdir -p "$RESULTS"
  [ -x "$APP" ] || { echo "stencil: $APP not found: build first (jobscripts/README.md)" >&2; exit 1; }
  {
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(hostname)"
    echo "app: $APP"
    echo "--- modules"
    (module list 2>&1 || echo "no module command")
    echo "--- environment"
    env | grep -E '^(SLURM|STENCIL|MPICH|OMPI|UCX|CUDA|ROCR|HIP|HSA|NCCL|OMP|FI)_' | sort
  } >"$RESULTS/environment.txt" 2>&1
  echo "stencil: results in $RESULTS"
}

# 1 2 4 8 ... up to MAX (and MAX itself).
stencil_rank_series() {
  local max=$1 n=1
  while [ "$n" -lt "$max" ]; do echo "$n"; n=$((n * 2)); done
  echo "$max"
}

# stencil_run LABEL RANKS [mini-app options...]: one run, one report.
stencil_run() {
  local label=$1 ranks=$2 name
  shift 2
  name=$label-$COMM-overlap-$OVERLAP-n$ranks
  launch "$ranks" "$APP" --label "$label" --radius "$RADIUS" --steps "$STEPS" --warmup "$WARMUP" \
    --comm "$COMM" --overlap "$OVERLAP" --periodic "$PERIODIC" --halo-depth "$HALO_DEPTH" \
    --tuning "$TUNING" --print-binding \
    --report "$RESULTS/$name.json" "$@" \
    >"$RESULTS/$name.txt" 2>&1 || { echo "stencil: $name failed:"; tail -5 "$RESULTS/$name.txt"; return 1; }
  grep -h "^FOM" "$RESULTS/$name.txt"
}

# The first Python that has matplotlib (Debian's python3-matplotlib lives in
# /usr/bin/python3, which another python3 on PATH may shadow); $PYTHON wins.
stencil_python() {
  local candidate
  for candidate in ${PYTHON:-} python3 /usr/bin/python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c "import matplotlib" 2>/dev/null; then
      echo "$candidate"
      return
    fi
  done
  echo "stencil: no Python with matplotlib (apt-get install python3-matplotlib)" >&2
  return 1
}
