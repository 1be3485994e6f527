#!/usr/bin/env bash
# Nsight Compute: DRAM and L2 bytes of copy, fused xyz and the wave at R = 4, 512^3.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/.out}; mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/.deps/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
export PATH=/usr/local/cuda/bin:$PATH
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sector_hit_rate.pct,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__cycles_elapsed.avg.per_second
for v in copy fused_xyz wave; do
  k=fused_kernel; [ $v = copy ] && k=copy_kernel
  for w in ${WINDOWS:-16}; do
    echo "== $v window $w"
    ncu -k regex:$k --launch-skip 3 --launch-count 1 --metrics $M build-cuda/bench/stencil-bench --sizes=512 --radii=4 --variants=$v \
      --window=$w --benchmark_min_time=0.01 2>&1 | grep -E "^\s+(gpu__|dram__|lts__|l1tex__|sm__|smsp__)" | sed 's/  */ /g'
  done
done | tee "$OUT/ncu.txt"
