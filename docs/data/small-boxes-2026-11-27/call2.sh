#!/usr/bin/env bash
# Record: ran on 2026-11-27 as it stands; new call scripts source tools/gpu/common.sh.
# shellcheck disable=SC2086,SC2015 # the option groups are words; a failed build says so
# Issue 56, call 2 on four GPUs of one node, kept as it ran. Builds this
# tree (one message a peer rank; the bench timing launches back to back)
# and the main before it (34e6013); --check through deep halos by MPI and
# NCCL; the shell bench on the tile and cells kernels; two rounds of 2,2,1
# periodic through GPU-aware MPI (ob1) at 64^3 and 128^3 per GPU, overlap
# on and deep halos, against one GPU's --comm none step, before and
# after; 512^3 not slower; a timeline of depth 2; five NCCL strong 256^3
# runs with auto. Results are packed as they go ($OUT/call2.tgz).
set -uo pipefail
OUT=${OUT:-$PWD/.out}
mkdir -p "$OUT/runs"
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 # never NVLink multicast on shared machines
t0=$(date +%s)
root=/tmp/gpumpi
[ -x $root/install/bin/mpirun ] ||
  { mkdir -p $root && tar xJf .deps/ompi-4.1.4-cuda-install.tar.xz -C $root; }
export LD_LIBRARY_PATH=$root/install/lib:${LD_LIBRARY_PATH:-}
source tools/offline-deps.sh
REV=$(cat .carry/revision)
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  echo "revision: $REV against 34e6013"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
} | tee "$OUT/environment.txt"
build() { # build SRC DIR REVISION TESTS TARGETS...
  local src=$1 dir=$2 rev=$3 tests=$4; shift 4
  PATH=$root/install/bin:$PATH cmake -S "$src" -B "$dir" -G Ninja -DSTENCIL_BACKEND=CUDA \
    -DSTENCIL_CUDA_ARCHS=90 -DSTENCIL_BUILD_TESTS="$tests" -DSTENCIL_BUILD_BENCH=ON \
    -DMPI_HOME=$root/install -DSTENCIL_REVISION="$rev" "${prefix[@]}" >"$OUT/build-$rev.log" 2>&1 &&
    cmake --build "$dir" -j"$(nproc)" --target "$@" >>"$OUT/build-$rev.log" 2>&1 ||
    { echo "build of $rev failed"; tail -20 "$OUT/build-$rev.log"; return 1; }
}
trap 'tar czf "$OUT/call2.tgz" -C "$OUT" runs environment.txt timeline-*.json 2>/dev/null' EXIT
late() { [ $(($(date +%s) - t0)) -gt "$1" ] && echo "skipped: $2 (time)"; }
mkdir -p /tmp/before && tar xf .carry/before.tar -C /tmp/before
build . /tmp/b-now "$REV" OFF stencil-miniapp stencil-bench &
build /tmp/before /tmp/b-before 34e6013 OFF stencil-miniapp &
wait
echo "builds: $(($(date +%s) - t0)) s"
NOW=/tmp/b-now/miniapp/stencil-miniapp BEFORE=/tmp/b-before/miniapp/stencil-miniapp
BENCH=/tmp/b-now/bench/stencil-bench
[ -x $NOW ] && [ -x $BEFORE ] && [ -x $BENCH ] || exit 1
mpi() { timeout 120 $root/install/bin/mpirun --mca pml ob1 --oversubscribe -x NCCL_NVLS_ENABLE \
  -x LD_LIBRARY_PATH "$@"; }
