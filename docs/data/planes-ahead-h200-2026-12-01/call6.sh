#!/usr/bin/env bash
# Record: ran on 2026-12-01 as it stands; new call scripts source tools/gpu/common.sh.
# Issue 58, call 6 on one H200: call 5's Nsight Compute figures put the
# wave update's L2 throughput (88% at R = 4, 94% at R = 1) above its DRAM
# throughput (72%, 86%). If the L2 binds, a tile with less apron a cell
# (more rows per thread, wider blocks) moves the R = 4 kernel, and a deeper
# pipeline does not. stencil-bench at 512^3, wave R = 4 FP32: rows 1, 2, 4
# in blocks 16x8, 32x8 and 16x16 (one plane ahead), then the tuner's own
# choice at R = 4 and 8 (--tuning, 8 s a kernel). About 4 minutes.
#
# usage, from the repository root with .deps/ (tools/README.md):
#   bash docs/data/planes-ahead-h200-2026-12-01/call6.sh
set -uo pipefail
OUT=${OUT:-$PWD/.out}
work=/tmp/call6
mkdir -p "$OUT" "$work"
export PATH=/usr/local/cuda/bin:$PATH
# shellcheck source=../../../tools/offline-deps.sh
source tools/offline-deps.sh
t0=$(date +%s)
say() { echo "[$(($(date +%s) - t0)) s] $*"; }
trap '(cd "$work" && tar czf "$OUT/call6.tgz" ./*.json ./*.log 2>/dev/null)' EXIT
cmake -S . -B build-c6 -G Ninja -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 -DSTENCIL_BUILD_TESTS=OFF \
  -DSTENCIL_BUILD_MINIAPP=OFF "${prefix[@]}" >"$work/configure.log" 2>&1 &&
  cmake --build build-c6 --target stencil-bench -j"$(nproc)" >"$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log"; exit 1; }
say built
bench=build-c6/bench/stencil-bench
for block in 16x8 32x8 16x16; do
  "$bench" --sizes=512 --radii=4 --precision=fp32 --variants=wave --rows=1,2,4 --block-x="${block%x*}" \
    --block-y="${block#*x}" --benchmark_min_time=1 --benchmark_out="$work/block-$block.json" \
    --benchmark_out_format=json >"$work/block-$block.log" 2>&1 || tail -5 "$work/block-$block.log"
  say "block $block"
  python3 tools/report-table.py bench "$work/block-$block.json" | grep -E "copy|wave"
done
"$bench" --sizes=512 --radii=4,8 --precision=fp32 --variants=wave --tuning="$work/tuning.json" \
  --tune-seconds=8 --benchmark_min_time=1 --benchmark_out="$work/tuned.json" --benchmark_out_format=json \
  >"$work/tuned.log" 2>&1 || tail -5 "$work/tuned.log"
say tuned
grep -iE "tun|chose" "$work/tuned.log" | head -8
python3 tools/report-table.py bench "$work/tuned.json" | grep -E "copy|wave"
