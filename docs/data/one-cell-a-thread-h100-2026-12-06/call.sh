#!/usr/bin/env bash
# Issues 67 and 69 on one GPU: this tree (the cells body one cell a thread;
# the sponge profile without a division) against main (ea53aec), built side
# by side. Two calls on one warm machine, builds kept between them:
#   bash docs/data/one-cell-a-thread-h100-2026-12-06/call.sh build bitwise probe tests
#   bash docs/data/one-cell-a-thread-h100-2026-12-06/call.sh runs shapes ncu
# and a third, on a fresh machine: plain stores against streaming ones,
#   bash docs/data/one-cell-a-thread-h100-2026-12-06/call.sh build3 stores
# and a fourth: the cells body asks the sponge and the source once a block,
#   bash docs/data/one-cell-a-thread-h100-2026-12-06/call.sh build4 lean
# and a fifth: the source's hull read in one go, against call 4's tree,
#   GUARD=250 bash docs/data/one-cell-a-thread-h100-2026-12-06/call.sh build5 hull
# Time budgets, in seconds from the start: a part starts only before
# $GUARD (default 480), and the tests stop at $LIMIT (default 570). A
# short table last;
# everything else under $OUT.
set -uo pipefail
source tools/gpu/common.sh
gpu_env
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
t0=$SECONDS
el() { echo "$((SECONDS - t0)) s"; }
parts=" ${*:-build bitwise probe tests runs shapes ncu} "
want() { [[ $parts == *" $1 "* ]] && [ $((SECONDS - t0)) -lt "${GUARD:-480}" ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv,noheader | tee "$OUT/gpu.txt"
need_mpi ob1
[ -d "$(mpi_root ob1)/install" ] || unpack_mpi ob1
mpihome=$(mpi_root ob1)/install
export LD_LIBRARY_PATH=$mpihome/lib:${LD_LIBRARY_PATH:-}
now=build-now/miniapp/stencil-miniapp before=build-before/miniapp/stencil-miniapp

if want build; then
  unpack_revision ea53aec /tmp/main-before
  [ -x $before ] || jobs=4 build_tree --mpi "$(mpi_root ob1)" /tmp/main-before build-before "$OUT/before" stencil-miniapp \
    -G Ninja -DSTENCIL_BUILD_BENCH=OFF "${revision_args[@]}" &
  jobs=12 build_tree --mpi "$(mpi_root ob1)" . build-now "$OUT/now" "" \
    -G Ninja -DSTENCIL_BUILD_TESTS=ON -DSTENCIL_BUILD_BENCH=OFF -DSTENCIL_RESOURCE_REPORT=ON &
  [ -x /tmp/smallbox ] || nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/smallbox \
    docs/data/small-boxes-h100-2026-12-06/smallbox.cu >"$OUT/probe-build.log" 2>&1 &
  wait
  echo "built: $(el)"
  python3 tools/resource-report.py cuda "$OUT/now-build.log" >"$OUT/resources-sm90.txt" || tail -3 "$OUT/resources-sm90.txt"
  grep -E "cell_box_kernel<4, float>" "$OUT/resources-sm90.txt"
fi

# Call 3: plain (cached) stores against streaming ones, the mini-app alone.
cached=build-cached/miniapp/stencil-miniapp
if want build3; then
  unpack_revision ea53aec /tmp/main-before
  [ -x $before ] || jobs=4 build_tree --mpi "$(mpi_root ob1)" /tmp/main-before build-before "$OUT/before" stencil-miniapp \
    -G Ninja -DSTENCIL_BUILD_BENCH=OFF "${revision_args[@]}" &
  jobs=6 build_tree --mpi "$(mpi_root ob1)" . build-now "$OUT/now" stencil-miniapp -G Ninja -DSTENCIL_BUILD_BENCH=OFF &
  jobs=6 build_tree --mpi "$(mpi_root ob1)" . build-cached "$OUT/cached" stencil-miniapp -G Ninja \
    -DSTENCIL_BUILD_BENCH=OFF -DCMAKE_CUDA_FLAGS=-DSTENCIL_CACHED_STORES &
  wait
  echo "built: $(el)"
fi

# Call 4: the cells body's blocks ask the sponge and the source once.
if want build4; then
  unpack_revision ea53aec /tmp/main-before
  [ -x $before ] || jobs=4 build_tree --mpi "$(mpi_root ob1)" /tmp/main-before build-before "$OUT/before" stencil-miniapp \
    -G Ninja -DSTENCIL_BUILD_BENCH=OFF "${revision_args[@]}" &
  jobs=12 build_tree --mpi "$(mpi_root ob1)" . build-now "$OUT/now" "stencil-miniapp stencil_kernel_tests" -G Ninja \
    -DSTENCIL_BUILD_TESTS=ON -DSTENCIL_BUILD_BENCH=OFF -DSTENCIL_RESOURCE_REPORT=ON &
  [ -x /tmp/smallbox ] || nvcc -O3 -arch=sm_90 -std=c++17 -lineinfo -o /tmp/smallbox \
    docs/data/small-boxes-h100-2026-12-06/smallbox.cu >"$OUT/probe-build.log" 2>&1 &
  wait
  echo "built: $(el)"
  python3 tools/resource-report.py cuda "$OUT/now-build.log" | grep -E "cell_box_kernel<4, float>"
  build-now/tests/stencil_kernel_tests --gtest_filter='*WaveKernel*' >"$OUT/wave-tests.log" 2>&1
  tail -3 "$OUT/wave-tests.log"
fi

# Call 5: the source's hull read in one go; B is call 4's tree (2e874a1).
prior=build-b/miniapp/stencil-miniapp
if want build5; then
  unpack_revision ea53aec /tmp/main-before
  [ -x $before ] || jobs=4 build_tree --mpi "$(mpi_root ob1)" /tmp/main-before build-before "$OUT/before" stencil-miniapp \
    -G Ninja -DSTENCIL_BUILD_BENCH=OFF "${revision_args[@]}" &
  unpack_revision 2e874a1 /tmp/tree-b
  jobs=4 build_tree --mpi "$(mpi_root ob1)" /tmp/tree-b build-b "$OUT/b" stencil-miniapp \
    -G Ninja -DSTENCIL_BUILD_BENCH=OFF "${revision_args[@]}" &
  jobs=8 build_tree --mpi "$(mpi_root ob1)" . build-now "$OUT/now" "stencil-miniapp stencil_kernel_tests" -G Ninja \
    -DSTENCIL_BUILD_TESTS=ON -DSTENCIL_BUILD_BENCH=OFF &
  wait
  echo "built: $(el)"
  build-now/tests/stencil_kernel_tests --gtest_filter='*WaveKernel*' >"$OUT/wave-tests.log" 2>&1
  tail -1 "$OUT/wave-tests.log"
fi

if want bitwise; then
  echo "== bitwise on the GPU: the update's forms, graphs (tests/*_test.sh under mpirun)"
  for t in update_forms graphs_bitwise; do
    if bash "tests/${t}_test.sh" "$mpihome/bin/mpirun" -np --mca pml ob1 --oversubscribe -x LD_LIBRARY_PATH -- \
      "$now" >"$OUT/$t.log" 2>&1; then
      echo "$t: $(grep -c 'same bits' "$OUT/$t.log") cases, same bits"
    else
      echo "$t: DIFFER"; grep -E "DIFFER|rror" "$OUT/$t.log" | head -3
    fi
  done
  echo "bitwise: $(el)"
fi

if want probe; then
  echo "== floor probe"
  /tmp/smallbox 3000 | tee "$OUT/smallbox.txt" | grep -E "graph, cell" | head -4
fi

if want tests; then
  echo "== GPU tests"
  # The kernels against the host reference, the step's bodies, graphs and
  # every --check run; stopped at the $LIMIT budget.
  (cd build-now && timeout $((${LIMIT:-570} - (SECONDS - t0))) ctest -j8 --timeout 240 \
    -R 'AllVariants|AllRadii|Radii|WaveBody|Physics|StepBoxes|Sponge|sponge|GraphRuns|check|Stored|Table|Merged' \
    >"$OUT/ctest.log" 2>&1)
  grep -E "tests passed|tests failed|\*\*\*Failed|Failed  |SKIPPED|Not Run" "$OUT/ctest.log" | head -20
  echo "tests: $(el)"
fi

run() { timeout 200 "$mpihome/bin/mpirun" --mca pml ob1 -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE "$@"; }
# Steps for at least 1.2 s of the faster tree's timed steps.
steps_for() { case $1 in 64) echo 360000 ;; 96) echo 170000 ;; 128) echo 80000 ;; 160) echo 40000 ;; 256) echo 10000 ;; 512) echo 1500 ;; esac; }
R=$OUT/runs
mkdir -p "$R"
common=(--radius 4 --comm none --warmup 20 --quiet)
one() { # one VARIANT N ROUND [ARGS...]
  local v=$1 n=$2 round=$3 app=$now
  shift 3
  [[ $v == before* ]] && app=$before
  [[ $v == cached* ]] && app=$cached
  [[ $v == b ]] && app=$prior
  run -np 1 "$app" --local "$n,$n,$n" --steps "$(steps_for "$n")" "${common[@]}" "$@" --label "$v" \
    --report "$R/$v-$n-r$round.json" >"$R/$v-$n-r$round.txt" 2>&1 || echo "FAILED $v $n r$round"
}
if want runs; then
  for round in 1 2; do
    for n in 64 96 128 512; do
      one before "$n" "$round"
      one now "$n" "$round"
    done
    one now-cells 128 "$round" --update cells
    one now-cells 160 "$round" --update cells
    one now 160 "$round"
    for n in 128 512; do
      one before-sponge "$n" "$round" --sponge 16
      one now-sponge "$n" "$round" --sponge 16
    done
    one before-sponge 64 "$round" --sponge 8
    one now-sponge 64 "$round" --sponge 8
  done
  echo "runs: $(el)"
