#!/usr/bin/env bash
# Record: ran on 2026-12-02 as it stands; new call scripts source tools/gpu/common.sh.
# Issue 58, call 10, on one GPU: the wave update without its per-cell
# sponge test where no cell of a thread's columns and plane can be damped
# (this tree) against the revision before it (HEAD, from git archive), in
# one call. Calls 8 and 9 found the kernel bound by instructions issued on
# an H200; the test was about a tenth of them.
#   1. both trees built side by side (this one with its tests)
#   2. stencil-bench at 512^3, wave R = 1, 4, 8, both precisions, each at
#      least 1 s; two rounds, the trees alternating
#   3. the mini-app, R = 4, --comm none, one GPU: 64^3, 128^3 and 512^3,
#      without a sponge and (128^3, 512^3) with one; two rounds, alternating
#   4. this tree's GPU suites of the update (call3.sh tests' regex)
# About 6 minutes.
#
# usage, from the repository root of a git checkout with .deps/ (tools/README.md):
#   bash docs/data/floor-h200-2026-12-02/call10.sh
# Results: $OUT (default .out): call10.tgz and a short table last.
set -uo pipefail
OUT=${OUT:-$PWD/.out}
work=/tmp/call10
mkdir -p "$OUT" "$work/runs" /tmp/base
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# shellcheck source=../../../tools/offline-deps.sh
source tools/offline-deps.sh
t0=$(date +%s)
say() { echo "[$(($(date +%s) - t0)) s] $*"; }
trap '(cd "$work" && tar czf "$OUT/call10.tgz" ./*.txt ./*.json ./*.log runs 2>/dev/null)' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv,noheader |
  tee "$work/environment.txt"
base_rev=$(git rev-parse --short=12 HEAD)
echo "before: $base_rev; now: HEAD and the working tree's changes" | tee -a "$work/environment.txt"
git diff --stat HEAD >>"$work/environment.txt"
git archive HEAD | tar -x -C /tmp/base || { echo "call10: git archive failed" >&2; exit 1; }
(cd /tmp/base && cmake -S . -B build-before -G Ninja -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 \
  -DSTENCIL_BUILD_TESTS=OFF -DSTENCIL_REVISION="$base_rev" "${prefix[@]}" \
  >"$work/configure-before.log" 2>&1 &&
  cmake --build build-before --target stencil-bench stencil-miniapp -j"$(nproc)" >"$work/build-before.log" 2>&1) &
before_build=$!
# (A resource table with an unexpected spill fails the check but leaves the
# binaries: they are timed, and the table is in the results.)
OUT=$work tools/gpu.sh check --skip-tests --skip-bench >"$work/build-now.txt" 2>&1 ||
  grep -E "SPILLS|kernels," "$work/resources.txt" || { tail -20 "$work/build-now.txt"; exit 1; }
[ -x build-cuda/bench/stencil-bench ] || { tail -20 "$work/build-now.txt"; exit 1; }
wait "$before_build" || { tail -20 "$work/build-before.log"; exit 1; }
say built
bench_of() { [ "$1" = now ] && echo build-cuda/bench/stencil-bench || echo /tmp/base/build-before/bench/stencil-bench; }
app_of() { [ "$1" = now ] && echo build-cuda/miniapp/stencil-miniapp || echo /tmp/base/build-before/miniapp/stencil-miniapp; }
for round in 1 2; do
  order=(before now)
  [ $round = 1 ] || order=(now before)
  for tree in "${order[@]}"; do
    "$(bench_of "$tree")" --sizes=512 --radii=1,4,8 --precision=fp32,fp64 --variants=wave \
      --benchmark_min_time=1 --benchmark_out="$work/bench-$tree-r$round.json" --benchmark_out_format=json \
      >"$work/bench-$tree-r$round.log" 2>&1 || tail -5 "$work/bench-$tree-r$round.log"
  done
  say "bench round $round"
  for run in "64 0 200 100000" "128 0 200 60000" "128 8 200 60000" "512 0 20 1500" "512 16 20 1500"; do
    read -r n sponge warmup steps <<<"$run"
    for tree in "${order[@]}"; do
      report=$work/runs/$tree-$n-sponge$sponge-r$round.json
      mpirun -np 1 "$(app_of "$tree")" --local "$n,$n,$n" --radius 4 --comm none --sponge "$sponge" \
        --warmup "$warmup" --steps "$steps" --quiet --label "$tree sponge $sponge" --report "$report" \
        >"${report%.json}.txt" 2>&1 || echo "FAILED $tree $n sponge $sponge round $round"
    done
  done
  say "mini-app round $round"
done
(cd build-cuda && ctest --output-on-failure -j4 --timeout 1500 \
  -R 'WaveKernel|StoredFaces|TunedShape|Kernels|Physics|LaunchShape') >"$work/ctest.log" 2>&1
grep -E "tests passed|tests failed|Failed|\*\*\*" "$work/ctest.log" | tail -8
say tested
for round in 1 2; do
  for tree in before now; do
    echo "== $tree, round $round"
    python3 tools/report-table.py bench "$work/bench-$tree-r$round.json" | grep -E "^ +(copy|wave)"
  done
done
python3 tools/report-table.py miniapp "$work"/runs/*.json | cut -c1-150
