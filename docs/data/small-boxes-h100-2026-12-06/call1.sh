#!/usr/bin/env bash
# Issue 67 on one GPU, in one call: this tree and main (6d5e744) built side
# by side, the GPU tests of the cells body and the chunked steps, the
# small-box floor probe, then the mini-app at 64^3 to 512^3 in four forms,
# interleaved over two rounds, periodic x,y,z at 128^3 and 512^3, the tuner
# at 64^3, and the cells kernel's own time (Nsight Compute). A short table
# last; everything else under $OUT. Parts run in order while the call has
# time left (a part starts only before $GUARD s, default 500); builds already made are kept.
# usage: bash docs/data/small-boxes-h100-2026-12-06/call1.sh [PART...]
#        parts: build tests bitwise probe round1 periodic round2 tuner ncu (default all);
#        TESTS=OFF builds the mini-app alone
set -uo pipefail
source tools/gpu/common.sh
gpu_env
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
t0=$SECONDS
el() { echo "$((SECONDS - t0)) s"; }
parts=" ${*:-build tests bitwise probe round1 periodic round2 tuner ncu} "
want() { [[ $parts == *" $1 "* ]] && [ $((SECONDS - t0)) -lt "${GUARD:-500}" ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv,noheader | tee "$OUT/gpu.txt"
need_mpi ob1
unpack_mpi ob1
mpihome=$(mpi_root ob1)/install
export LD_LIBRARY_PATH=$mpihome/lib:${LD_LIBRARY_PATH:-}
now=build-now/miniapp/stencil-miniapp before=build-before/miniapp/stencil-miniapp
if want build; then
  unpack_revision 6d5e744 /tmp/main-before
  [ -x $before ] || jobs=4 build_tree --mpi "$(mpi_root ob1)" /tmp/main-before build-before "$OUT/before" stencil-miniapp \
    -G Ninja -DSTENCIL_BUILD_BENCH=OFF "${revision_args[@]}" &
  # TESTS=OFF builds the mini-app alone (the bitwise part needs no more).
  jobs=12 build_tree --mpi "$(mpi_root ob1)" . build-now "$OUT/now" "$([ "${TESTS:-ON}" = ON ] || echo stencil-miniapp)" \
    -G Ninja -DSTENCIL_BUILD_TESTS="${TESTS:-ON}" -DSTENCIL_BUILD_BENCH=OFF -DSTENCIL_RESOURCE_REPORT=ON &
  [ -x /tmp/smallbox ] || nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/smallbox \
    docs/data/small-boxes-h100-2026-12-06/smallbox.cu >"$OUT/probe-build.log" 2>&1 &
  wait
  echo "built: $(el)"
  python3 tools/resource-report.py cuda "$OUT/now-build.log" >"$OUT/resources-sm90.txt" || tail -3 "$OUT/resources-sm90.txt"
  grep -E "cell_box_kernel" "$OUT/resources-sm90.txt" | head -4
fi
run() { timeout 200 "$mpihome/bin/mpirun" --mca pml ob1 -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE "$@"; }

if want tests; then
echo "== GPU tests"
(cd build-now && ctest -j8 --timeout 200 -R 'WaveKernel|LaunchShape|StoredFaces|TunedShape|update_forms|graphs_bitwise|mpi_check_np1|Physics|MergedLaunches|Tuner|peer_' \
  >"$OUT/ctest.log" 2>&1)
grep -E "tests passed|tests failed|\*\*\*Failed|Failed  " "$OUT/ctest.log" | head -12
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
  /tmp/smallbox 3000 | tee "$OUT/smallbox.txt" | grep -E "graph, cell|coop 1" | head -8
fi

steps_for() { case $1 in 64) echo 200000 ;; 96) echo 150000 ;; 128) echo 70000 ;; 256) echo 9000 ;; 512) echo 1400 ;; esac; }
R=$OUT/runs
mkdir -p "$R"
common=(--radius 4 --comm none --warmup 20 --quiet)
for round in 1 2; do
  want "round$round" || continue
  variants="before now tile spg1"
  [ "$round" = 1 ] || variants="now before"
  for n in 64 96 128 512; do
    st=$(steps_for "$n")
    for v in $variants; do
      app=$now extra=()
      case $v in before) app=$before ;; tile) extra=(--update tile) ;; spg1) extra=(--steps-per-graph 1) ;; esac
      run -np 1 "$app" --local "$n,$n,$n" --steps "$st" "${common[@]}" "${extra[@]}" --label "$v" \
        --report "$R/$v-$n-r$round.json" >"$R/$v-$n-r$round.txt" 2>&1 || echo "FAILED $v $n r$round"
    done
  done
  if ! want periodic || [ "$round" != 1 ]; then continue; fi
  for n in 128 512; do
    st=$(steps_for "$n")
    for v in before now; do
      app=$now; [ $v = before ] && app=$before
      run -np 1 "$app" --local "$n,$n,$n" --periodic x,y,z --steps "$st" --radius 4 --warmup 20 --quiet --label "per-$v" \
        --report "$R/per-$v-$n-r$round.json" >"$R/per-$v-$n-r$round.txt" 2>&1 || echo "FAILED periodic $v $n"
    done
  done
done
echo "runs: $(el)"

want tuner && echo "== tuner at 64^3 and 128^3 (4 s a kernel)"
want tuner && for n in 64 128; do
  run -np 1 "$now" --local "$n,$n,$n" --steps "$(steps_for $n)" "${common[@]}" --tuning /tmp/tune.json --tune-seconds 4 \
    --report "$R/tuned-$n.json" >"$R/tuned-$n.txt" 2>&1 || echo "FAILED tuned $n"
done
cp /tmp/tune.json "$OUT/" 2>/dev/null

want ncu && echo "== the cells kernel's own time at 64^3 and 96^3 (ncu)"
want ncu && for n in 64 96; do
  ncu --clock-control none --metrics gpu__time_duration.sum -k regex:cell_box --launch-skip 50 --launch-count 5 \
    "$now" --local "$n,$n,$n" --steps 200 --warmup 0 --radius 4 --comm none --steps-per-graph 1 --graphs off --quiet \
    >"$OUT/ncu-$n.txt" 2>&1
  grep -E "gpu__time_duration" "$OUT/ncu-$n.txt" | head -5
done
echo "ncu: $(el)"

python3 docs/data/small-boxes-h100-2026-12-06/table.py "$R"
tar czf "$OUT/runs-$(date +%H%M%S).tgz" -C "$OUT" runs && rm -rf "$R"
echo "total: $(el)"