fi

if want stores; then
  for round in 1 2; do
    for n in 64 96 128 160 256 512; do
      one before "$n" "$round"
      one now "$n" "$round"
      one cached "$n" "$round"
    done
    [ "$round" = 1 ] || continue
    for n in 96 128 160 256; do
      one now-cells-w1 "$n" 1 --update cells --window 1
      one cached-cells-w1 "$n" 1 --update cells --window 1
    done
    one cached-cells-w2 128 1 --update cells --window 2
    for n in 64 96; do one cached-tile "$n" 1 --update tile; done
    one cached-sponge 512 1 --sponge 16
    one now-sponge 512 1 --sponge 16
  done
  echo "stores: $(el)"
fi

if want lean; then
  for round in 1 2; do
    for n in 64 96 128; do
      one before "$n" "$round"
      one now "$n" "$round"
    done
  done
  for w in 1 2 4; do one "now-w$w" 64 1 --update cells --window "$w"; done
  for w in 1 2 4 8 16; do one "now-w$w" 96 1 --update cells --window "$w"; done
  for w in 4 8 16 32; do one "now-w$w" 128 1 --update cells --window "$w"; done
  echo "lean: $(el)"
  echo "== warm caches: the cells body and the probe's one cell a thread at 64^3 (ncu)"
  m=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,dram__bytes.sum
  ncu --clock-control none --cache-control none --metrics $m -k regex:cell_box --launch-skip 100 --launch-count 3 \
    "$now" --local 64,64,64 --steps 300 --warmup 0 --radius 4 --comm none --graphs off --quiet >"$OUT/ncu-warm-now.txt" 2>&1
  ncu --clock-control none --cache-control none --metrics $m -k regex:step_cell --launch-skip 100 --launch-count 3 \
    /tmp/smallbox 200 >"$OUT/ncu-warm-probe.txt" 2>&1
  for f in now probe; do echo "$f:"; grep -E "duration|inst_executed|registers|warps_active|hit_rate|dram__bytes" "$OUT/ncu-warm-$f.txt" | head -6; done
  echo "ncu: $(el)"
