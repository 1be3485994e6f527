#!/usr/bin/env bash
# Record: ran on 2026-12-01 as it stands; new call scripts source tools/gpu/common.sh.
# Issue 58, call 5 on one H200: why the wave update ran slower with two
# planes of loads in flight (call 4, README.md here), and whether call 2's
# order of loads runs faster. One stencil-bench build of this tree
# ("slot": p_prev and the velocity term read where they landed, plane
# k + 2's asked for after the update), then the same tree with the
# update's loads asked for before the barrier and copied out, as with one
# plane ("copy", call 2's order; a sed patch, put back at the end).
# While "copy" builds: Nsight Compute on the slot build (wave R = 1, 4, 8
# FP32 at 512^3, one and two planes) and the machine code of the R = 4
# kernels. Then both builds' stencil-bench at 512^3 (wave R = 1, 4, 8 FP32
# and R = 4 FP64, --ahead=1,2, each benchmark at least 1 s), two rounds,
# the builds interleaved. About 7 minutes. It ran on c52caea; later trees
# build the copy order themselves, the patch no longer applies, and the
# script says so (exit 2) after the first build.
#
# usage, from the repository root with .deps/ (tools/README.md):
#   bash docs/data/planes-ahead-h200-2026-12-01/call5.sh
# Results: $OUT (default .out): call5.tgz and a short table last.
set -uo pipefail
OUT=${OUT:-$PWD/.out}
work=/tmp/call5
mkdir -p "$OUT" "$work"
export PATH=/usr/local/cuda/bin:$PATH
# shellcheck source=../../../tools/offline-deps.sh
source tools/offline-deps.sh
t0=$(date +%s)
say() { echo "[$(($(date +%s) - t0)) s] $*"; }
walk=kernels/fused_walk.hpp
cp "$walk" "$work/fused_walk.hpp.kept"
trap 'cp "$work/fused_walk.hpp.kept" "$walk"; (cd "$work" && tar czf "$OUT/call5.tgz" ./*.txt ./*.json ./*.log 2>/dev/null)' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv,noheader |
  tee "$work/environment.txt"
build() { # build LABEL: stencil-bench of the tree as it is now, copied to $work/bench-LABEL
  cmake -S . -B build-c5 -G Ninja -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 -DSTENCIL_BUILD_TESTS=OFF \
    -DSTENCIL_BUILD_MINIAPP=OFF -DSTENCIL_RESOURCE_REPORT=ON "${prefix[@]}" >"$work/configure-$1.log" 2>&1 &&
    cmake --build build-c5 --target stencil-bench -j"$(nproc)" >"$work/build-$1.log" 2>&1 &&
    cp build-c5/bench/stencil-bench "$work/bench-$1" || { tail -30 "$work/build-$1.log"; return 1; }
  python3 tools/resource-report.py cuda "$work/build-$1.log" >"$work/resources-$1.txt"
  say "built $1"
}
build slot || exit 1
# The copy variant: prev and vel copied out of their slot and plane k + 2's
# asked for before the barrier, with the window's.
# (Six lines: the prologue's prefetch already reads "slice, true, true)".)
sed -i -e 's/Vec<T>(&prev)\[Rows\] = Ahead == 1 ? prev_copy : prev_next\[a\];/Vec<T>(\&prev)[Rows] = prev_copy;/' \
  -e 's/Vec<T>(&v)\[Rows\] = Ahead == 1 ? v_copy : vel_next\[a\];/Vec<T>(\&v)[Rows] = v_copy;/' \
  -e 's/if (Ahead == 1) {/if (true) {/' \
  -e 's/prefetch(a, target + Ahead \* slice, true, Ahead == 1)/prefetch(a, target + Ahead * slice, true, true)/' \
  -e 's/if (Ahead == 2 \&\& k + Ahead < k_last) prefetch/if (false \&\& k + Ahead < k_last) prefetch/' "$walk"
[ "$(grep -c -e '= prev_copy;' -e '= v_copy;' -e 'if (true) {' -e 'slice, true, true)' -e 'if (false &&' "$walk")" = 6 ] ||
  { echo "call5: the copy patch did not apply" >&2; exit 2; }
build copy &
builder=$!
# Nsight Compute on the slot build, beside the copy build (kernel times
# from replays; the CPUs' load does not enter them).
for R in 4 1 8; do
  for a in 1 2; do
    ncu --clock-control none -k regex:fused_kernel --launch-skip 3 --launch-count 1 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats \
      --section LaunchStats --section SchedulerStats --section InstructionStats \
      --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__inst_executed.sum \
      "$work/bench-slot" --sizes=512 --radii=$R --precision=fp32 --variants=wave --ahead=$a \
      --benchmark_filter="wave/R$R/fp32/512x512x512/ahead=$a" --benchmark_min_time=0.01 \
      >"$work/ncu-R$R-ahead$a.txt" 2>&1 || say "ncu R$R ahead $a failed: $(tail -2 "$work/ncu-R$R-ahead$a.txt")"
  done
done
say "ncu done"
for kernel in fused_kernel fused_kernel_2ahead; do
  n=$([ $kernel = fused_kernel ] && echo 12 || echo 19)
  cuobjdump -sass -fun "_ZN7stencil6detail${n}${kernel}ILi4EfLb1ELi2ELb0EEEvNS_9FieldViewIKT0_EENS2_IS3_EES5_NS_3BoxENS_12CoefficientsIXT_ES3_EENS_6SpongeENS_7XGroupsEi" \
    "$work/bench-slot" >"$work/sass-R4-$kernel.txt" 2>&1
  say "sass $kernel R4: $(grep -c '/\*[0-9a-f]*\*/' "$work/sass-R4-$kernel.txt") instructions," \
    "$(grep -c 'LDG' "$work/sass-R4-$kernel.txt") LDG, $(grep -c 'BAR.SYNC' "$work/sass-R4-$kernel.txt") BAR"
done
wait $builder || exit 1
bench="--sizes=512 --radii=1,4,8 --precision=fp32 --variants=wave --ahead=1,2 --benchmark_min_time=1"
for round in 1 2; do
  order=(slot copy)
  [ $round = 1 ] || order=(copy slot)
  for label in "${order[@]}"; do
    # shellcheck disable=SC2086 # bench is a list of flags
    "$work/bench-$label" $bench --benchmark_out="$work/bench-$label-r$round.json" --benchmark_out_format=json \
      >"$work/bench-$label-r$round.log" 2>&1 || { tail -5 "$work/bench-$label-r$round.log"; }
    "$work/bench-$label" --sizes=512 --radii=4 --precision=fp64 --variants=wave --ahead=1,2 --benchmark_min_time=1 \
      --benchmark_out="$work/bench64-$label-r$round.json" --benchmark_out_format=json \
      >"$work/bench64-$label-r$round.log" 2>&1 || { tail -5 "$work/bench64-$label-r$round.log"; }
    say "bench $label round $round"
    python3 tools/report-table.py bench "$work/bench-$label-r$round.json" | grep -E "copy|wave"
    python3 tools/report-table.py bench "$work/bench64-$label-r$round.json" | grep -E "copy|wave"
  done
done
for f in "$work"/ncu-*.txt; do
  echo "== $(basename "$f")"
  grep -E "Duration|DRAM Throughput|Memory Throughput|dram__bytes|sector_hit|Achieved Occupancy|Registers Per|Stall|Warp Cycles Per Issued|No Eligible|inst_executed.sum" "$f" | head -14
done
