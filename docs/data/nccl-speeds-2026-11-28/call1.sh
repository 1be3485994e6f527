#!/usr/bin/env bash
# shellcheck disable=SC2086,SC2015 # the option groups are words; a failed build says so
# Issue 56, call 1 on four GPUs of one node, kept as it ran.
# 1. NCCL's two speeds: strong 256^3 through --comm nccl with graphs, the
#    tree that gives NCCL's captured kernels the halo stream's priority
#    ("now") against 2e12ee1 ("before"), forced overlap off and on, and auto.
# 2. The projection's calibration on this node (one GPU's --comm none sweep
#    and periodic shell from 64^3 to 512^3, two GPUs split along x,
#    stencil-halo-bench on two GPUs), as tools/gpu-timing.sh --calibration
#    makes it, with 64^3 and 96^3 added.
# 3. Validation runs at 64^3 and 128^3 per GPU on four GPUs: 2,2,1 periodic
#    overlap on and off at K = 1, 2, 3; 2,2,1 open; strong 256^3.
# Results: $OUT/call1.tgz.
set -uo pipefail
OUT=${OUT:-$PWD/.out}
mkdir -p "$OUT/runs" "$OUT/calibration/sweep" "$OUT/calibration/shell" "$OUT/calibration/scaling"
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
  echo "revision: $REV against 2e12ee1"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvidia-smi topo -m
} | tee "$OUT/environment.txt"
build() { # build SRC DIR REVISION
  local src=$1 dir=$2 rev=$3
  PATH=$root/install/bin:$PATH cmake -S "$src" -B "$dir" -G Ninja -DSTENCIL_BACKEND=CUDA \
    -DSTENCIL_CUDA_ARCHS=90 -DSTENCIL_BUILD_TESTS=OFF -DSTENCIL_BUILD_BENCH=ON \
    -DMPI_HOME=$root/install -DSTENCIL_REVISION="$rev" "${prefix[@]}" >"$OUT/build-$rev.log" 2>&1 &&
    cmake --build "$dir" -j8 --target stencil-miniapp stencil-halo-bench >>"$OUT/build-$rev.log" 2>&1 ||
    { echo "build of $rev failed"; tail -20 "$OUT/build-$rev.log"; return 1; }
}
trap 'tar czf "$OUT/call1.tgz" -C "$OUT" runs calibration environment.txt table.txt 2>/dev/null' EXIT
late() { [ $(($(date +%s) - t0)) -gt "$1" ] && echo "skipped: $2 (time)"; }
mkdir -p /tmp/before && tar xf .carry/before.tar -C /tmp/before
build . /tmp/b-now now &
build /tmp/before /tmp/b-before 2e12ee1 &
wait
echo "builds: $(($(date +%s) - t0)) s"
NOW=/tmp/b-now/miniapp/stencil-miniapp BEFORE=/tmp/b-before/miniapp/stencil-miniapp
[ -x $NOW ] && [ -x $BEFORE ] || exit 1
mpi() { timeout 120 $root/install/bin/mpirun --mca pml ob1 --oversubscribe -x NCCL_NVLS_ENABLE \
  -x LD_LIBRARY_PATH "$@"; }
timed() { # timed NAME BIN RANKS STEPS ARGS...: one report
  local name=$1 bin=$2 np=$3 steps=$4; shift 4
  if mpi -np "$np" "$bin" --radius 4 --warmup 20 --steps "$steps" --quiet \
       --report "$OUT/runs/$name.json" "$@" >"$OUT/runs/$name.txt" 2>&1; then
    echo "$name: $(grep -h "^FOM" "$OUT/runs/$name.txt")"
  else
    echo "FAILED  $name: $(tail -2 "$OUT/runs/$name.txt" | tr '\n' ' ')"
  fi
}
S="--grid 256,256,256 --comm nccl --graphs on"
for r in 1 2 3 4 5; do
  late 240 "nccl r$r" && break
  timed s256-nccl-off-now-r$r $NOW 4 20000 $S --overlap off
  timed s256-nccl-auto-now-r$r $NOW 4 20000 $S
  [ $r -le 3 ] && timed s256-nccl-on-now-r$r $NOW 4 20000 $S --overlap on
  [ $r -le 3 ] && timed s256-nccl-off-before-r$r $BEFORE 4 20000 $S --overlap off
done
echo "nccl: $(($(date +%s) - t0)) s"
cal=$OUT/calibration
for n in 64 96 128 192 256 384 512; do
  late 380 "calibration $n" && break
  steps=$((2000000000 / (n * n * n))) && [ $steps -lt 400 ] && steps=400
  timed sweep-$n $NOW 1 $steps --local $n,$n,$n --comm none && cp "$OUT/runs/sweep-$n.json" "$cal/sweep/"
  timed shell-$n $NOW 1 $steps --local $n,$n,$n --periodic x,y,z --comm gpu-aware --overlap on &&
    cp "$OUT/runs/shell-$n.json" "$cal/shell/"
done
for o in on off; do
  timed weak-along-x-gpu-aware-overlap-$o-n2 $NOW 2 1500 --local 512,512,512 --procs 2,1,1 \
    --comm gpu-aware --overlap $o --halo-depth 1 --pack separate
  timed strong-along-x-gpu-aware-overlap-$o-n2 $NOW 2 3000 --grid 512,512,512 --procs 2,1,1 \
    --comm gpu-aware --overlap $o --halo-depth 1 --pack separate
done
cp "$OUT"/runs/*along-x*-n2.json "$cal/scaling/"
timeout 120 $root/install/bin/mpirun --mca pml ob1 -x LD_LIBRARY_PATH -np 2 \
  /tmp/b-now/bench/stencil-halo-bench --sizes 64,128,256,512 --radius 4 --modes gpu-aware --depths 1 \
  >"$cal/halo-bench-gpu-aware.txt" 2>&1 || echo "FAILED: stencil-halo-bench"
echo "calibration: $(($(date +%s) - t0)) s"
P="--periodic x,y,z --comm gpu-aware"
for n in 64 128; do
  late 540 "validation $n" && break
  L="--local $n,$n,$n --procs 2,2,1"
  timed w$n-221p-on $NOW 4 15000 $L $P --overlap on
  for k in 1 2 3; do timed w$n-221p-off-k$k $NOW 4 15000 $L $P --overlap off --halo-depth $k; done
  timed w$n-221-on $NOW 4 15000 $L --comm gpu-aware --overlap on
  timed w$n-221-off $NOW 4 15000 $L --comm gpu-aware --overlap off
done
late 570 "strong 256" || for o in on off; do
  timed s256-gpu-aware-$o $NOW 4 15000 --grid 256,256,256 --comm gpu-aware --overlap $o
done
python3 docs/data/nccl-speeds-2026-11-28/table.py "$OUT/runs" >"$OUT/table.txt" 2>&1
echo "total: $(($(date +%s) - t0)) s"
cat "$OUT/table.txt"
