#!/usr/bin/env bash
# Issue 67 on one GPU: the tile adds the source after its walk (this tree,
# tile-source.patch applied) against main (9fa5fd2), built side by side.
# Two calls on one warm machine:
#   LIMIT=420 bash docs/data/tile-source-2026-12-06/call.sh build tests bitwise
#   GUARD=450 bash docs/data/tile-source-2026-12-06/call.sh probe runs periodic
# and a third on a fresh machine, with hull-before-walk.patch (files.tar.xz)
# applied to this tree and copied to the folder: the hull asked before the
# walk against after it (24b6751) and main, and the new test with the
# addition planted out of the tile (it must fail):
#   GUARD=380 bash docs/data/tile-source-2026-12-06/call.sh build2 planted bitwise early
# which could not unpack 24b6751 there, so a fourth on the same machine:
#   GUARD=200 bash docs/data/tile-source-2026-12-06/call.sh build4 planted late
# A part starts only before $GUARD seconds (default 480); the tests stop at
# $LIMIT (default 400). A short table last; everything else under $OUT.
set -uo pipefail
source tools/gpu/common.sh
gpu_env
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
t0=$SECONDS
el() { echo "$((SECONDS - t0)) s"; }
parts=" ${*:-build tests bitwise probe runs periodic} "
want() { [[ $parts == *" $1 "* ]] && [ $((SECONDS - t0)) -lt "${GUARD:-480}" ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv,noheader | tee "$OUT/gpu.txt"
need_mpi ob1
[ -d "$(mpi_root ob1)/install" ] || unpack_mpi ob1
mpihome=$(mpi_root ob1)/install
export LD_LIBRARY_PATH=$mpihome/lib:${LD_LIBRARY_PATH:-}
now=build-now/miniapp/stencil-miniapp before=build-before/miniapp/stencil-miniapp

if want build; then
  unpack_revision 9fa5fd2 /tmp/main-before
  [ -x $before ] || jobs=4 build_tree --mpi "$(mpi_root ob1)" /tmp/main-before build-before "$OUT/before" stencil-miniapp \
    -G Ninja -DSTENCIL_BUILD_BENCH=OFF "${revision_args[@]}" &
  jobs=12 build_tree --mpi "$(mpi_root ob1)" . build-now "$OUT/now" "" \
    -G Ninja -DSTENCIL_BUILD_TESTS=ON -DSTENCIL_BUILD_BENCH=OFF -DSTENCIL_RESOURCE_REPORT=ON &
  [ -x /tmp/smallbox ] || nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/smallbox \
    docs/data/small-boxes-h100-2026-12-06/smallbox.cu >"$OUT/probe-build.log" 2>&1 &
  wait
  echo "built: $(el)"
  python3 tools/resource-report.py cuda "$OUT/now-build.log" >"$OUT/resources-sm90.txt" || tail -3 "$OUT/resources-sm90.txt"
fi

# Call 3: B is the tile adding the source with the hull asked after the
# walk (24b6751); P the same with the addition planted out.
late=build-late/miniapp/stencil-miniapp
if want build2; then
  unpack_revision 9fa5fd2 /tmp/main-before
  [ -x $before ] || jobs=3 build_tree --mpi "$(mpi_root ob1)" /tmp/main-before build-before "$OUT/before" stencil-miniapp \
    -G Ninja -DSTENCIL_BUILD_BENCH=OFF "${revision_args[@]}" &
  unpack_revision 24b6751 /tmp/tree-late
  jobs=3 build_tree --mpi "$(mpi_root ob1)" /tmp/tree-late build-late "$OUT/late" stencil-miniapp \
    -G Ninja -DSTENCIL_BUILD_BENCH=OFF "${revision_args[@]}" &
  unpack_revision 24b6751 /tmp/tree-planted
  sed -i 's/if (source && x_stores && source->meets(mine))/if (false)/' /tmp/tree-planted/kernels/fused_walk.hpp
  grep -c "if (false)" /tmp/tree-planted/kernels/fused_walk.hpp
  jobs=4 build_tree --mpi "$(mpi_root ob1)" /tmp/tree-planted build-planted "$OUT/planted" stencil_kernel_tests \
    -G Ninja -DSTENCIL_BUILD_TESTS=ON -DSTENCIL_BUILD_BENCH=OFF &
  jobs=6 build_tree --mpi "$(mpi_root ob1)" . build-now "$OUT/now" "stencil-miniapp stencil_kernel_tests" \
    -G Ninja -DSTENCIL_BUILD_TESTS=ON -DSTENCIL_BUILD_BENCH=OFF -DSTENCIL_RESOURCE_REPORT=ON &
  wait
  echo "built: $(el)"
  python3 tools/resource-report.py cuda "$OUT/now-build.log" | grep -E "^(fused_kernel|stored_wave_kernel)<4, float, (true, )?1, " | tee "$OUT/resources-r4.txt"
  build-now/tests/stencil_kernel_tests --gtest_filter='*WaveKernel*:*Merged*' >"$OUT/wave-tests.log" 2>&1
  tail -1 "$OUT/wave-tests.log"
fi

# Call 4: the same as call 3, with the comparison trees made from this
# checkout's files (a revision after the session's start could not be
# unpacked there): L, the hull asked after the walk (the landed tile), P
# the same with the addition removed. Run with the hull patch applied.
if want build4; then
  unpack_revision 9fa5fd2 /tmp/main-before
  [ -x $before ] || jobs=4 build_tree --mpi "$(mpi_root ob1)" /tmp/main-before build-before "$OUT/before" stencil-miniapp \
    -G Ninja -DSTENCIL_BUILD_BENCH=OFF "${revision_args[@]}" &
  # This checkout's files as they are (its git index may be older), less
  # the hull patch.
  rm -rf /tmp/tree-late /tmp/tree-planted && mkdir -p /tmp/tree-late
  tar cf - --exclude='./build*' --exclude=./.deps --exclude=./.git . | tar xf - -C /tmp/tree-late
  (cd /tmp/tree-late && patch -R -p1 -s <docs/data/tile-source-2026-12-06/hull-before-walk.patch)
  cp -r /tmp/tree-late /tmp/tree-planted
  sed -i 's/if (source && x_stores && source->meets(mine))/if (false)/' /tmp/tree-planted/kernels/fused_walk.hpp
  echo "planted: $(grep -c 'if (false)' /tmp/tree-planted/kernels/fused_walk.hpp) line"
  jobs=8 build_tree --mpi "$(mpi_root ob1)" /tmp/tree-late build-late "$OUT/late" stencil-miniapp -G Ninja -DSTENCIL_BUILD_BENCH=OFF &
  jobs=8 build_tree --mpi "$(mpi_root ob1)" /tmp/tree-planted build-planted "$OUT/planted" stencil_kernel_tests \
    -G Ninja -DSTENCIL_BUILD_TESTS=ON -DSTENCIL_BUILD_BENCH=OFF &
  [ -x $now ] || jobs=4 build_tree --mpi "$(mpi_root ob1)" . build-now "$OUT/now" stencil-miniapp -G Ninja -DSTENCIL_BUILD_BENCH=OFF &
  wait
  echo "built: $(el)"
fi

if want planted; then
  echo "== the addition planted out of the tile: the test must fail"
  build-planted/tests/stencil_kernel_tests --gtest_filter='*UpdateAddsTheSource*' >"$OUT/planted.log" 2>&1
  echo "planted: exit $?, $(grep -o '^\[  FAILED  \] [^ ,]*UpdateAddsTheSource[^ ,]*' "$OUT/planted.log" | sort -u | wc -l) of 16 cases failed"
fi

if want tests; then
  echo "== GPU tests"
  # The kernels against the host reference and against the source's own
  # launch, the step's bodies, graphs and every --check run (the sponge's
  # included); stopped at the $LIMIT budget.
  (cd build-now && timeout $((${LIMIT:-400} - (SECONDS - t0))) ctest -j8 --timeout 240 \
    -R 'WaveKernel|Merged|AllVariants|AllRadii|Radii|WaveBody|Physics|StepBoxes|Sponge|sponge|GraphRuns|check|Stored|Table' \
    >"$OUT/ctest.log" 2>&1)
  grep -E "tests passed|tests failed|\*\*\*Failed|Failed  |SKIPPED|Not Run" "$OUT/ctest.log" | head -20
  echo "tests: $(el)"
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

run() { timeout 200 "$mpihome/bin/mpirun" --mca pml ob1 -x LD_LIBRARY_PATH "$@"; }
# Steps for at least 1.2 s of the faster tree's timed steps.
steps_for() { case $1 in 64) echo 300000 ;; 96) echo 150000 ;; 128) echo 90000 ;; 160) echo 30000 ;; 256) echo 11000 ;; 512) echo 1500 ;; esac; }
R=$OUT/runs
mkdir -p "$R"
common=(--radius 4 --warmup 20 --quiet)
one() { # one VARIANT N ROUND [ARGS...]; a variant named before* runs main.
  local v=$1 n=$2 round=$3 app=$now
  shift 3
  [[ $v == before* ]] && app=$before
  [[ $v == late* ]] && app=$late
  run -np 1 "$app" --local "$n,$n,$n" --steps "$(steps_for "$n")" "${common[@]}" "$@" --label "$v" \
    --report "$R/$v-$n-r$round.json" >"$R/$v-$n-r$round.txt" 2>&1 || echo "FAILED $v $n r$round"
}
if want runs; then
  for round in 1 2; do
    want runs || break
    for n in 64 96 128 160 256 512; do
      one before "$n" "$round" --comm none
      one now "$n" "$round" --comm none
    done
    for n in 64 96; do
      one before-tile "$n" "$round" --comm none --update tile
      one now-tile "$n" "$round" --comm none --update tile
    done
    one before-sponge 128 "$round" --comm none --sponge 16
    one now-sponge 128 "$round" --comm none --sponge 16
  done
  echo "runs: $(el)"
fi

if want late; then # call 4's short round
  for v in late now; do one "$v" 128 1 --comm none; one "$v-tile" 64 1 --comm none --update tile; done
fi

if want early; then
  for round in 1 2; do
    want early || break
    for n in 128 160 256; do
      for v in before late now; do one "$v" "$n" "$round" --comm none; done
    done
    for n in 64 96; do
      for v in before late now; do one "$v-tile" "$n" "$round" --comm none --update tile; done
    done
  done
  echo "early: $(el)"
fi

if want periodic; then
  for n in 128 512; do
    one before-periodic "$n" 1 --periodic x,y,z
    one now-periodic "$n" 1 --periodic x,y,z
  done
  echo "periodic: $(el)"
fi

if [ -n "$(ls "$R" 2>/dev/null)" ]; then
  python3 docs/data/small-boxes-h100-2026-12-06/table.py "$R" | tee "$OUT/table.txt"
  tar czf "$OUT/runs-$(date +%H%M%S).tgz" -C "$OUT" runs && rm -rf "$R"
fi
echo "total: $(el)"
