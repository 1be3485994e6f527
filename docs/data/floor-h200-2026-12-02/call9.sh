#!/usr/bin/env bash
# Record: ran on 2026-12-02 as it stands; new call scripts source tools/gpu/common.sh.
# Issue 58, call 9, on one GPU: where the wave update's warps wait. Nsight
# Compute's warp states (every stall reason, from the hardware counters),
# scheduler and occupancy sections, one launch of stencil-bench's wave at
# 512^3 FP32: R = 4 as default (two rows a thread), at one row (more warps
# an SM) and two planes ahead, and R = 8. About 3 minutes.
#
# usage, from the repository root with .deps/ (tools/README.md):
#   bash docs/data/floor-h200-2026-12-02/call9.sh
# Results: $OUT (default .out): call9.tgz and a short table last.
set -uo pipefail
OUT=${OUT:-$PWD/.out}
work=/tmp/call9
mkdir -p "$OUT" "$work"
export PATH=/usr/local/cuda/bin:$PATH
# shellcheck source=../../../tools/offline-deps.sh
source tools/offline-deps.sh
t0=$(date +%s)
say() { echo "[$(($(date +%s) - t0)) s] $*"; }
trap '(cd "$work" && tar czf "$OUT/call9.tgz" ./*.txt ./*.log 2>/dev/null)' EXIT
cmake -S . -B build-c9 -G Ninja -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 -DSTENCIL_BUILD_TESTS=OFF \
  -DSTENCIL_BUILD_MINIAPP=OFF "${prefix[@]}" >"$work/configure.log" 2>&1 &&
  cmake --build build-c9 --target stencil-bench -j"$(nproc)" >"$work/build.log" 2>&1 ||
  { tail -20 "$work/build.log"; exit 1; }
say built
bench=build-c9/bench/stencil-bench
one=(--sizes=512 --precision=fp32 --variants=wave --benchmark_min_time=0.01)
profile() { # profile NAME BENCH_ARGS...: one launch of the wave kernel, after three
  local name=$1
  shift
  ncu --clock-control none -k regex:fused_kernel --launch-skip 3 --launch-count 1 --print-details all \
    --section WarpStateStats --section SchedulerStats --section Occupancy --section SpeedOfLight \
    "$bench" "${one[@]}" "$@" >"$work/ncu-$name.txt" 2>&1 || say "ncu $name failed: $(tail -2 "$work/ncu-$name.txt")"
}
profile R4 --radii=4 --benchmark_filter=wave/R4
profile R4-rows1 --radii=4 --rows=1 --benchmark_filter=wave/R4
profile R4-ahead2 --radii=4 --ahead=2 --benchmark_filter=wave/R4
profile R8 --radii=8 --benchmark_filter=wave/R8
say profiled
for f in "$work"/ncu-*.txt; do
  echo "== $(basename "$f" .txt)"
  grep -iE "Duration|Active Warps Per|Eligible Warps|Issued Warp|Warp Cycles Per Issued|stall|Registers|Achieved Active" "$f" |
    sed -E 's/ +/ /g' | awk '{v = $NF; if (tolower($0) !~ /stall/ || v + 0 >= 0.1) print}' | head -40
done
