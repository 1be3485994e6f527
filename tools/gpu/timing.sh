# shellcheck shell=bash disable=SC2154 # revision_args: tools/offline-deps.sh's
# Whether the mini-app's timings hold on a node of several GPUs: builds the
# CUDA back-end against the CUDA-aware Open MPI in .deps/
# (tools/prepare-offline-deps.sh ARCHIVE), then any of
#   --agreement N    N rounds of the same problems at 200 and at 2,000 timed
#                    steps (forced overlap on, depth 1, separate pack, so
#                    that no trial choice differs between them): 512^3 per
#                    GPU split 1x1x2, 2x2x1 and 2x2x1 periodic, and 256^3
#                    strong on 2 and 4 GPUs. With aligned windows they agree.
#   --auto-matrix    each auto choice (--overlap, --pack, --halo-depth)
#                    against every forced one, on 2 and 4 GPUs, strong 256^3
#                    and 512^3, weak 128^3 and 512^3, gpu-aware and NCCL
#   --matrix-only RE the matrix's cases whose name (matrix-PROBLEM-nGPUS-COMM,
#                    e.g. matrix-w128-n4-nccl) matches the regex RE
#   --calibration    the projection's inputs (jobscripts/project.py): one
#                    GPU's --comm none sweep at 64-512^3 and the shell bench,
#                    two GPUs split along x (64^3, 128^3 and 512^3),
#                    stencil-halo-bench on two GPUs
#   --against REV    also builds REV (a revision, or a folder holding its
#                    tree) and runs its 200-step agreement runs beside this
#                    tree's, as the baseline
# Runs with fewer GPUs than a case needs are left out and named. Reports
# go to $OUT/timing (OUT default .out), tables last
# (tools/report-table.py timing).
#
# usage: tools/gpu.sh timing [--agreement N] [--auto-matrix | --matrix-only RE] [--calibration]
#                            [--against REV]

timing_settings() { echo rounds matrix matrix_only calibration against; } # what --dry-run prints
timing_options() {
  rounds=0 matrix=0 matrix_only=. calibration=0 against=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --agreement) value "$1" $#; rounds=$2; shift ;;
      --auto-matrix) matrix=1 ;;
      --matrix-only) value "$1" $#; matrix=1 matrix_only=$2; shift ;;
      --calibration) calibration=1 ;;
      --against) value "$1" $#; against=$2; shift ;;
      *) other_option "$1" ;;
    esac
    shift
  done
  [[ $rounds =~ ^[0-9]+$ ]] || die "--agreement takes a number of rounds, not '$rounds'"
}

timing_main() {
  need_mpi ob1
  OUT=${OUT:-$PWD/.out}/timing
  mkdir -p "$OUT/reports"
  mpi=/tmp/gpumpi
  unpack_mpi ob1
  export LD_LIBRARY_PATH=$mpi/install/lib:${LD_LIBRARY_PATH:-}
  gpus=$(nvidia-smi -L | grep -c '^GPU')
  nvidia-smi -L >"$OUT/gpus.txt"
  nvidia-smi topo -m >"$OUT/topology.txt" 2>&1 || true
  start=$(date +%s)
  timing_builds
  echo "builds: $(($(date +%s) - start)) s"
  local round name ranks args steps
  for round in $(seq 1 "$rounds"); do
    while read -r name ranks args; do
      # shellcheck disable=SC2086 # the case's arguments are words
      for steps in 200 2000; do trun now "$ranks" "agree-$name-$steps-r$round" $args --steps $steps "${forced[@]}"; done
      # shellcheck disable=SC2086
      [ -z "$against" ] || trun before "$ranks" "before-$name-200-r$round" $args --steps 200 "${forced[@]}"
    done < <(agreement_cases)
  done
  [ "$rounds" = 0 ] || echo "agreement: $(($(date +%s) - start)) s"
  [ "$matrix" = 0 ] || timing_matrix
  [ "$calibration" = 0 ] || timing_calibration
  local archived=(reports)
  [ "$calibration" = 0 ] || archived+=(calibration)
  tar czf "$OUT/reports.tgz" -C "$OUT" "${archived[@]}"
  [ ! -f "$OUT/not-run.txt" ] || echo "not run (more GPUs than the node's $gpus): $(wc -l <"$OUT/not-run.txt") runs"
  python3 tools/report-table.py timing "$OUT/reports"
}

# timing_builds: this tree, and REV's (--against) beside it.
timing_builds() {
  local before job
  build_tree --mpi "$mpi" . build-timing "$OUT/build-timing" "stencil-miniapp stencil-halo-bench stencil-bench" -G Ninja &
  if [ -n "$against" ]; then
    before=$against
    if [ ! -d "$against" ]; then # a revision: its tree, from git
      before=/tmp/timing-before
      unpack_revision "$against" "$before" || exit 1
    fi
    build_tree --mpi "$mpi" "$before" build-timing-before "$OUT/build-timing-before" \
      "stencil-miniapp stencil-halo-bench" -G Ninja "${revision_args[@]}" &
  fi
  for job in $(jobs -p); do wait "$job" || exit 1; done
}

# trun TREE RANKS NAME ARGS...: one mini-app run, its report and log in $OUT/reports.
trun() {
  local tree=$1 ranks=$2 name=$3
  shift 3
  local app=build-timing/miniapp/stencil-miniapp
  [ "$tree" = before ] && app=build-timing-before/miniapp/stencil-miniapp
  if [ "$ranks" -gt "$gpus" ]; then echo "$name" >>"$OUT/not-run.txt"; return; fi
  timeout 300 "$mpi/install/bin/mpirun" --mca pml ob1 -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -np "$ranks" </dev/null \
    "$app" --radius 4 --warmup 20 --quiet --label "$name" --report "$OUT/reports/$name.json" "$@" \
    >"$OUT/reports/$name.log" 2>&1 || echo "FAILED: $name (exit $?)"
}

