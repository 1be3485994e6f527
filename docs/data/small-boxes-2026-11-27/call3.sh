#!/usr/bin/env bash
# shellcheck disable=SC2086,SC2015 # the option groups are words; a failed build says so
# Issue 56, call 3 on four GPUs of one node, kept as it ran: the same
# builds as call 2; the second round of its 2,2,1 rows at 64^3 and 128^3
# per GPU (before and after) for their spread; NCCL strong 256^3, overlap
# on and off forced, graphs on and off, three runs each, to find which
# setting lands at the slow speed. Results: $OUT/call3.tgz.
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
trap 'tar czf "$OUT/call3.tgz" -C "$OUT" runs environment.txt timeline-*.json 2>/dev/null' EXIT
late() { [ $(($(date +%s) - t0)) -gt "$1" ] && echo "skipped: $2 (time)"; }
mkdir -p /tmp/before && tar xf .carry/before.tar -C /tmp/before
build . /tmp/b-now "$REV" OFF stencil-miniapp &
build /tmp/before /tmp/b-before 34e6013 OFF stencil-miniapp &
wait
echo "builds: $(($(date +%s) - t0)) s"
NOW=/tmp/b-now/miniapp/stencil-miniapp BEFORE=/tmp/b-before/miniapp/stencil-miniapp
[ -x $NOW ] && [ -x $BEFORE ] || exit 1
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
timed() { # timed NAME BIN RANKS STEPS ARGS...: one report
  local name=$1 bin=$2 np=$3 steps=$4; shift 4
  if mpi -np "$np" "$bin" --radius 4 --warmup 20 --steps "$steps" --quiet \
       --report "$OUT/runs/$name.json" "$@" >"$OUT/runs/$name.txt" 2>&1; then
    echo "$name: $(grep -h "^FOM" "$OUT/runs/$name.txt")"
  else
    echo "FAILED  $name: $(tail -2 "$OUT/runs/$name.txt" | tr '\n' ' ')"
  fi
}
for r in 1 2 3; do
  for o in on off; do
    for g in on off; do
      late 420 "nccl $o $g r$r" && break 3
      timed s256-nccl-$o-graphs-$g-r$r $NOW 4 20000 --grid 256,256,256 --comm nccl --overlap $o --graphs $g
    done
  done
done
echo "nccl: $(($(date +%s) - t0)) s"
r=2
timed one-64-r$r $NOW 1 100000 --local 64,64,64 --comm none
timed one-128-r$r $NOW 1 60000 --local 128,128,128 --comm none
for n in 64 128; do
  L="--local $n,$n,$n --procs 2,2,1 $P --comm gpu-aware"
  for v in now before; do
    late 540 "w$n $v" && break 2
    bin=$NOW && [ $v = before ] && bin=$BEFORE
    sfx="" && [ $v = before ] && sfx=-before
    timed w$n-221-on$sfx-r$r $bin 4 15000 $L --overlap on
    for k in 1 2 3; do timed w$n-221-off-k$k$sfx-r$r $bin 4 15000 $L --overlap off --halo-depth $k; done
  done
done
python3 docs/data/small-boxes-2026-11-27/table.py "$OUT/runs" >"$OUT/table.txt" 2>&1
echo "total: $(($(date +%s) - t0)) s"
cat "$OUT/table.txt"
