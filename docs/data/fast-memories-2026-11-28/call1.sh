#!/usr/bin/env bash
# shellcheck disable=SC2086 # the option groups are words
# Issue 58, call 1 on one GPU (an H200 where lent), kept as it ran: what
# limits the update kernels at 512^3 before any change.
# 1. stencil-bench at 512^3: wave R = 1, 4, 8 and fused_xyz R = 4, 8 (FP32),
#    wave R = 4 (FP64), default shapes, against the copy of the same run.
# 2. The shapes the kernels can take without a code change: z planes per
#    block (--window 16, 32, 64) and blocks of 16x8, 32x4 and 8x16 threads,
#    for wave R4, R8 and fused R4 (FP32), and wave R4 (FP64).
# 3. Nsight Compute on one launch of each default kernel: achieved
#    occupancy, registers, the occupancy limiters, DRAM throughput and
#    bytes read per launch. Results: $OUT/call1.tgz.
set -uo pipefail
OUT=${OUT:-$PWD/.out}
mkdir -p "$OUT/bench" "$OUT/ncu"
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s)
source tools/offline-deps.sh
{ date -u +%Y-%m-%dT%H:%M:%SZ; echo "revision: $(cat .carry/revision)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,power.limit --format=csv,noheader
} | tee "$OUT/environment.txt"
trap 'tar czf "$OUT/call1.tgz" -C "$OUT" bench ncu environment.txt resources.txt 2>/dev/null' EXIT
late() { [ $(($(date +%s) - t0)) -gt "$1" ] && echo "skipped: $2 (time)"; }
cmake -S . -B /tmp/b -G Ninja -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 -DSTENCIL_BUILD_MINIAPP=OFF \
  -DSTENCIL_BUILD_TESTS=OFF -DSTENCIL_RESOURCE_REPORT=ON "${prefix[@]}" >"$OUT/build.log" 2>&1 &&
  cmake --build /tmp/b -j16 --target stencil-bench >>"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
python3 tools/resource-report.py cuda "$OUT/build.log" >"$OUT/resources.txt" 2>&1
echo "build: $(($(date +%s) - t0)) s"
B=/tmp/b/bench/stencil-bench
bench() { # bench NAME ARGS...
  local name=$1; shift
  if timeout 200 $B --sizes=512 --benchmark_min_time=1 "$@" --benchmark_out="$OUT/bench/$name.json" \
       >"$OUT/bench/$name.txt" 2>&1; then
    python3 tools/bench-table.py "$OUT/bench/$name.json" 2>&1 | grep -E "^ *(wave|fused_xyz|copy) " | sed "s/^/$name /"
  else
    echo "FAILED $name: $(tail -3 "$OUT/bench/$name.txt" | tr '\n' ' ')"
  fi
}
bench base-fp32 --precision=fp32 --radii=1,4,8 --variants=wave,fused_xyz
bench base-fp64 --precision=fp64 --radii=4 --variants=wave
for w in 16 32 64; do
  late 330 "window $w" && break
  bench w$w-fp32 --precision=fp32 --radii=4,8 --variants=wave,fused_xyz --window=$w
  bench w$w-fp64 --precision=fp64 --radii=4 --variants=wave --window=$w
done
for shape in 32x4 8x16 16x16; do
  late 400 "block $shape" && break
  bench b$shape-fp32 --precision=fp32 --radii=4,8 --variants=wave,fused_xyz --block-x=${shape%x*} --block-y=${shape#*x}
done
N="ncu --clock-control none --metrics sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_blocks,launch__occupancy_limit_warps,launch__grid_size,launch__block_size,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sector_hit_rate.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio"
for spec in "fp32 4 wave" "fp32 8 wave" "fp32 4 fused_xyz" "fp64 4 wave"; do
  set -- $spec
  late 540 "ncu $spec" && break
  timeout 60 $N --launch-skip 3 --launch-count 1 -k "regex:wave|fused" \
    $B --sizes=512 --precision=$1 --radii=$2 --variants=$3 --benchmark_min_time=0.05 \
    >"$OUT/ncu/$1-r$2-$3.txt" 2>&1 || echo "ncu $spec failed: $(tail -2 "$OUT/ncu/$1-r$2-$3.txt" | tr '\n' ' ')"
  grep -E "warps_active|registers_per|limit_|dram__|duration|hit_rate|long_scoreboard|grid_size|block_size" \
    "$OUT/ncu/$1-r$2-$3.txt" | sed "s/^/$1 R$2 $3: /" | head -20
done
echo "total: $(($(date +%s) - t0)) s"
