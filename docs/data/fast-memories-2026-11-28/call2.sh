#!/usr/bin/env bash
# Record: ran on 2026-11-28 as it stands; new call scripts source tools/gpu/common.sh.
# shellcheck disable=SC2086,SC2015,SC2154 # option groups are words; a failed build says so; prefix: offline-deps.sh
# Issue 58, call 2 on one GPU: the fused walk's loads two planes ahead
# (kernels/fused_walk.hpp, kPlanesAhead) against one plane ahead and
# against the main before it. Run from the repository root of this tree,
# with .deps/ (tools/offline-deps.sh) and .carry/before.tar (a git archive
# of the main). Three CUDA builds at once (sm_90, resource report on):
#   base    the main, from .carry/before.tar;
#   depth1  this tree with -DSTENCIL_PLANES_AHEAD=1 (every walk one plane
#           ahead, as in the main);
#   new     this tree as it is: two planes ahead in the wave update at
#           R = 3, 4 (two rows) and R >= 7 (one row), so R = 4 and R = 8
#           change while wave R = 1 and the Laplacian stay controls.
# Then two rounds, the trees interleaved, base and new swapped between
# rounds: stencil-bench at 512^3 (copy, wave R = 1, 4, 8 and fused_xyz
# R = 4, 8 in FP32, wave R = 4 in FP64; each benchmark timed at least 1 s),
# and the mini-app --comm none on one GPU at 64^3, 128^3 and 512^3 (R = 4,
# over 1 s of timed steps each), base and new. Under 8 minutes with the
# builds: what time does not allow is skipped, saying so (depth1 and round
# 2's FP64 first). Results: $OUT/call2.tgz; a short table last.
set -uo pipefail
OUT=${OUT:-$PWD/.out}
mkdir -p "$OUT/bench" "$OUT/runs"
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
t0=$(date +%s)
source tools/offline-deps.sh
here=$PWD
REV=$(cat .carry/revision 2>/dev/null || git rev-parse --short=12 HEAD 2>/dev/null || echo now)
BASE=$(git get-tar-commit-id <.carry/before.tar 2>/dev/null | cut -c1-12)
BASE=${BASE:-main}
# The mini-app needs MPI: the Open MPI of .deps/ where it is there (one
# rank through its mpirun), else the system's (one rank started alone).
root=/tmp/gpumpi mpi_args=() one_rank=()
if [ -f .deps/ompi-4.1.4-cuda-install.tar.xz ]; then
  [ -x $root/install/bin/mpirun ] ||
    { mkdir -p $root && tar xJf .deps/ompi-4.1.4-cuda-install.tar.xz -C $root; }
  export LD_LIBRARY_PATH=$root/install/lib:${LD_LIBRARY_PATH:-}
  mpi_args=(-DMPI_HOME="$root/install")
  one_rank=("$root/install/bin/mpirun" --mca pml ob1 -x LD_LIBRARY_PATH -np 1)
