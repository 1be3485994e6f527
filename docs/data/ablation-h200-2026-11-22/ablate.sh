#!/usr/bin/env bash
# Timing-only ablations of the fused kernel (results are wrong on purpose).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/.out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH="$PWD/.deps/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,power.limit,pci.bus_id --format=csv,noheader
cmake -S . -B b -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 -DSTENCIL_BUILD_MINIAPP=OFF -DBUILD_TESTING=OFF \
  -DCMAKE_PREFIX_PATH="$PWD/.deps/root/usr" >"$OUT/cfg.log" 2>&1 || { tail -20 "$OUT/cfg.log"; exit 1; }
cmake --build b -j16 --target stencil-bench >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
B=b/bench/stencil-bench
run() { # label, env ablate, extra args
  STENCIL_ABLATE=$2 $B --sizes=512 --radii=4 --variants=fused_xyz,wave $3 --benchmark_min_time=0.3 \
    --benchmark_format=json 2>/dev/null >"$OUT/r.json"
  python3 - "$1" "$OUT/r.json" <<'PY'
import json,sys
d=json.load(open(sys.argv[2]))
v={b['name'].split('/')[0]:b for b in d['benchmarks']}
print("%-28s copy %.3f  xyz %.3f ms %4.1f%%  wave %.3f ms %4.1f%%"%(sys.argv[1],v['copy']['real_time'],
  v['fused_xyz']['real_time'],100*v['fused_xyz']['copy_ratio'],v['wave']['real_time'],100*v['wave']['copy_ratio']))
PY
}
for rep in 1 2; do
run "base" 0 ""
run "plain stores" 16 ""
run "no compute" 32 ""
run "no compute, no stores" 40 ""
run "no compute/ring/prologue" 39 ""
run "no ring/prologue/stores" 15 ""
done
M=lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed
prof() { # label env kernel-regex
  echo "== ncu $1"
  STENCIL_ABLATE=$2 ncu --kernel-name regex:"$3" --launch-skip 3 --launch-count 1 --metrics $M \
    $B --sizes=512 --radii=4 --variants=fused_xyz --benchmark_min_time=0.01 2>&1 | grep -E "fabric|t_bytes|duration|throughput" | sed 's/ \{2,\}/ /g' | cut -c1-120
}
echo "== ncu base stalls"
ncu --kernel-name regex:fused_kernel --launch-skip 3 --launch-count 1 --section SchedulerStats --section Occupancy --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" \
  $B --sizes=512 --radii=4 --variants=fused_xyz --benchmark_min_time=0.01 2>&1 | grep -E "stalled|Issue|Eligible|Active Warps|Achieved" | grep -v " 0$\| 0\.0[0-4]" | sed 's/ \{2,\}/ /g' | cut -c1-120
echo "== ncu wave"
ncu --kernel-name regex:fused_kernel --launch-skip 3 --launch-count 1 --metrics $M \
  $B --sizes=512 --radii=4 --variants=wave --benchmark_min_time=0.01 2>&1 | grep -E "fabric|t_bytes|duration|throughput" | sed 's/ \{2,\}/ /g' | cut -c1-120
echo "== clocks while the wave runs"
nvidia-smi dmon -s pc -d 1 > "$OUT/dmon.txt" 2>&1 &
dm=$!
$B --sizes=512 --radii=4 --variants=wave --benchmark_min_time=4 2>/dev/null | grep -E "wave|copy"
kill $dm; cat "$OUT/dmon.txt"
