#!/usr/bin/env bash
# The job scripts under a real Slurm (tools/local-slurm.sh: one node, as root):
#  - Frontier and LUMI: every script's #SBATCH lines pass `sbatch --test-only`
#    on nodes of their shape (64 cores, 8 GPUs), at its default node count
#    and at 4 nodes, and the srun line of each site's launch() passes
#    `srun --test-only` at 1, 8, 16 and 32 ranks; a request no node can meet
#    is refused (the check can fail);
#  - generic amd-cluster.sbatch and nvidia-cluster.sbatch: --test-only, then
#    each run to completion with GPU_VENDOR=none (HOST back-end, 2 ranks):
#    the preflight intact, 8 reports, the collector's tables;
#  - generic: weak.sbatch and strong.sbatch, unmodified, run to completion
#    with `sbatch --wait` on the HOST back-end at 1, 2 and 4 ranks; the job
#    ends COMPLETED, one JSON report per rank count lands in
#    results/JOBNAME-JOBID/, each run's binding table lists its ranks, and
#    the collector passes --verify on each folder;
#  - generic production.sbatch: a launcher's status 0 without the run's
#    record of completion is a failure; the time limit's warning signal
#    (sent as Slurm sends it) stops the first job with a checkpoint, the job
#    submits the next, and that one's checksum is an uninterrupted run's.
# usage: tests/slurm_jobscripts_test.sh [WORKDIR]   (needs a HOST build in build/, and root or sudo)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
work=${1:-$repo/build/slurm-test}
export STENCIL_SLURM_DIR=${STENCIL_SLURM_DIR:-/tmp/stencil-slurm-test}
fail() { echo "slurm_jobscripts_test: $*" >&2; exit 1; }
[ -x build/miniapp/stencil-miniapp ] || fail "build the HOST back-end first (tools/run-tests.sh)"
rm -rf "$work" && mkdir -p "$work"
trap 'tools/local-slurm.sh stop' EXIT
tools/local-slurm.sh start
export SLURM_CONF=$STENCIL_SLURM_DIR/slurm.conf