check() { # check NAME RANKS ARGS...: bitwise equal to one domain
  local name=$1 np=$2; shift 2
  if mpi -np "$np" $NOW --check --steps 40 --quiet "$@" >"$OUT/runs/$name.txt" 2>&1 &&
     grep -q "bitwise equal" "$OUT/runs/$name.txt"; then
    echo "ok      $name"
  else
    echo "FAILED  $name: $(grep -h -E "^check:|stencil-miniapp:" "$OUT/runs/$name.txt" | head -2)"
  fi
}
P="--periodic x,y,z"
check k2-221-R4 4 --grid 131,97,73 --procs 2,2,1 $P --comm gpu-aware --halo-depth 2 --overlap off
check k3-221-R2-on 4 --grid 96,80,64 --procs 2,2,1 $P --comm gpu-aware --halo-depth 3 --overlap on --radius 2
check k2-122-open 4 --grid 67,91,83 --procs 1,2,2 --comm gpu-aware --halo-depth 2 --radius 3
check k1-221-fused 4 --grid 61,53,47 --procs 2,2,1 $P --comm gpu-aware --overlap on --pack fused
check k2-221-nccl 4 --grid 131,97,73 --procs 2,2,1 $P --comm nccl --halo-depth 2
check k1-411-staged 4 --grid 200,40,40 --procs 4,1,1 $P --comm staged
echo "checks: $(($(date +%s) - t0)) s"

bench() { # bench NAME ARGS...
  local name=$1; shift
  $BENCH --precision=fp32 --radii=4 --benchmark_min_time=1 --benchmark_format=json \
    --benchmark_out="$OUT/runs/bench-$name.json" "$@" >"$OUT/runs/bench-$name.txt" 2>&1 ||
    echo "FAILED  bench $name: $(tail -2 "$OUT/runs/bench-$name.txt")"
}
for k in tile cells; do
  bench $k --variants=shell_inner,shell_slabs,shell_x --sizes=64,128,256 --slab-kernel=$k
done
bench 512 --variants=shell_slabs --sizes=512
echo "bench: $(($(date +%s) - t0)) s"

timed() { # timed NAME BIN RANKS STEPS ARGS...: one report
  local name=$1 bin=$2 np=$3 steps=$4; shift 4
  if mpi -np "$np" "$bin" --radius 4 --warmup 20 --steps "$steps" --quiet \
       --report "$OUT/runs/$name.json" "$@" >"$OUT/runs/$name.txt" 2>&1; then
    echo "$name: $(grep -h "^FOM" "$OUT/runs/$name.txt")"
  else
    echo "FAILED  $name: $(tail -2 "$OUT/runs/$name.txt" | tr '\n' ' ')"
  fi
}
for r in 1 2; do
  late 480 "round $r" && break
  timed one-64-r$r $NOW 1 100000 --local 64,64,64 --comm none
  timed one-128-r$r $NOW 1 60000 --local 128,128,128 --comm none
  for n in 64 128; do
    L="--local $n,$n,$n --procs 2,2,1 $P --comm gpu-aware"
    for v in now before; do
      bin=$NOW && [ $v = before ] && bin=$BEFORE
      sfx="" && [ $v = before ] && sfx=-before
      timed w$n-221-on$sfx-r$r $bin 4 15000 $L --overlap on
      for k in 1 2 3; do timed w$n-221-off-k$k$sfx-r$r $bin 4 15000 $L --overlap off --halo-depth $k; done
    done
  done
  [ $r = 2 ] && continue
  timed one-512-r$r $NOW 1 1500 --local 512,512,512 --comm none
  for v in now before; do
    bin=$NOW && [ $v = before ] && bin=$BEFORE
    sfx="" && [ $v = before ] && sfx=-before
    timed w512-221-on$sfx-r$r $bin 4 1200 --local 512,512,512 --procs 2,2,1 $P --comm gpu-aware --overlap on
  done
  mpi -np 4 $NOW --local 128,128,128 --procs 2,2,1 $P --comm gpu-aware --overlap off --halo-depth 2 \
    --radius 4 --steps 200 --quiet --timeline "$OUT/timeline-128-k2.json" >"$OUT/runs/timeline.txt" 2>&1
done
echo "timed: $(($(date +%s) - t0)) s"
for r in 1 2 3 4 5; do
  late 540 "nccl r$r" && break
  timed s256-nccl-auto-r$r $NOW 4 20000 --grid 256,256,256 --comm nccl
done
for o in on off; do timed s256-nccl-$o $NOW 4 20000 --grid 256,256,256 --comm nccl --overlap $o; done
python3 docs/data/small-boxes-2026-11-27/table.py "$OUT/runs" >"$OUT/table.txt" 2>&1
echo "total: $(($(date +%s) - t0)) s"
cat "$OUT/table.txt"
