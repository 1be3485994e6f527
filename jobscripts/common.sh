# Sourced by every job script. Before sourcing, a script defines
#   launch RANKS CMD...   start CMD on RANKS ranks (one GPU each)
# and may set APP, RADIUS, STEPS, WARMUP, COMM, OVERLAP, PERIODIC, HALO_DEPTH, RESULTS, TUNING.
# shellcheck shell=bash

: "${APP:=build/miniapp/stencil-miniapp}"
: "${RADIUS:=4}" "${STEPS:=100}" "${WARMUP:=10}" "${COMM:=auto}" "${OVERLAP:=on}"
# STEPS=auto: each run as many steps as time about 2 s (stencil_steps).
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
stencil_require_app() {
  [ -x "$APP" ] || { echo "stencil: $APP not found: build first (jobscripts/README.md)" >&2; exit 1; }
}

stencil_setup() {
  mkdir -p "$RESULTS"
  stencil_require_app
  # Appended: a second study into the same RESULTS keeps the first's record.
  {
    echo "=== date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(hostname)"
    echo "app: $APP"
    echo "--- modules"
    if command -v module >/dev/null 2>&1; then module list 2>&1; else echo "no module command"; fi
    echo "--- environment"
    env | grep -E '^(SLURM|STENCIL|MPICH|OMPI|UCX|CUDA|ROCR|HIP|HSA|NCCL|OMP|FI)_' | sort
  } >>"$RESULTS/environment.txt" 2>&1
  echo "stencil: results in $RESULTS"
}

# 1 2 4 8 ... up to MAX (and MAX itself).
stencil_rank_series() {
  local max=$1 n=1
  while [ "$n" -lt "$max" ]; do echo "$n"; n=$((n * 2)); done
  echo "$max"
}

# stencil_report_name LABEL RANKS [mini-app options...]: the report's name,
# from what defines the run: the study, the box per rank or the grid (and
# a forced process grid), R, the periodic edges, the halo depth, the path,
# the overlap and the ranks. Runs of another box or edges in one RESULTS
# no longer share a name.
stencil_report_name() {
  local label=$1 ranks=$2 box="" edges=none
  # x,y,z and z,y,x are one set of edges, and one name.
  [ "$PERIODIC" = none ] || edges=$(tr ',' '\n' <<<"$PERIODIC" | sort | tr -d '\n')
  shift 2
  while [ $# -gt 0 ]; do
    case "$1" in
      --local | --grid) box+="-${1#--}${2//,/x}"; shift ;;
      --procs) box+="-procs${2//,/x}"; shift ;;
    esac
    shift
  done
  echo "$label$box-R$RADIUS-periodic-$edges-depth-$HALO_DEPTH-$COMM-overlap-$OVERLAP-n$ranks"
}

# stencil_refuse_existing NAME: status 1, and one line, where RESULTS holds
# NAME.json already. Scripts ask for every run before the first, so that a
# study refused leaves no run behind.
stencil_refuse_existing() { stencil_refuse_file "$1.json"; }

# stencil_refuse_file FILE: the same for RESULTS/FILE, any file a script writes.
stencil_refuse_file() {
  [ -e "$RESULTS/$1" ] || return 0
  echo "stencil: $RESULTS/$1 is there already (another study's, or this one run before);" \
    "nothing is overwritten: choose another RESULTS" >&2
  return 1
}

# stencil_steps COMMAND...: the --steps of a run of the mini-app COMMAND
# (its launcher and options, without --steps): STEPS, or with STEPS=auto
# twice the steps that a probe of 20 steps (no report)
# says would time about 1 s, so that no run's window is short enough for
# its report to warn (collect.py marks such rows; project.py refuses them).
stencil_steps() {
  local said wanted
  if [ "$STEPS" != auto ]; then echo "$STEPS"; return; fi
  said=$("$@" --steps 20 --quiet 2>&1 >/dev/null) || {
    echo "stencil: the probe of 20 steps failed: $(grep -m1 '^stencil-miniapp: ' <<<"$said" || tail -1 <<<"$said")" >&2
    return 1
  }
  wanted=$(sed -n 's/.* run --steps \([0-9]*\) or more .*/\1/p' <<<"$said" | head -1)
  echo $((${wanted:-0} > 20 ? wanted * 2 : 20)) # no warning: 20 steps took 0.5 s or more
}

