#!/usr/bin/env bash
# Issue "strong scaling to small boxes", merged launches and graphs, on one
# GPU: the previous main (.before/, unpacked from git archive) against this
# tree with --graphs off and on; R = 4, --comm none, 300 steps, 64^3 ..
# 512^3; and, with 8 ranks on the GPU (a 2x2x2 split of 128^3, staged
# through host memory), the boundary of six slabs and four packed faces,
# where the merged launches count. Then the GPU test suite of this tree.
# Kept as it ran.
set -uo pipefail
OUT=${OUT:-$PWD/.out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
source tools/offline-deps.sh # sets prefix
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,power.limit --format=csv,noheader | tee "$OUT/gpu.txt"
(cmake -S .before -B build-before -DSTENCIL_BACKEND=CUDA -DSTENCIL_BUILD_TESTS=OFF -DSTENCIL_BUILD_BENCH=OFF "${prefix[@]}" >/dev/null &&
  cmake --build build-before -j8 --target stencil-miniapp >"$OUT/build-before.log" 2>&1) &
(cmake -S . -B build-after -DSTENCIL_BACKEND=CUDA "${prefix[@]}" >/dev/null &&
  cmake --build build-after -j8 >"$OUT/build-after.log" 2>&1) &
wait
mkdir -p "$OUT/runs"
app() { # variant -> binary and flags
  case $1 in
    before) echo "build-before/miniapp/stencil-miniapp" ;;
    plain) echo "build-after/miniapp/stencil-miniapp --graphs off" ;;
    graphs) echo "build-after/miniapp/stencil-miniapp --graphs on" ;;
  esac
}
for n in 64 96 128 192 256 384 512; do
  for v in before plain graphs; do
    # shellcheck disable=SC2046 # the variant's binary and flags
    $(app $v) --local $n,$n,$n --radius 4 --comm none --steps 300 --warmup 20 --quiet \
      --label $v --report "$OUT/runs/$v-$n.json" >/dev/null || echo "FAILED $v $n"
  done
done
for v in before plain graphs; do
  # shellcheck disable=SC2046
  mpirun -np 8 --oversubscribe $(app $v) --grid 128,128,128 --procs 2,2,2 --radius 4 --comm staged \
    --steps 200 --warmup 20 --quiet --label $v-np8 --report "$OUT/runs/np8-$v.json" >"$OUT/runs/np8-$v.txt" 2>&1 ||
    echo "FAILED np8 $v"
done
(cd build-after && ctest -j4 --timeout 900 >"$OUT/ctest.log" 2>&1); grep -E "tests passed|tests failed|\(Failed\)" "$OUT/ctest.log"
grep -E "same bits|DIFFER" "$OUT/ctest.log" | head -8
python3 - "$OUT" <<'PY'
import json, glob, sys
out = sys.argv[1]
rows = {}
for p in glob.glob(f"{out}/runs/*.json"):
    r = json.load(open(p)); ph = r["phases_ms"]
    rows.setdefault(r["label"].replace("-np8", ""), {})["np8" if "np8" in r["label"] else r["grid"][0]] = (
        ph["interior"]["avg"] * 1e3, ph["boundary"]["avg"] * 1e3, ph["step"]["avg"] * 1e3, r["gcells_per_s_total"])
print("box      before: kernel  step  Gcell/s | plain: kernel  step  Gcell/s | graphs: kernel  step  Gcell/s  outside us")
for n in (64, 96, 128, 192, 256, 384, 512, "np8"):
    cells = []
    for v in ("before", "plain", "graphs"):
        k, b, s, g = rows.get(v, {}).get(n, (0, 0, 0, 0))
        cells.append(f"{k + b:6.1f} {s:6.1f} {g:7.1f}")
    k, b, s, g = rows.get("graphs", {}).get(n, (0, 0, 0, 0))
    print(f"{str(n):>5}  " + " | ".join(cells) + f"   {s - k - b:6.1f}")
PY
(cd "$OUT" && tar czf reports.tgz runs gpu.txt ctest.log && rm -rf runs)
