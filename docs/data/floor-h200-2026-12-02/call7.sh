#!/usr/bin/env bash
# Issue 58, call 7, on one GPU: the floor of the wave update, then main's
# update kernels checked and timed.
#   1. floor.cu (this folder) while the CUDA build of main builds: copy, the
#      update's traffic alone, and a one-cell-a-thread 2.5D walk, 512^3
#   2. the GPU suites that cover the update's shapes (call3.sh tests'
#      regex), then call3.sh planted
#   3. stencil-bench at 512^3: wave R = 1, 4, 8 and fused_xyz R = 4, 8,
#      both precisions, one and two planes ahead, each at least 1 s; then
#      the tuner's choice at R = 1 and 4 FP32 (4 s a kernel), which may
#      choose two planes
# About 8 minutes.
#
# usage, from the repository root with .deps/ (tools/README.md):
#   bash docs/data/floor-h200-2026-12-02/call7.sh
# Results: $OUT (default .out): call7.tgz and a short table last.
set -uo pipefail
OUT=${OUT:-$PWD/.out}
here=docs/data/floor-h200-2026-12-02
work=/tmp/call7
mkdir -p "$OUT" "$work"
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s)
say() { echo "[$(($(date +%s) - t0)) s] $*"; }
trap '(cd "$work" && tar czf "$OUT/call7.tgz" ./*.txt ./*.json ./*.log 2>/dev/null)' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv,noheader |
  tee "$work/environment.txt"
OUT=$work tools/gpu.sh check --skip-tests --skip-bench >"$work/build.txt" 2>&1 &
builder=$!
nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v "$here/floor.cu" -o "$work/floor" >"$work/floor-build.log" 2>&1 &&
  "$work/floor" 512 1 2 >"$work/floor.txt" 2>&1 || { tail -5 "$work/floor-build.log" "$work/floor.txt"; }
say "floor done"
wait "$builder" || { tail -20 "$work/build.txt"; exit 1; }
say built
(cd build-cuda && ctest --output-on-failure -j4 --timeout 1500 \
  -R 'WaveKernel|StoredFaces|TunedShape|Kernels|Physics|LaunchShape') >"$work/ctest.log" 2>&1
grep -E "tests passed|tests failed|Failed|\*\*\*" "$work/ctest.log" | tail -8
say tested
OUT=$work bash docs/data/fast-memories-2026-11-28/call3.sh planted 2>&1 | tail -4
say planted
bench=build-cuda/bench/stencil-bench
"$bench" --sizes=512 --radii=1,4,8 --precision=fp32,fp64 --variants=wave,fused_xyz --ahead=1,2 \
  --benchmark_min_time=1 --benchmark_out="$work/bench.json" --benchmark_out_format=json \
  >"$work/bench.log" 2>&1 || tail -5 "$work/bench.log"
say bench
"$bench" --sizes=512 --radii=1,4 --precision=fp32 --variants=wave --tuning="$work/tuning.json" \
  --tune-seconds=4 --benchmark_min_time=1 --benchmark_out="$work/tuned.json" --benchmark_out_format=json \
  >"$work/tuned.log" 2>&1 || tail -5 "$work/tuned.log"
cp "$work/tuning.json" "$work/tuning-cache.json" 2>/dev/null
say tuned
grep -E "WRONG|check" "$work/floor.txt" | grep -c WRONG | sed 's/^/floor checks wrong: /'
grep -E "round 2" "$work/floor.txt" | grep -vE "Z64|Z128" | cut -c1-110
python3 tools/report-table.py bench "$work/bench.json" | grep -E "copy|wave|fused"
grep -E "ahead=" "$work/tuned.log" | sed -E 's/ +/ /g' | cut -c1-200