# stencil_refuse_run LABEL RANKS [mini-app options...]: stencil_refuse_existing
# for the report that run would write.
stencil_refuse_run() { stencil_refuse_existing "$(stencil_report_name "$@")"; }

# stencil_at_each_count COMMAND LABEL [mini-app options...]: COMMAND LABEL
# RANKS [options...] at 1, 2, 4 ... every GCD of the allocation, stopping
# at the first that fails. A job script calls it with stencil_refuse_run
# before it calls it with stencil_run, so that a study that would overwrite
# any of its reports is refused before its first run.
stencil_at_each_count() {
  local command=$1 label=$2 ranks
  shift 2
  for ranks in $(stencil_rank_series "$((GCDS_PER_NODE * SLURM_NNODES))"); do
    "$command" "$label" "$ranks" "$@" || return
  done
}

# stencil_run LABEL RANKS [mini-app options...]: one run, one report. A
# report of the same name already in RESULTS is never overwritten: the run
# is refused in one line.
stencil_run() {
  local label=$1 ranks=$2 name steps run
  shift 2
  name=$(stencil_report_name "$label" "$ranks" "$@")
  stencil_refuse_existing "$name" || return 2
  run=(launch "$ranks" "$APP" --label "$label" --radius "$RADIUS" --warmup "$WARMUP" --comm "$COMM"
    --overlap "$OVERLAP" --periodic "$PERIODIC" --halo-depth "$HALO_DEPTH" --tuning "$TUNING" "$@")
  steps=$(stencil_steps "${run[@]}") || { echo "stencil: $name failed" >&2; return 1; }
  "${run[@]}" --steps "$steps" --print-binding --report "$RESULTS/$name.json" \
    >"$RESULTS/$name.txt" 2>&1 || {
    # The mini-app's own one-line reason (not a warning, not its banner),
    # else the end of what it printed.
    echo "stencil: $name failed: $(awk '/^stencil-miniapp: / && !/: warning: / && !/ back-end, [0-9]+ rank/ {
      print; found = 1; exit}
      END {exit !found}' "$RESULTS/$name.txt" || tail -3 "$RESULTS/$name.txt")" >&2
    return 1
  }
  grep -h "^FOM" "$RESULTS/$name.txt"
}

# The first Python that has matplotlib and jsonschema (Debian's
# python3-matplotlib and python3-jsonschema live in /usr/bin/python3, which
# another python3 on PATH may shadow); $PYTHON wins.
stencil_python() {
  local candidate
  for candidate in ${PYTHON:-} python3 /usr/bin/python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c "import matplotlib, jsonschema" 2>/dev/null; then
      echo "$candidate"
      return
    fi
  done
  echo "stencil: no Python with matplotlib and jsonschema (apt-get install python3-matplotlib" \
    "python3-jsonschema)" >&2
  return 1
}

