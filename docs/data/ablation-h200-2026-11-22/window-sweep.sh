#!/usr/bin/env bash
# Window sweep of the fused kernels, and the SM clock under each kernel.
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
for rep in 1 2; do
  for w in 16 32 64; do
    $B --sizes=256,512 --radii=1,2,4,8 --variants=fused_xyz,wave --window=$w --benchmark_min_time=0.2 \
      --benchmark_format=json 2>/dev/null >"$OUT/w$w-$rep.json"
  done
done
python3 - "$OUT" <<'PY'
import json,sys,glob,collections
t=collections.defaultdict(dict)
for f in sorted(glob.glob(sys.argv[1]+"/w*-*.json")):
    w=f.split("/w")[-1].split("-")[0]
    for b in json.load(open(f))["benchmarks"]:
        p=b["name"].split("/")
        if p[0]=="copy": continue
        t[(p[0],p[1],p[2])].setdefault(w,[]).append(100*b["copy_ratio"])
print("%-10s %-3s %-12s %s"%("kernel","R","size","  ".join("w%-9s"%w for w in ("16","32","64"))))
for k,v in sorted(t.items()):
    print("%-10s %-3s %-12s %s"%(k+("  ".join("%4.1f/%4.1f"%tuple(v[w]) for w in ("16","32","64")),)))
PY
for v in fused_xyz wave; do
  echo "== clocks under $v R4 512 (window 16)"
  nvidia-smi --query-gpu=power.draw,clocks.sm,clocks_event_reasons.sw_power_cap --format=csv,noheader -lms 250 >"$OUT/clk.txt" 2>&1 &
  s=$!
  $B --sizes=512 --radii=4 --variants=$v --benchmark_min_time=3 2>/dev/null | grep -E "^$v"
  kill $s
  awk -F', ' 'NR>8{print}' "$OUT/clk.txt" | sort | uniq -c | sort -rn | head -6
done
