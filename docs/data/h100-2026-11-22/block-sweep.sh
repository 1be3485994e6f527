#!/usr/bin/env bash
# Experiment: launch shapes of the two-row fused kernels at R = 4 (and 2).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/.out}; mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/.deps/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,power.limit,pci.bus_id --format=csv,noheader
[ -x build-cuda/bench/stencil-bench ] || {
cmake -S . -B build-cuda -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 -DSTENCIL_BUILD_MINIAPP=OFF \
  -DCMAKE_PREFIX_PATH="$PWD/.deps/root/usr" >"$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
cmake --build build-cuda -j16 --target stencil-bench >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }; }
B=build-cuda/bench/stencil-bench
for shape in ${SHAPES:-16x8 8x16 8x8 16x16 8x32 32x8 4x32 16x4}; do
  bx=${shape%x*} by=${shape#*x}
  for w in ${WINDOWS:-16}; do
    $B --sizes=${SIZES:-512} --radii=${RADII:-4} --variants=copy,fused_xyz,wave --block-x=$bx --block-y=$by --window=$w \
      --benchmark_min_time=0.3 --benchmark_out=/tmp/r.json --benchmark_out_format=json >/dev/null 2>&1 || echo "$shape w=$w failed"
    python3 - /tmp/r.json "$shape w=$w" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for b in d["benchmarks"]:
    print(f"{sys.argv[2]:<12} {b['name']:<40} {b['real_time']:8.4f} ms  {b.get('copy_ratio', 0):6.1%}")
PY
  done
done | tee "$OUT/block-sweep.txt"
