#!/usr/bin/env bash
# Experiment: the CUDA store flavour of the fused kernels' results: 0 st.global.cs (__stcs, the
# current nontemporal store), 1 plain st.global, 2 st.global.cg (__stcg). Three builds, runs alternated.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/.out}; mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/.deps/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,power.limit,pci.bus_id --format=csv,noheader
for kind in 0 1 2; do
  ( cmake -S . -B build-store$kind -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 -DSTENCIL_BUILD_MINIAPP=OFF \
      -DSTENCIL_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DSTENCIL_STORE_KIND=$kind -DCMAKE_PREFIX_PATH="$PWD/.deps/root/usr" \
      >"$OUT/configure$kind.log" 2>&1 && cmake --build build-store$kind -j6 --target stencil-bench >"$OUT/build$kind.log" 2>&1 ) &
done
wait
for kind in 0 1 2; do [ -x build-store$kind/bench/stencil-bench ] || { tail -30 "$OUT/build$kind.log"; exit 1; }; done
for rep in 1 2; do
  for kind in 0 1 2; do
    build-store$kind/bench/stencil-bench --sizes=512 --radii=${RADII:-1,2,4,8} --variants=copy,fused_xyz,wave \
      --benchmark_min_time=0.3 --benchmark_out=/tmp/r.json --benchmark_out_format=json >/dev/null 2>&1 || echo "kind $kind failed"
    python3 - /tmp/r.json "store=$kind" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(sys.argv[2], "  ".join(f"{b['name'].split('/')[0]}{b['name'].split('/')[1] if b['name'].count('/') > 2 else ''} {b['real_time']:.4f} {b.get('copy_ratio', 0):.1%}" for b in d["benchmarks"]))
PY
  done
done | tee "$OUT/store-kind.txt"