echo "== Frontier, LUMI and the generic GPU clusters: sbatch --test-only"
test_only() { # SCRIPT [sbatch options]: passes when Slurm says when and where it would start
  local out
  out=$(sbatch --test-only -A PROJECT "${@:2}" "$1" 2>&1) || fail "$1 ${*:2}: $out"
  grep -q "to start at" <<<"$out" || fail "$1 ${*:2}: $out"
  echo "ok  $1 ${*:2}: ${out#sbatch: }"
}
for site in frontier lumi; do
  for script in jobscripts/"$site"/*.sbatch; do
    test_only "$script"
    [[ $script == *bench-single-gcd* ]] || test_only "$script" -N 4
  done
done
for script in jobscripts/generic/amd-cluster.sbatch jobscripts/generic/nvidia-cluster.sbatch; do
  test_only "$script" -p batch # they name no partition: the user's site does
done
if sbatch --test-only -A PROJECT -N 2 --gpus-per-node=9 jobscripts/lumi/weak.sbatch >/dev/null 2>&1; then
  fail "a node with 9 GPUs was accepted: the GPU check cannot fail"
fi
echo "ok  9 GPUs per node refused"

echo "== Frontier and LUMI: each site's srun line, srun --test-only"
for site in frontier:batch lumi:standard-g; do
  name=${site%%:*} partition=${site#*:}
  for ranks in 1 8 16 32; do
    out=$(
      # shellcheck disable=SC2317 # called by the site's launch()
      module() { :; } # no Cray modules here
      # shellcheck disable=SC2317
      srun() { command srun --test-only -p "$partition" -A PROJECT "$@" 2>&1; }
      # shellcheck disable=SC1090
      source "jobscripts/$name/site.sh"
      launch "$ranks" true
    ) || fail "$name launch $ranks: $out"
    grep -q "to start at" <<<"$out" || fail "$name launch $ranks: $out"
    echo "ok  $name launch $ranks: ${out#srun: }"
  done
done

echo "== generic weak and strong, sbatch --wait, HOST back-end"
# Small sizes through the scripts' own variables; 4 tasks on the one node.
export LOCAL=24,20,16 GRID=48,40,32 STEPS=4 RADIUS=2 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for study in weak strong; do
  job=$(sbatch --parsable --wait -N 1 --ntasks-per-node=4 -o "$work/%x-%j.out" "jobscripts/generic/$study.sbatch") ||
    { cat "$work"/*.out; fail "$study: sbatch --wait failed"; }
  job=${job%%;*}
  # sbatch --wait can return while the job still reads COMPLETING (its
  # processes being reaped): wait up to 30 s for the state it ends in.
  for _ in $(seq 60); do
    state=$(scontrol show job "$job" | grep -o "JobState=[A-Z]*" | head -1)
    [ "$state" != JobState=COMPLETING ] && break
    sleep 0.5
  done
  code=$(scontrol show job "$job" | grep -o " ExitCode=[0-9:]*" | head -1)
  if [ "$state" != JobState=COMPLETED ] || [ "$code" != " ExitCode=0:0" ]; then
    cat "$work/stencil-$study-$job.out"
    fail "$study job $job: $state$code"
  fi
  results=results/stencil-$study-$job
  [ -d "$results" ] || fail "$study: no results folder named after job $job"
  for ranks in 1 2 4; do
    report=$(find "$results" -name "$study-*-gpu-aware-overlap-on-n$ranks.json")
    [ -f "${report:-/none}" ] || fail "$study: no report for $ranks ranks in $results"
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['ranks']==$ranks and r['backend']=='HOST', r" "$report"
    # The binding table: one row per rank, ranks 0..n-1 on this host.
    listed=$(awk '/^ *rank +host/{t=1; next} t && /^ *[0-9]+ /{print $1} t && !/^ *[0-9]+ /{t=0}' \
      "${report%.json}.txt" | sort -n | paste -sd' ' -)
    [ "$listed" = "$(seq -s' ' 0 $((ranks - 1)))" ] || fail "$study n$ranks: binding table lists ranks '$listed'"
  done
  [ "$(find "$results" -name '*.json' | wc -l)" -eq 3 ] || fail "$study: not exactly 3 reports in $results"
  "$(source jobscripts/common.sh && stencil_python)" jobscripts/collect.py "$results" --verify >"$work/collect-$study.txt" ||
    { cat "$work/collect-$study.txt"; fail "$study: the collector failed"; }
  echo "ok  $study job $job: $state$code, reports n1 n2 n4 in $results, collector verified"
  mv "$results" "$work/"
done

echo "== generic amd-cluster and nvidia-cluster, sbatch --wait, HOST back-end (GPU_VENDOR=none)"
for vendor in amd nvidia; do
  job=$(GPU_VENDOR=none APP=build/miniapp/stencil-miniapp MODES="gpu-aware staged" sbatch --parsable --wait -N 1 \
    --ntasks-per-node=2 -o "$work/%x-%j.out" "jobscripts/generic/$vendor-cluster.sbatch") ||
    { cat "$work"/*.out; fail "$vendor-cluster: sbatch --wait failed"; }
  job=${job%%;*}
  results=results/stencil-$vendor-$job
  grep -q "staged (pinned host) *contents intact" "$results/preflight.txt" ||
    { cat "$results/preflight.txt"; fail "$vendor-cluster: no intact preflight in $results"; }
  reports=$(find "$results" -name '*.json' ! -name 'tuning-cache.json' | wc -l)
  [ "$reports" -eq 8 ] || fail "$vendor-cluster: $reports reports in $results, not 8 (weak and strong, 2 paths, 1 and 2 ranks)"
  [ -f "$results/scaling.md" ] || fail "$vendor-cluster: the collector wrote no scaling.md"
  echo "ok  $vendor-cluster job $job: preflight intact, 8 reports, collected"
  mv "$results" "$work/"
done
rmdir results 2>/dev/null || true

echo "== generic production.sbatch: a launch that ends with status 0 but ran nothing is a failure"
never=$work/never-ran
if (launch() { return 0; } && source jobscripts/common.sh && OUTPUT=$never stencil_production 2 --steps 1) 2>"$never.err"; then
  fail "production: a launcher that started no task was taken for a complete run"
fi
grep -q "does not say the run is complete" "$never.err" || { cat "$never.err"; fail "production: no reason given for a launch that ran nothing"; }
echo "ok  production: a launcher's status 0 without the run's record of completion is refused"

echo "== generic production.sbatch stopped by the time limit's warning: checkpoint, resubmission, same result"
# Slurm sends the warning of #SBATCH --signal=USR1@120 to the job's steps
# (not the batch shell) at a moment it promises only within a minute, so the
# test sends it the same way (scancel --signal=USR1) once the first job has
# written a checkpoint. The limit, 5 minutes, is far beyond the run (about
# 16 s of HOST work), so Slurm's own warning never comes: the first job must
# stop with a checkpoint and submit the second, which continues from it and
# must end with an uninterrupted run's checksum.
# shellcheck disable=SC2054 # the commas are inside the grid size
long=(--grid 64,64,64 --steps 90000 --radius 2 --checksum --quiet)
out=$work/production
first=$(OUTPUT=$out CHECKPOINT_EVERY=20000 MAX_ATTEMPTS=20 \
  sbatch --parsable -N 1 --ntasks-per-node=2 -t 5 -o "$work/%x-%j.out" \
  jobscripts/generic/production.sbatch "${long[@]}")
for _ in $(seq 1200); do
  compgen -G "$out/checkpoints/step_*[0-9]" >/dev/null && break
  sleep 0.1
done
compgen -G "$out/checkpoints/step_*[0-9]" >/dev/null || { scancel "$first"; fail "production: no checkpoint in 2 minutes"; }
scancel --signal=USR1 "$first"
mpirun --oversubscribe -np 2 build/miniapp/stencil-miniapp "${long[@]}" >"$work/uninterrupted.txt" 2>&1 ||
  fail "production: the uninterrupted run failed"
for _ in $(seq 600); do
  [ -n "$(squeue -h -n stencil-production -o %i)" ] || break
  sleep 1
done
[ -z "$(squeue -h -n stencil-production -o %i)" ] || { scancel -n stencil-production; fail "production: the jobs did not end in 10 minutes"; }
mapfile -t logs < <(ls -v "$work"/stencil-production-*.out)
[ "${#logs[@]}" -eq 2 ] || { cat "${logs[@]}"; fail "production: ${#logs[@]} jobs, not the stopped one and the one that continued"; }
for log in "${logs[@]::${#logs[@]}-1}"; do
  if ! grep -q "stopped by SIGUSR1 at step [0-9]*; checkpoint .*written" "$log" ||
    ! grep -q "^Submitted batch job" "$log"; then cat "$log"; fail "production: $log was not stopped and resubmitted"; fi
done
last=${logs[-1]}
grep -q "continues from the newest checkpoint" "$last" || { cat "$last"; fail "production: the last job did not restart"; }
a=$(grep '^checksum:' "$last" || true) b=$(grep '^checksum:' "$work/uninterrupted.txt" || true)
{ [ -n "$a" ] && [ "$a" = "$b" ]; } || { cat "$last"; fail "production: ${#logs[@]} jobs gave '$a', the uninterrupted run '$b'"; }
echo "ok  production: the first job stopped by SIGUSR1 with a checkpoint and resubmitted, the second continued; $a as uninterrupted"
echo "slurm job scripts ok"