fi
app=ON # without any MPI the benchmarks still run
[ ${#mpi_args[@]} -gt 0 ] || command -v mpicxx >/dev/null || { app=OFF; echo "no MPI: no mini-app"; }
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  echo "revision: $REV against $BASE"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,power.limit \
    --format=csv,noheader
  nvcc --version | tail -2 | head -1
} | tee "$OUT/environment.txt"
trap '(cd "$OUT" && tar czf call2.tgz bench runs ./*.txt ./*.log ./*.out 2>/dev/null)' EXIT
late() { [ $(($(date +%s) - t0)) -gt "$1" ] && echo "skipped: $2 (time)"; }

build() { # build TREE SOURCE MINIAPP CMAKE_ARGS...: /tmp/b-TREE, its resource table
  local tree=$1 src=$2 app=$3 targets=stencil-bench
  shift 3
  [ "$app" = ON ] && targets="stencil-bench stencil-miniapp"
  cmake -S "$src" -B /tmp/b-$tree -G Ninja -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 \
    -DSTENCIL_BUILD_TESTS=OFF -DSTENCIL_BUILD_MINIAPP=$app -DSTENCIL_RESOURCE_REPORT=ON \
    "${mpi_args[@]}" "${prefix[@]}" "$@" >"$OUT/build-$tree.log" 2>&1 &&
    cmake --build /tmp/b-$tree -j"$(nproc)" --target $targets >>"$OUT/build-$tree.log" 2>&1 ||
    { echo "build of $tree failed"; tail -20 "$OUT/build-$tree.log"; return 1; }
  python3 "$here/tools/resource-report.py" cuda "$OUT/build-$tree.log" >"$OUT/resources-$tree.txt" 2>&1
  # The kernels the benchmarks run, in their default shapes.
  grep -E "^fused_kernel<(1, float, true, 2|4, float, true, 2|8, float, true, 1|4, double, true, 2|4, float, false, 2|8, float, false, 1), false>" \
    "$OUT/resources-$tree.txt" | sed "s/^/$tree: /"
}
rm -rf /tmp/before && mkdir -p /tmp/before && tar xf .carry/before.tar -C /tmp/before
build base /tmp/before $app -DSTENCIL_REVISION="$BASE" >"$OUT/build-base.out" 2>&1 &
build new . $app -DSTENCIL_REVISION="$REV" >"$OUT/build-new.out" 2>&1 &
wait
cat "$OUT"/build-{base,new}.out
echo "builds: $(($(date +%s) - t0)) s"

FILTER='^(copy/|wave/R[148]/fp32/|fused_xyz/R[48]/fp32/|wave/R4/fp64/)'
bench() { # bench TREE NAME PRECISIONS
  local tree=$1 name=$2 B=/tmp/b-$1/bench/stencil-bench
  [ -x $B ] || { echo "no stencil-bench in $tree"; return 1; }
  if timeout 150 $B --sizes=512 --precision=$3 --radii=1,4,8 --variants=wave,fused_xyz \
       --benchmark_filter="$FILTER" --benchmark_min_time=1 --benchmark_out="$OUT/bench/$name.json" \
       >"$OUT/bench/$name.txt" 2>&1; then
    grep -E "^(copy|wave|fused_xyz)/" "$OUT/bench/$name.txt" | awk -v n=$name '{
      r = ""; for (i = 1; i <= NF; ++i) if ($i ~ /^copy_ratio=/) r = substr($i, 12)
      printf "%-16s %-44s %8s ms  of copy %s\n", n, $1, $2, r }'
  else
    echo "FAILED bench $name: $(tail -3 "$OUT/bench/$name.txt" | tr '\n' ' ')"
  fi
}
app() { # app TREE ROUND N STEPS: the mini-app, one GPU, --comm none
  local name=$1-$3-r$2 A=/tmp/b-$1/miniapp/stencil-miniapp
  [ -x $A ] || { echo "no stencil-miniapp in $1"; return 1; }
  if timeout 60 "${one_rank[@]}" $A --local $3,$3,$3 --comm none --radius 4 --warmup 20 --steps $4 \
       --quiet --report "$OUT/runs/$name.json" >"$OUT/runs/$name.txt" 2>&1; then
    echo "$name: $(grep -h "^FOM" "$OUT/runs/$name.txt")"
  else
    echo "FAILED $name: $(tail -3 "$OUT/runs/$name.txt" | tr '\n' ' ')"
  fi
}
app_round() { # app_round ROUND TREES...: 64^3, 128^3, 512^3, over 1 s of steps each
  local r=$1 size tree
  shift
  for size in "64 100000" "128 60000" "512 1500"; do
    for tree in "$@"; do
      late 300 "mini-app $tree ${size% *}^3 round $r" && return
      app $tree $r $size
    done
  done
}

# The time left decides what runs, most wanted first (estimates from call
# 1: about 40 s for the FP32 benchmarks of a tree, 30 s for FP64, 25 s a
# round of the mini-app): base and new in both rounds, FP64 in round 1,
# then depth1, then the rest.
app_round 1 base new
for tree in base new; do # about 70 s each
  late 260 "bench $tree round 1" && continue
  bench $tree $tree-r1 fp32,fp64
done
app_round 2 new base
late 250 "bench new and base round 2 (FP32)" || for tree in new base; do
  bench $tree $tree-r2 fp32
done
for r in 1 2; do
  late 0 "depth1 (not built)" || true
done
for tree in new base depth1; do
  late 280 "bench $tree FP64, its other round" && break
  [ $tree = depth1 ] && break
  if [ $tree = depth1 ]; then bench depth1 depth1-r1-fp64 fp64; else bench $tree $tree-r2-fp64 fp64; fi
done
python3 docs/data/fast-memories-2026-11-28/table2.py "$OUT" >"$OUT/table.txt" 2>&1
echo "total: $(($(date +%s) - t0)) s"
cat "$OUT/table.txt"
