#!/usr/bin/env bash
# Wave kernel on boundary-slab boxes: which launch shape and window.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/.out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH="$PWD/.deps/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
cmake -S . -B b -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 -DSTENCIL_BUILD_MINIAPP=OFF -DBUILD_TESTING=OFF \
  -DCMAKE_PREFIX_PATH="$PWD/.deps/root/usr" >"$OUT/cfg.log" 2>&1 || { tail -20 "$OUT/cfg.log"; exit 1; }
cmake --build b -j16 --target stencil-bench >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
B=b/bench/stencil-bench
one() { # sizes R bx by window
  $B --sizes=$1 --radii=$2 --variants=wave --block-x=$3 --block-y=$4 ${5:+--window=$5} --benchmark_min_time=0.1 \
    --benchmark_format=json 2>/dev/null | python3 -c "
import json,sys
d=json.load(sys.stdin)
for b in d['benchmarks']:
    if b['name'].startswith('wave'): print('%-12s R%s %3sx%-3s w%-3s %8.4f ms  window=%s' % ('$1', $2, $3, $4, '${5:-auto}', b['real_time'], b.get('window')))"
}
for R in 4 8; do
  for s in 4x512x512 512x4x512; do
    for shape in "16 8" "8 16" "2 64" "1 128" "1 64" "64 2" "128 1"; do
      for w in "" 4; do one $s $R $shape $w; done
    done
  done
done 2>&1 | tee "$OUT/slab.txt" | sort -k1,2 -k5n | awk '{print}' > "$OUT/sorted.txt"
# best five per size and R
for R in 4 8; do for s in 4x512x512 512x4x512; do
  echo "== $s R$R (best 4, then the default 16x8/8x16 auto)"; grep "^$s *R$R " "$OUT/slab.txt" | sort -k5n | head -4
  grep "^$s *R$R " "$OUT/slab.txt" | grep -E " (16x8|8x16) +wauto"
done; done
