#!/usr/bin/env bash
# Experiment: fused xyz and wave at long z windows (fewer, longer blocks:
# less 2R prologue traffic, tail set by blocks vs resident slots).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/.out}; mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/.deps/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,power.limit,pci.bus_id --format=csv,noheader
cmake -S . -B build-cuda -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 -DSTENCIL_BUILD_MINIAPP=OFF \
  -DCMAKE_PREFIX_PATH="$PWD/.deps/root/usr" >"$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
cmake --build build-cuda -j16 --target stencil-bench >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
B=build-cuda/bench/stencil-bench
for size in 512 256; do
  for w in ${WINDOWS:-16 32 64 128 171 256 512}; do
    [ "$size" = 256 ] && [ "$w" -gt 256 ] && continue
    $B --sizes=$size --radii=${RADII:-1,2,4,8} --variants=copy,fused_xyz,wave --window=$w --benchmark_min_time=0.2 \
      --benchmark_out=/tmp/w$w-$size.json --benchmark_out_format=json >/dev/null 2>&1 || echo "w=$w size=$size failed"
    python3 - /tmp/w$w-$size.json $w <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); copy = None
for b in d["benchmarks"]:
    t = b["real_time"]
    if b["name"].startswith("copy"): copy = t
    print(f"w={sys.argv[2]:<4} {b['name']:<40} {t:8.4f} ms  {copy / t:6.1%}")
PY
  done
done | tee "$OUT/long-window.txt"
