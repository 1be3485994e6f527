#!/usr/bin/env bash
# One GPU, 2026-12-06 (fifth session): which part of the cells body makes
# a 64^3 step twice the floor's (bodyprobe.cu beside the floor probe), the
# landed main's rows of issues 67 and 69 on this GPU, its kernels at 512^3,
# and the --check runs of the split simulation (issue 71). Two calls on one
# warm machine:
#   GUARD=330 bash docs/data/small-box-body-2026-12-06/call.sh build probes checks
#   NO_FLOOR=1 GUARD=400 bash docs/data/small-box-body-2026-12-06/call.sh build probes clock runs
#   GUARD=200 bash docs/data/small-box-body-2026-12-06/call.sh kernels
# then, on a fresh machine, call 3:
#   BEFORE_PATCH=small-box-step.patch GUARD=450 bash docs/data/small-box-body-2026-12-06/call.sh \
#     build probes checks step3
# and call 4, the landed tree against main:
#   NO_FLOOR=1 BEFORE_PATCH=landed-step.patch GUARD=300 bash docs/data/small-box-body-2026-12-06/call.sh \
#     build final
# and call 5, the source's hull by value against the tree before it:
#   GUARD=300 bash docs/data/small-box-body-2026-12-06/call.sh build5 hull
# (the second builds bodyprobe.cu again, which gained the mini-app's step
# structure after the first: a source, an event a step, a graph a step;
# and main before chunk-clock.patch, for the chunks timed by one event).
# A part starts only before $GUARD seconds (default 480). Everything under
# $OUT, a short table last.
set -uo pipefail
source tools/gpu/common.sh
gpu_env
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
t0=$SECONDS
el() { echo "$((SECONDS - t0)) s"; }
parts=" ${*:-build probes checks runs kernels} "
want() { [[ $parts == *" $1 "* ]] && [ $((SECONDS - t0)) -lt "${GUARD:-480}" ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv,noheader | tee "$OUT/gpu.txt"
need_mpi ob1
[ -d "$(mpi_root ob1)/install" ] || unpack_mpi ob1
mpihome=$(mpi_root ob1)/install
export LD_LIBRARY_PATH=$mpihome/lib:${LD_LIBRARY_PATH:-}
app=build-main/miniapp/stencil-miniapp bench=build-main/bench/stencil-bench
before=build-before/miniapp/stencil-miniapp
here=docs/data/small-box-body-2026-12-06

if want build; then
  if [ ! -x $app ] || [ ! -x $bench ]; then
    jobs=14 build_tree --mpi "$(mpi_root ob1)" . build-main "$OUT/main" "stencil-miniapp stencil-bench" \
      -G Ninja -DSTENCIL_BUILD_BENCH=ON &
  fi
  nvcc -O3 -arch=sm_90 -std=c++17 -I. -Ikernels -DSTENCIL_BACKEND_CUDA $here/bodyprobe.cu -o /tmp/bodyprobe \
    -Xptxas=-v >"$OUT/bodyprobe-build.log" 2>&1 &
  nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/smallbox docs/data/small-boxes-h100-2026-12-06/smallbox.cu \
    >"$OUT/smallbox-build.log" 2>&1 &
  # main before this session's change: this checkout's files (its git
  # index may be older) less $BEFORE_PATCH (call 2: chunk-clock.patch, the
  # chunks timed by one event; call 3: small-box-step.patch, all of it).
  if [ ! -x $before ]; then
    rm -rf /tmp/tree-before && mkdir -p /tmp/tree-before
    tar cf - --exclude='./build*' --exclude=./.deps --exclude=./.git . | tar xf - -C /tmp/tree-before
    (cd /tmp/tree-before && patch -R -p1 -s <"$here/${BEFORE_PATCH:-chunk-clock.patch}") &&
      jobs=8 build_tree --mpi "$(mpi_root ob1)" /tmp/tree-before build-before "$OUT/before" stencil-miniapp \
        -G Ninja -DSTENCIL_BUILD_BENCH=OFF &
  fi
  wait
  echo "built: $(el)"
fi

# Call 5: the source's hull by value (source-hull.patch) against the tree
# before it, the kernels' tests of the source built too.
if want build5; then
  rm -rf /tmp/tree-before && mkdir -p /tmp/tree-before
  tar cf - --exclude='./build*' --exclude=./.deps --exclude=./.git . | tar xf - -C /tmp/tree-before
  (cd /tmp/tree-before && patch -R -p1 -s <"$here/source-hull.patch") &&
    jobs=6 build_tree --mpi "$(mpi_root ob1)" /tmp/tree-before build-before "$OUT/before" stencil-miniapp \
      -G Ninja -DSTENCIL_BUILD_BENCH=OFF &
  jobs=10 build_tree --mpi "$(mpi_root ob1)" . build-main "$OUT/main" "stencil-miniapp stencil_kernel_tests" \
    -G Ninja -DSTENCIL_BUILD_BENCH=OFF -DSTENCIL_BUILD_TESTS=ON &
  wait
  echo "built: $(el)"
  build-main/tests/stencil_kernel_tests --gtest_filter='*UpdateAddsTheSource*' >"$OUT/source-tests.log" 2>&1
  tail -1 "$OUT/source-tests.log"
  for t in ${BITWISE:-}; do # update_forms graphs_bitwise, where time allows
    if bash "tests/${t}_test.sh" "$mpihome/bin/mpirun" -np --mca pml ob1 --oversubscribe -x LD_LIBRARY_PATH -- \
      "$app" >"$OUT/$t.log" 2>&1; then
      echo "$t: $(grep -c 'same bits' "$OUT/$t.log") cases, same bits"
    else
      echo "$t: DIFFER"; grep -E "DIFFER|rror" "$OUT/$t.log" | head -3
    fi
  done
fi

if want probes; then
  echo "== the cells body against the floor (graphs of 3000 steps, best of 3)"
  /tmp/bodyprobe 3000 | tee "$OUT/bodyprobe.txt"
  if [ -z "${NO_FLOOR:-}" ]; then
    /tmp/smallbox 3000 >"$OUT/smallbox.txt"
    grep -E "graph, cell" "$OUT/smallbox.txt" | head -3
  fi
  echo "probes: $(el)"
fi

mpi() { timeout 200 "$mpihome/bin/mpirun" --mca pml ob1 --oversubscribe -x LD_LIBRARY_PATH "$@"; }
if want checks; then
  echo "== --check of the split simulation: --comm none, peer, auto, staged MPI"
  chk() {
    local np=$1; shift
    printf 'np=%s %s :: ' "$np" "$*"
    mpi -np "$np" $app --quiet --check --checksum --steps 30 "$@" 2>&1 | tee -a "$OUT/checks.log" |
      grep -iE "check|refus|error|differ" | tr '\n' ' ' | cut -c1-200
    echo
  }
  chk 1 --grid 70,55,48 --comm none --radius 4
  chk 1 --grid 70,55,48 --comm none --radius 8 --precision fp64 --sponge 6
  chk 4 --grid 64,64,64 --procs 2,2,1 --comm peer --radius 4 --periodic x,y,z
  chk 4 --grid 90,77,52 --procs 1,2,2 --comm peer --radius 5 --periodic y
  chk 2 --grid 70,55,48 --procs 1,2,1 --comm auto --radius 4 --periodic y
  chk 4 --grid 80,70,60 --procs 2,2,1 --comm gpu-aware --radius 3 --overlap off
  chk 2 --grid 96,64,50 --procs 2,1,1 --comm peer --radius 4 --inject-fault peer-wrong-level
  for t in update_forms graphs_bitwise; do
    if bash "tests/${t}_test.sh" "$mpihome/bin/mpirun" -np --mca pml ob1 --oversubscribe -x LD_LIBRARY_PATH -- \
      "$app" >"$OUT/$t.log" 2>&1; then
      echo "$t: $(grep -c 'same bits' "$OUT/$t.log") cases, same bits"
    else
      echo "$t: DIFFER"; grep -E "DIFFER|rror" "$OUT/$t.log" | head -3
    fi
  done
  echo "checks: $(el)"
fi

# Steps for at least 1.2 s of timed steps on an H100 or H200.
steps_for() { case $1 in 64) echo 300000 ;; 96) echo 160000 ;; 128) echo 100000 ;; 512) echo 2200 ;; esac; }
R=$OUT/runs
mkdir -p "$R"
one() { # one VARIANT N ROUND [ARGS...]; a variant named before* runs main before the clock change
  local v=$1 n=$2 round=$3 exe=$app
  shift 3
  [[ $v == before* ]] && exe=$before
  mpi -np 1 $exe --local "$n,$n,$n" --steps "$(steps_for "$n")" --radius 4 --warmup 20 --quiet --comm none "$@" \
    --label "$v" --report "$R/$v-$n-r$round.json" >"$R/$v-$n-r$round.txt" 2>&1 || echo "FAILED $v $n r$round"
}
if want runs; then
  for round in 1 2; do
    want runs || break
    for n in 64 96 128 512; do one main "$n" "$round"; done
    one tile 64 "$round" --update tile
    one spg4 64 "$round" --steps-per-graph 4
    one nographs 64 "$round" --graphs off
    one sponge16 128 "$round" --sponge 16
    one sponge8 128 "$round" --sponge 8
    one sponge16 512 "$round" --sponge 16
    one ahead2 512 "$round" --planes-ahead 2
  done
  for n in 128 512; do one periodic "$n" 1 --periodic x,y,z; done
  echo "runs: $(el)"