# stencil_production RANKS [mini-app options...]: one long run that outlives
# its allocation (production.sbatch). It writes a checkpoint every
# CHECKPOINT_EVERY (steps, or wall time: 30m by default) into
# OUTPUT/checkpoints and continues from the
# newest one when the folder has one. Slurm's warning signal (#SBATCH
# --signal=USR1@120) makes the mini-app stop at a step boundary with a
# checkpoint and exit status 75; then, by CONTINUE:
#   resubmit (default)  submit this script again, with the same options and
#                       arguments, to start once this job has ended; at most
#                       MAX_ATTEMPTS jobs in all (default 20)
#   requeue             put this job back in the queue (scontrol requeue;
#                       the cluster must allow it, as most do)
#   off                 end here; submit again by hand to continue
stencil_production() {
  local ranks=$1 status=0 restart=()
  shift
  : "${OUTPUT:=results/${SLURM_JOB_NAME:-stencil-production}}" "${CHECKPOINT_EVERY:=30m}"
  : "${CONTINUE:=resubmit}" "${MAX_ATTEMPTS:=20}" "${STENCIL_ATTEMPT:=1}"
  case "$CONTINUE" in resubmit | requeue | off) ;;
    *) echo "stencil: CONTINUE=$CONTINUE: resubmit, requeue or off" >&2; return 2 ;;
  esac
  mkdir -p "$OUTPUT"
  if compgen -G "$OUTPUT/checkpoints/step_*[0-9]" >/dev/null; then
    restart=(--restart latest)
    echo "stencil: attempt $STENCIL_ATTEMPT continues from the newest checkpoint in $OUTPUT/checkpoints"
  fi
  launch "$ranks" "$APP" --output "$OUTPUT" --checkpoint-every "$CHECKPOINT_EVERY" "${restart[@]}" "$@" ||
    status=$?
  # A launcher can end with status 0 although its tasks never started (srun
  # prints "task 0 launch failed" and returns 0 on some Slurm versions): the
  # run is complete only where its own record in OUTPUT says so.
  if [ "$status" -eq 0 ]; then
    if grep -Eq '"state": *"complete"' "$OUTPUT/stencil-miniapp.run.json" 2>/dev/null; then
      echo "stencil: the run is complete; outputs in $OUTPUT"
      return 0
    fi
    echo "stencil: the launcher ended with status 0, but $OUTPUT/stencil-miniapp.run.json does not say the run is complete" >&2
    return 1
  fi
  [ "$status" -eq 75 ] || { echo "stencil: the run failed (exit status $status)" >&2; return "$status"; }
  echo "stencil: stopped before the time limit, with a checkpoint in $OUTPUT/checkpoints"
  case "$CONTINUE" in
    off) echo "stencil: CONTINUE=off: submit the same command again to continue" ;;
    requeue) scontrol requeue "$SLURM_JOB_ID" ;;
    resubmit)
      if [ "$STENCIL_ATTEMPT" -ge "$MAX_ATTEMPTS" ]; then
        echo "stencil: $MAX_ATTEMPTS jobs already (MAX_ATTEMPTS); submit again by hand to continue" >&2
        return 1
      fi
      # The same script, account, partition, nodes and time limit, after this job.
      local details script limit log
      details=$(scontrol show job "$SLURM_JOB_ID")
      # Slurm's Command is the script's path followed by its arguments.
      script=$(sed -n 's/^ *Command=//p' <<<"$details")
      [ "$#" -eq 0 ] || script=${script% "$*"}
      log=$(dirname "$(sed -n 's/^ *StdOut=//p' <<<"$details")")/%x-%j.out # beside this job's
      limit=$(squeue -h -j "$SLURM_JOB_ID" -o %l)
      sbatch --dependency=afterany:"$SLURM_JOB_ID" -J "$SLURM_JOB_NAME" -N "$SLURM_JOB_NUM_NODES" \
        -t "$limit" -o "$log" ${SLURM_JOB_ACCOUNT:+-A "$SLURM_JOB_ACCOUNT"} \
        ${SLURM_NTASKS_PER_NODE:+--ntasks-per-node="$SLURM_NTASKS_PER_NODE"} \
        ${SLURM_JOB_PARTITION:+-p "$SLURM_JOB_PARTITION"} \
        --export=ALL,STENCIL_ATTEMPT=$((STENCIL_ATTEMPT + 1)),OUTPUT="$OUTPUT" "$script" "$@" ;;
  esac
}