fi

if want hull; then
  for round in 1 2; do
    want hull || break
    for n in 64 96 128; do
      one before "$n" "$round"
      one b "$n" "$round"
      one now "$n" "$round"
    done
    python3 docs/data/small-boxes-h100-2026-12-06/table.py "$R" | tail -9
  done
  echo "hull: $(el)"
fi

if want shapes; then
  for shape in "64 4" "32 4" "128 2" "16 16" "32 16"; do
    read -r bx by <<<"$shape"
    one "now-${bx}x$by" 64 1 --update cells --block-x "$bx" --block-y "$by"
  done
  for w in 2 4; do one "now-w$w" 64 1 --update cells --window "$w"; done
  echo "shapes: $(el)"
fi

if want ncu; then
  echo "== the cells kernel's own time at 64^3 and 96^3 (ncu)"
  for n in 64 96; do
    ncu --clock-control none --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active \
      -k regex:cell_box --launch-skip 50 --launch-count 3 \
      "$now" --local "$n,$n,$n" --steps 200 --warmup 0 --radius 4 --comm none --graphs off --quiet \
      >"$OUT/ncu-$n.txt" 2>&1
    grep -E "gpu__time_duration|registers|warps_active" "$OUT/ncu-$n.txt" | head -9
  done
  echo "ncu: $(el)"
fi

if [ -n "$(ls "$R" 2>/dev/null)" ]; then
  python3 docs/data/small-boxes-h100-2026-12-06/table.py "$R" | tee "$OUT/table.txt"
  tar czf "$OUT/runs-$(date +%H%M%S).tgz" -C "$OUT" runs && rm -rf "$R"
fi
echo "total: $(el)"