fi

if want clock; then
  for round in 1 2; do
    want clock || break
    for n in 64 96 128; do
      one before-spg4 "$n" "$round" --steps-per-graph 4
      one now-spg1 "$n" "$round" --steps-per-graph 1
      one now-spg4 "$n" "$round" --steps-per-graph 4
    done
  done
  echo "clock: $(el)"
fi

# Call 3: main against this session's step (chunks of 4 by default, timed
# by one event; the source asked before the loads), with the NaN check off
# and with one step a graph beside it.
if want step3; then
  for round in 1 2; do
    want step3 || break
    for n in 64 96 128; do
      one before "$n" "$round"
      one now "$n" "$round"
      one now-nan0 "$n" "$round" --nan-check 0
      one now-spg1 "$n" "$round" --steps-per-graph 1
    done
    one before 512 "$round"
    one now 512 "$round"
  done
  one before-periodic 128 1 --periodic x,y,z
  one now-periodic 128 1 --periodic x,y,z
  echo "step3: $(el)"
fi

# Call 5 (after build5): the hull by value against the tree before it.
if want hull; then
  for round in 1 2; do
    want hull || break
    for n in 64 96 128; do
      one before "$n" "$round"
      one now "$n" "$round"
    done
  done
  echo "hull: $(el)"
