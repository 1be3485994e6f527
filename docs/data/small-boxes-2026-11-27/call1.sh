#!/usr/bin/env bash
# shellcheck disable=SC2086,SC2015 # the option groups are words; a failed build says so
# Issue 56, call 1 on four GPUs of one node, kept as it ran. Builds this
# tree (slabs of boxes up to 256^3 on the cells kernel) and the main before
# it (34e6013); the GPU tests of the merged slab launches; --check runs
# through the cells kernel and a planted skipped slab cell; the shell bench
# on each slab kernel at 64^3..512^3; one GPU's periodic step against its
# --comm none step, before and after; deep halos on 2,2,1 through
# GPU-aware MPI (ob1) with timelines; five NCCL strong 256^3 runs.
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
mkdir -p /tmp/before && tar xf .carry/before.tar -C /tmp/before
build . /tmp/b-now "$REV" ON stencil-miniapp stencil-bench stencil_kernel_tests &
build /tmp/before /tmp/b-before 34e6013 OFF stencil-miniapp &
wait
echo "builds: $(($(date +%s) - t0)) s"
NOW=/tmp/b-now/miniapp/stencil-miniapp BEFORE=/tmp/b-before/miniapp/stencil-miniapp
BENCH=/tmp/b-now/bench/stencil-bench
[ -x $NOW ] && [ -x $BEFORE ] && [ -x $BENCH ] || exit 1
/tmp/b-now/tests/stencil_kernel_tests --gtest_filter='Radii/MergedLaunches*:WaveTables*' \
  >"$OUT/runs/kernel-tests.txt" 2>&1
echo "kernel tests (merged slabs, GPU): $(tail -1 "$OUT/runs/kernel-tests.txt")"
mpi() { timeout 150 $root/install/bin/mpirun --mca pml ob1 --oversubscribe -x NCCL_NVLS_ENABLE \
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
O="--comm gpu-aware --overlap on"
check c221-R1 4 --grid 61,53,47 --procs 2,2,1 $P $O --radius 1
check c221-R4 4 --grid 131,97,73 --procs 2,2,1 $P $O --radius 4
check c221-R8-fp64 4 --grid 131,97,73 --procs 2,2,1 $P $O --radius 8 --precision fp64
check c122-R3-open 4 --grid 67,91,83 --procs 1,2,2 $O --radius 3
check c-one-R4 1 --grid 67,61,59 $P $O --radius 4
check c221-K2-R2 4 --grid 96,80,64 --procs 2,2,1 $P $O --radius 2 --halo-depth 2
if mpi -np 4 $NOW --check --steps 40 --quiet --graphs off --grid 61,53,47 --procs 2,2,1 $P $O \
     --inject-fault skip-slab-cell >"$OUT/runs/planted.txt" 2>&1; then
  echo "MISSED  skip-slab-cell passed its check"
else
  echo "caught  skip-slab-cell: $(grep -h -E "^check:" "$OUT/runs/planted.txt" | head -1)"
fi
echo "checks: $(($(date +%s) - t0)) s"

bench() { # bench NAME ARGS...
  local name=$1; shift
  $BENCH --precision=fp32 --benchmark_min_time=1 --benchmark_format=json \
    --benchmark_out="$OUT/runs/bench-$name.json" "$@" >"$OUT/runs/bench-$name.txt" 2>&1 ||
    echo "FAILED  bench $name: $(tail -2 "$OUT/runs/bench-$name.txt")"
}
for k in tile thin cells; do
  bench $k --variants=shell_inner,shell_slabs,shell_x,shell_y,shell_z --sizes=64,128,256,512 \
    --radii=4 --slab-kernel=$k
done
bench r18-tile --variants=shell_slabs --sizes=128 --radii=1,8 --precision=fp32,fp64 --slab-kernel=tile
bench r18-cells --variants=shell_slabs --sizes=128 --radii=1,8 --precision=fp32,fp64 --slab-kernel=cells
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
steps_for() { case $1 in 64) echo 100000 ;; 128) echo 60000 ;; 256) echo 10000 ;; *) echo 1500 ;; esac; }
for n in 64 128 256 512; do
  s=$(steps_for $n) L="--local $n,$n,$n"
  timed one-$n $NOW 1 "$s" $L --comm none
  timed one-${n}P-on $NOW 1 "$s" $L $P --overlap on
  timed one-${n}P-auto $NOW 1 "$s" $L $P
  timed one-$n-before $BEFORE 1 "$s" $L --comm none
  timed one-${n}P-on-before $BEFORE 1 "$s" $L $P --overlap on
done
echo "one GPU: $(($(date +%s) - t0)) s"
for n in 64 128; do
  s=$(($(steps_for $n) / 4)) L="--local $n,$n,$n --procs 2,2,1 $P --comm gpu-aware"
  for v in now before; do
    bin=$NOW && [ $v = before ] && bin=$BEFORE
    sfx="" && [ $v = before ] && sfx=-before
    timed w$n-221-on$sfx $bin 4 "$s" $L --overlap on
    for k in 1 2 3; do timed w$n-221-off-k$k$sfx $bin 4 "$s" $L --overlap off --halo-depth $k; done
  done
  for k in 1 2; do
    mpi -np 4 $NOW $L --overlap off --halo-depth $k --radius 4 --steps 200 --quiet \
      --timeline "$OUT/timeline-$n-k$k.json" >"$OUT/runs/timeline-$n-k$k.txt" 2>&1
  done
done
echo "deep halos: $(($(date +%s) - t0)) s"
for r in 1 2 3 4 5; do timed s256-nccl-auto-r$r $NOW 4 20000 --grid 256,256,256 --comm nccl; done
timed s256-nccl-off-r1 $NOW 4 20000 --grid 256,256,256 --comm nccl --overlap off
timed s256-nccl-off-nographs-r1 $NOW 4 20000 --grid 256,256,256 --comm nccl --overlap off --graphs off
echo "nccl: $(($(date +%s) - t0)) s"
python3 docs/data/small-boxes-2026-11-27/table.py "$OUT/runs" >"$OUT/table.txt" 2>&1
tar czf "$OUT/call1.tgz" -C "$OUT" runs environment.txt timeline-*.json "build-$REV.log" 2>/dev/null
rm -rf "$OUT/runs" "$OUT"/build-*.log
echo "total: $(($(date +%s) - t0)) s"
cat "$OUT/table.txt"
