#!/usr/bin/env bash
# Experiment: L2 prefetch of the z streams STENCIL_L2_AHEAD planes ahead x window.
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
for rep in 1 2; do
for ahead in ${AHEADS:-0 2 4 8}; do
  for w in ${WINDOWS:-16 32 64}; do
    STENCIL_L2_AHEAD=$ahead $B --sizes=${SIZES:-512} --radii=${RADII:-4} --variants=copy,fused_xyz,wave --window=$w \
      --benchmark_min_time=0.3 --benchmark_out=/tmp/r.json --benchmark_out_format=json >/dev/null 2>&1 || echo "ahead=$ahead w=$w failed"
    python3 - /tmp/r.json "ahead=$ahead w=$w" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(sys.argv[1 + 1], "  ".join(f"{b['name'].split('/')[0]}{b['name'].split('/')[1] if b['name'].count('/') > 2 else ''} {b['real_time']:.4f} ms {b.get('copy_ratio', 0):6.1%}" for b in d["benchmarks"]))
PY
  done
done
done | tee "$OUT/l2-ahead.txt"
