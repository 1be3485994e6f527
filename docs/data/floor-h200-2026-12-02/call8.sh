#!/usr/bin/env bash
# Record: ran on 2026-12-02 as it stands; new call scripts source tools/gpu/common.sh.
# Issue 58, call 8, on one GPU: which unit binds the wave update. First
# floor.cu's copies and streams alone (the update's traffic in 16-byte
# vectors), while stencil-bench builds; then Nsight Compute's breakdown of
# the L2, DRAM and L1 throughputs (the sub-unit nearest its peak) for the
# bench's copy, floor.cu's stream16, and the wave update at R = 1, 4, 8
# (FP32, 512^3, the default shapes) and at R = 4 in 32x8 blocks (a tile of
# half the apron a cell). About 4 minutes.
#
# usage, from the repository root with .deps/ (tools/README.md):
#   bash docs/data/floor-h200-2026-12-02/call8.sh
# Results: $OUT (default .out): call8.tgz and a short table last.
set -uo pipefail
OUT=${OUT:-$PWD/.out}
here=docs/data/floor-h200-2026-12-02
work=/tmp/call8
mkdir -p "$OUT" "$work"
export PATH=/usr/local/cuda/bin:$PATH
# shellcheck source=../../../tools/offline-deps.sh
source tools/offline-deps.sh
t0=$(date +%s)
say() { echo "[$(($(date +%s) - t0)) s] $*"; }
trap '(cd "$work" && tar czf "$OUT/call8.tgz" ./*.txt ./*.log 2>/dev/null)' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv,noheader |
  tee "$work/environment.txt"
(cmake -S . -B build-c8 -G Ninja -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 -DSTENCIL_BUILD_TESTS=OFF \
  -DSTENCIL_BUILD_MINIAPP=OFF "${prefix[@]}" >"$work/configure.log" 2>&1 &&
  cmake --build build-c8 --target stencil-bench -j"$(nproc)" >"$work/build.log" 2>&1) &
builder=$!
nvcc -O3 -std=c++17 -arch=sm_90 "$here/floor.cu" -o "$work/floor" >"$work/floor-build.log" 2>&1 &&
  "$work/floor" 512 1 2 streams >"$work/floor-streams.txt" 2>&1 || tail -5 "$work/floor-build.log" "$work/floor-streams.txt"
say "streams done"
wait "$builder" || { tail -20 "$work/build.log"; exit 1; }
say built
metrics=breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,breakdown:dram__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
metrics+=,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
profile() { # profile NAME KERNEL_REGEX COMMAND...: one launch, after three
  local name=$1 kernel=$2
  shift 2
  ncu --clock-control none -k "regex:$kernel" --launch-skip 3 --launch-count 1 --section SpeedOfLight \
    --metrics "$metrics" "$@" >"$work/ncu-$name.txt" 2>&1 || say "ncu $name failed: $(tail -2 "$work/ncu-$name.txt")"
}
bench=build-c8/bench/stencil-bench
one=(--sizes=512 --precision=fp32 --variants=wave --benchmark_min_time=0.01)
profile copy copy_kernel "$bench" "${one[@]}" --radii=1 --benchmark_filter=copy/
profile stream16 stream_wide_kernel "$work/floor" 512 0.01 1 streams
for R in 1 4 8; do
  profile "wave-R$R" fused_kernel "$bench" "${one[@]}" --radii=$R --benchmark_filter="wave/R$R"
done
profile wave-R4-32x8 fused_kernel "$bench" "${one[@]}" --radii=4 --block-x=32 --block-y=8 --benchmark_filter=wave/R4
say profiled
grep -E "round 2" "$work/floor-streams.txt" | grep -E "R1|fp64" | cut -c1-110
for f in "$work"/ncu-*.txt; do
  echo "== $(basename "$f" .txt)"
  grep -E "gpu__time_duration|Duration|DRAM Throughput|L2 Cache Throughput|lts__|dram__bytes|l1tex__throughput" "$f" |
    sed -E 's/ +/ /g' | sort -t" " -k4 -gr | head -14
done
