#!/usr/bin/env bash
# Issue "strong scaling to small boxes", first steps, on one GPU: the
# mini-app before (.before/, the previous main, unpacked from git archive)
# and after (this tree), R = 4, --comm none, 300 steps, at 64^3 .. 512^3;
# then the z window forced to 1, 2, 4, 8, 16 after; then the GPU test suite
# of this tree. Kept as it ran.
set -uo pipefail
OUT=${OUT:-$PWD/.out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
prefix=(-DCMAKE_PREFIX_PATH="$PWD/.deps/root/usr")
export LD_LIBRARY_PATH="$PWD/.deps/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,power.limit --format=csv,noheader | tee "$OUT/gpu.txt"
(cmake -S .before -B build-before -DSTENCIL_BACKEND=CUDA -DSTENCIL_BUILD_TESTS=OFF -DSTENCIL_BUILD_BENCH=OFF "${prefix[@]}" >/dev/null &&
  cmake --build build-before -j8 --target stencil-miniapp >"$OUT/build-before.log" 2>&1) &
(cmake -S . -B build-after -DSTENCIL_BACKEND=CUDA "${prefix[@]}" >/dev/null &&
  cmake --build build-after -j8 >"$OUT/build-after.log" 2>&1) &
wait
mkdir -p "$OUT/before" "$OUT/after" "$OUT/window"
for n in 64 96 128 192 256 384 512; do
  for v in before after; do
    build-$v/miniapp/stencil-miniapp --local $n,$n,$n --radius 4 --comm none --steps 300 --warmup 20 --quiet \
      --label $v --report "$OUT/$v/$v-$n.json" >/dev/null || echo "FAILED $v $n"
  done
done
for n in 64 96 128 192 256; do
  for w in 1 2 4 8 16; do
    build-after/miniapp/stencil-miniapp --local $n,$n,$n --radius 4 --comm none --steps 300 --warmup 20 --quiet \
      --window $w --label window-$w --report "$OUT/window/w$w-$n.json" >/dev/null || echo "FAILED window $w $n"
  done
done
(cd build-after && ctest -j4 --timeout 900 >"$OUT/ctest.log" 2>&1); grep -E "tests passed|tests failed|\(Failed\)" "$OUT/ctest.log"
python3 - "$OUT" <<'PY'
import json, glob, os, sys
out = sys.argv[1]
def load(p):
    r = json.load(open(p)); ph = r["phases_ms"]
    return r["grid"][0], ph["interior"]["avg"] * 1e3, ph["step"]["avg"] * 1e3, r["gcells_per_s_total"], r["tuning"]["window"]
rows = {}
for v in ("before", "after"):
    for p in glob.glob(f"{out}/{v}/*.json"):
        n, i, s, g, w = load(p); rows.setdefault(n, {})[v] = (i, s, g, w)
print("box   before: kernel us  step us  Gcell/s | after: window kernel us  step us  Gcell/s  overhead us")
for n in sorted(rows):
    b, a = rows[n]["before"], rows[n]["after"]
    print(f"{n:4d}^3        {b[0]:7.1f}  {b[1]:7.1f}  {b[2]:7.1f} |     {a[3]:5d}   {a[0]:7.1f}  {a[1]:7.1f}  {a[2]:7.1f}   {a[1]-a[0]:7.1f}")
win = {}
for p in glob.glob(f"{out}/window/*.json"):
    n, i, s, g, w = load(p); win.setdefault(n, {})[w] = i
print("kernel us by forced window:", " ".join(f"w{w}" for w in (1, 2, 4, 8, 16)))
for n in sorted(win):
    print(f"{n:4d}^3 ", " ".join(f"{win[n].get(w, 0):6.1f}" for w in (1, 2, 4, 8, 16)))
PY
(cd "$OUT" && tar czf reports.tgz before after window gpu.txt ctest.log && rm -rf before after window)