forced=(--overlap on --halo-depth 1 --pack separate)
# The agreement's cases: NAME RANKS ARGS (one line each).
agreement_cases() {
  cat <<'CASES'
w512-1x1x2 2 --local 512,512,512 --procs 1,1,2
s256-2 2 --grid 256,256,256
w512-2x2x1 4 --local 512,512,512 --procs 2,2,1
w512-2x2x1-periodic 4 --local 512,512,512 --procs 2,2,1 --periodic x,y,z
s256-4 4 --grid 256,256,256
CASES
}

# The matrix's problems: NAME GRID-ARGS STEPS-AT-2-GPUS STEPS-AT-4 (at
# least 0.6 s timed on H200s: runs of 0.3 s differed by 5% between two runs
# of one setting; strong 256^3 on four GPUs about 1.3 s on H100s).
matrix_problems() {
  cat <<'PROBLEMS'
s256 --grid=256,256,256 10000 20000
s512 --grid=512,512,512 2000 3000
w128 --local=128,128,128 18000 14000
w512 --local=512,512,512 900 900
PROBLEMS
}

timing_matrix() {
  local ranks problem grid steps2 steps4 steps comm m k common
  for ranks in 2 4; do
    while read -r problem grid steps2 steps4; do
      steps=$([ "$ranks" = 2 ] && echo "$steps2" || echo "$steps4")
      for comm in gpu-aware nccl; do
        m="matrix-$problem-n$ranks-$comm"
        [[ $m =~ $matrix_only ]] || continue
        common=("$grid" --steps "$steps" --comm "$comm")
        trun now "$ranks" "$m-auto" "${common[@]}"
        trun now "$ranks" "$m-off" "${common[@]}" --overlap off --halo-depth 1
        trun now "$ranks" "$m-on-fused" "${common[@]}" --overlap on --halo-depth 1 --pack fused
        trun now "$ranks" "$m-on-separate" "${common[@]}" --overlap on --halo-depth 1 --pack separate
        for k in 2 4; do
          [ "$problem" = w512 ] && [ "$k" = 4 ] && continue # 512^3 boxes hide their exchange
          trun now "$ranks" "$m-on-k$k" "${common[@]}" --overlap on --halo-depth "$k"
          trun now "$ranks" "$m-off-k$k" "${common[@]}" --overlap off --halo-depth "$k"
        done
      done
    done < <(matrix_problems)
  done
  echo "auto matrix: $(($(date +%s) - start)) s"
}

timing_calibration() {
  local cal=$OUT/calibration n overlap
  mkdir -p "$cal/sweep" "$cal/host" "$cal/scaling"
  # Steps for about a second at each size on an H100 (11 us at 64^3, 0.84 ms at 512^3).
  local -A steps=([64]=100000 [96]=60000 [128]=60000 [192]=20000 [256]=10000 [384]=3000 [512]=1500)
  for n in 64 96 128 192 256 384 512; do
    trun now 1 "sweep-$n" --local "$n,$n,$n" --steps "${steps[$n]}" --comm none
    cp "$OUT/reports/sweep-$n.json" "$cal/sweep/" || true
  done
  # The host's cost per exchange: two GPUs along x at small boxes, where it
  # shows beside the kernel (jobscripts/calibration.py, _host_from).
  for n in 64 128; do
    for overlap in off on; do
      trun now 2 "host-along-x-$n-$overlap" --local "$n,$n,$n" --procs 2,1,1 --steps 20000 \
        --comm gpu-aware --overlap "$overlap" --halo-depth 1 --pack separate
      cp "$OUT/reports/host-along-x-$n-$overlap.json" "$cal/host/" || true
    done
  done
  for overlap in on off; do
    trun now 2 "weak-along-x-gpu-aware-overlap-$overlap-n2" --local 512,512,512 --procs 2,1,1 --steps 400 \
      --comm gpu-aware --overlap "$overlap" --halo-depth 1 --pack separate
    trun now 2 "strong-along-x-gpu-aware-overlap-$overlap-n2" --grid 512,512,512 --procs 2,1,1 --steps 800 \
      --comm gpu-aware --overlap "$overlap" --halo-depth 1 --pack separate
  done
  cp "$OUT"/reports/*along-x*-n2.json "$cal/scaling/" || true
  timeout 300 "$mpi/install/bin/mpirun" --mca pml ob1 -x LD_LIBRARY_PATH -np 2 \
    build-timing/bench/stencil-halo-bench --sizes 64,128,256,512 --radius 4 --modes gpu-aware --depths 1 \
    >"$cal/halo-bench-gpu-aware.txt" 2>&1 || echo "FAILED: stencil-halo-bench"
  # The shell: the slabs and the interior they leave, over the whole box,
  # on one GPU (a lone periodic rank runs one kernel a step, no slabs).
  timeout 300 build-timing/bench/stencil-bench --sizes=64,96,128,192,256,384,512 --radii=4 --precision=fp32 \
    --variants=wave,shell --benchmark_filter='^(wave|shell_inner|shell_slabs)/' --benchmark_min_time=0.5 \
    --benchmark_out="$cal/shell-bench.json" >"$cal/shell-bench.txt" 2>&1 || echo "FAILED: stencil-bench shell"
  echo "calibration: $(($(date +%s) - start)) s"
}