fi

# Call 4: main against the landed tree (landed-step.patch: call 3's less
# the hull asked first), and the landed tree without NaN checks.
if want final; then
  for round in 1 2; do
    want final || break
    for n in 64 96 128; do
      one before "$n" "$round"
      one now "$n" "$round"
      one now-nan0 "$n" "$round" --nan-check 0
    done
  done
  echo "final: $(el)"
fi

if want kernels; then
  echo "== kernels at 512^3, % of the same run's copy"
  $bench --sizes=512 --radii=1,4,8 --precision=fp32 --variants=wave,fused_xyz --ahead=1,2 --benchmark_min_time=0.5 \
    --benchmark_out="$OUT/bench32.json" --benchmark_out_format=json >"$OUT/bench32.log" 2>&1 || tail -3 "$OUT/bench32.log"
  $bench --sizes=512 --radii=4 --precision=fp64 --variants=wave,fused_xyz --ahead=1,2 --benchmark_min_time=0.5 \
    --benchmark_out="$OUT/bench64.json" --benchmark_out_format=json >"$OUT/bench64.log" 2>&1 || tail -3 "$OUT/bench64.log"
  python3 tools/report-table.py bench "$OUT/bench32.json" "$OUT/bench64.json" 2>&1 | head -30
  echo "kernels: $(el)"
fi

if [ -n "$(ls "$R" 2>/dev/null)" ]; then
  python3 docs/data/small-boxes-h100-2026-12-06/table.py "$R" | tee "$OUT/table.txt"
  tar czf "$OUT/runs-$(date +%H%M%S).tgz" -C "$OUT" runs && rm -rf "$R"
fi
echo "total: $(el)"
