#!/usr/bin/env bash
# Issue 53, call 2 on four GPUs of one node, kept as it ran: the face
# stores in the walk. Builds this tree, this tree with
# fold-raise-await.patch ("fold": the raise and the wait as one kernel at
# the step's end) and the main before it (519a287); the checks again; then
# two rounds of the peer rows (the first with auto, forced MPI and the
# before rows too), each against one GPU's --comm none step of this call;
# timelines of a 128^3 peer step, now and fold. $OUT/call2.tgz, table last.
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
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  echo "revision: $(cat .carry/revision) against 519a287"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvidia-smi topo -m | head -5
} | tee "$OUT/environment.txt"
build() { # build SRC DIR REVISION
  PATH=$root/install/bin:$PATH cmake -S "$1" -B "$2" -G Ninja -DSTENCIL_BACKEND=CUDA \
    -DSTENCIL_CUDA_ARCHS=90 -DSTENCIL_BUILD_TESTS=OFF -DSTENCIL_BUILD_BENCH=OFF \
    -DMPI_HOME=$root/install -DSTENCIL_REVISION="$3" "${prefix[@]}" >"$OUT/build-$3.log" 2>&1 &&
    cmake --build "$2" -j"$(nproc)" --target stencil-miniapp >>"$OUT/build-$3.log" 2>&1 ||
    { echo "build of $3 failed"; tail -20 "$OUT/build-$3.log"; return 1; }
}
mkdir -p /tmp/before && tar xf .carry/before.tar -C /tmp/before
rm -rf /tmp/fold && mkdir -p /tmp/fold && tar cf - --exclude=./.deps --exclude=./.carry . | tar xf - -C /tmp/fold
(cd /tmp/fold && patch -p1 -s <"$OLDPWD/docs/data/one-kernel-node-2026-11-27/fold-raise-await.patch") || exit 1
build . /tmp/b-now "$(cat .carry/revision)" &
build /tmp/fold /tmp/b-fold "$(cat .carry/revision)-fold" &
build /tmp/before /tmp/b-before 519a287 &
wait
echo "builds: $(($(date +%s) - t0)) s"
NOW=/tmp/b-now/miniapp/stencil-miniapp BEFORE=/tmp/b-before/miniapp/stencil-miniapp
FOLD=/tmp/b-fold/miniapp/stencil-miniapp
[ -x $NOW ] && [ -x $BEFORE ] && [ -x $FOLD ] || exit 1
env_x=()
mpi() { timeout 150 $root/install/bin/mpirun --mca pml ob1 --oversubscribe -x NCCL_NVLS_ENABLE \
  -x LD_LIBRARY_PATH "${env_x[@]}" "$@"; }
check() { # check NAME RANKS ARGS...: bitwise equal to one domain
  local name=$1 np=$2; shift 2
  if mpi -np "$np" $NOW --check --steps 40 --quiet "$@" >"$OUT/runs/$name.txt" 2>&1 &&
     grep -q "bitwise equal" "$OUT/runs/$name.txt"; then
    echo "ok      $name"
  else
    echo "FAILED  $name: $(grep -h -E "^check:|stencil-miniapp:" "$OUT/runs/$name.txt" | head -2)"
  fi
}
planted() { # planted NAME RANKS ARGS...: the check must fail
  local name=$1 np=$2; shift 2
  if mpi -np "$np" $NOW --check --steps 40 --quiet --graphs off "$@" >"$OUT/runs/$name.txt" 2>&1; then
    echo "MISSED  $name: the planted bug passed its check"
  else
    echo "caught  $name: $(grep -h -E "^check:" "$OUT/runs/$name.txt" | head -1)"
  fi
}
g=192,160,176
check peer-221-periodic 4 --grid $g --procs 2,2,1 --periodic x,y,z --comm peer
check peer-122-open-R7-fp64 4 --grid $g --procs 1,2,2 --radius 7 --precision fp64 --comm peer
check peer-222-8ranks-R5 8 --grid $g --procs 2,2,2 --periodic x,y,z --radius 5 --comm peer
check peer-221-odd-R3 4 --grid 191,157,173 --procs 2,2,1 --periodic x,y,z --radius 3 --comm peer
check peer-411-R2-fp64-graphs-off 4 --grid 255,96,80 --procs 4,1,1 --periodic x --radius 2 \
  --precision fp64 --comm peer --graphs off
check peer-221-source-on-face-fp64 4 --grid $g --procs 2,2,1 --periodic x,y,z --source 96,80,3 \
  --precision fp64 --comm peer
env_x=(-x STENCIL_NODE_RANKS=2)
check peer-hybrid-overlap-on 4 --grid $g --procs 2,2,1 --periodic x,y,z --comm peer --overlap on
check peer-hybrid-overlap-off 4 --grid $g --procs 2,2,1 --periodic x,y,z --comm peer --overlap off
env_x=()
check auto-one-gpu-periodic-R8 1 --grid $g --periodic x,y,z --radius 8
check ob1-211-fused-periodic 2 --grid $g --procs 2,1,1 --periodic x,y,z --comm gpu-aware --overlap on \
  --pack fused
planted skip-wait 2 --grid $g --procs 2,1,1 --periodic x,y,z --comm peer --inject-fault peer-skip-wait
planted early-signal 2 --grid $g --procs 2,1,1 --periodic x,y,z --comm peer --inject-fault peer-early-signal
planted wrong-level 2 --grid $g --procs 2,1,1 --comm peer --inject-fault peer-wrong-level
planted drop-face 4 --grid 40,36,44 --procs 2,2,1 --periodic x,y,z --comm peer --inject-fault drop-face
NOW=$FOLD check fold-221-periodic 4 --grid $g --procs 2,2,1 --periodic x,y,z --comm peer
echo "checks done: $(($(date +%s) - t0)) s"

timed() { # timed NAME BIN RANKS STEPS ARGS...: one report
  local name=$1 bin=$2 np=$3 steps=$4; shift 4
  if mpi -np "$np" "$bin" --radius 4 --warmup 20 --steps "$steps" --quiet \
       --report "$OUT/runs/$name.json" "$@" >"$OUT/runs/$name.txt" 2>&1; then
    echo "$name: $(grep -h "^FOM" "$OUT/runs/$name.txt")"
  else
    echo "FAILED  $name: $(tail -2 "$OUT/runs/$name.txt" | tr '\n' ' ')"
  fi
}
P="--periodic x,y,z"
L64="--local 64,64,64" L128="--local 128,128,128" L512="--local 512,512,512"
# shellcheck disable=SC2086 # the sizes are words
for r in 1 2; do
  timed one-64-r$r $NOW 1 100000 $L64 --comm none
  timed one-128-r$r $NOW 1 60000 $L128 --comm none
  timed one-256-r$r $NOW 1 10000 --grid 256,256,256 --comm none
  timed one-512-r$r $NOW 1 1500 $L512 --comm none
  timed one-128P-auto-r$r $NOW 1 60000 $L128 $P
  timed one-512P-auto-r$r $NOW 1 1500 $L512 $P
  for v in now fold; do
    bin=$NOW && [ $v = fold ] && bin=$FOLD
    timed w64-221-peer-$v-r$r $bin 4 60000 $L64 --procs 2,2,1 $P --comm peer
    timed w128-221-peer-$v-r$r $bin 4 40000 $L128 --procs 2,2,1 $P --comm peer
    timed w128-114-peer-$v-r$r $bin 4 40000 $L128 --procs 1,1,4 $P --comm peer
    timed w512-221-peer-$v-r$r $bin 4 1200 $L512 --procs 2,2,1 $P --comm peer
    timed w512-122-peer-$v-r$r $bin 4 1200 $L512 --procs 1,2,2 $P --comm peer
    timed s256-peer-$v-r$r $bin 4 30000 --grid 256,256,256 --comm peer
    timed s512-peer-$v-r$r $bin 4 5000 --grid 512,512,512 --comm peer
  done
  [ $r = 2 ] && continue
  timed one-128-before-r$r $BEFORE 1 60000 $L128 --comm none
  timed one-512-before-r$r $BEFORE 1 1500 $L512 --comm none
  timed w64-221-auto-r$r $NOW 4 60000 $L64 --procs 2,2,1 $P
  timed w128-221-auto-r$r $NOW 4 40000 $L128 --procs 2,2,1 $P
  timed w128-114-auto-r$r $NOW 4 40000 $L128 --procs 1,1,4 $P
  timed w512-221-auto-r$r $NOW 4 1200 $L512 --procs 2,2,1 $P
  timed w512-122-auto-r$r $NOW 4 1200 $L512 --procs 1,2,2 $P
  timed w512-221-ob1-r$r $NOW 4 1200 $L512 --procs 2,2,1 $P --comm gpu-aware
  timed w512-221-ob1-before-r$r $BEFORE 4 1200 $L512 --procs 2,2,1 $P --comm gpu-aware
  timed s256-auto-r$r $NOW 4 30000 --grid 256,256,256
  timed s512-auto-r$r $NOW 4 5000 --grid 512,512,512
  timed s512-ob1-r$r $NOW 4 5000 --grid 512,512,512 --comm gpu-aware
done
echo "timed runs done: $(($(date +%s) - t0)) s"
for v in now fold; do
  bin=$NOW && [ $v = fold ] && bin=$FOLD
  mpi -np 4 $bin $L128 --procs 2,2,1 $P --comm peer --radius 4 --steps 400 --quiet \
    --timeline "$OUT/timeline-$v.json" >"$OUT/runs/timeline-$v.txt" 2>&1
done
python3 docs/data/one-kernel-node-2026-11-27/table.py "$OUT/runs" | tee "$OUT/table.txt"
tar czf "$OUT/call2.tgz" -C "$OUT" runs environment.txt timeline-now.json timeline-fold.json \
  build-519a287.log "build-$(cat .carry/revision).log" 2>/dev/null
rm -rf "$OUT/runs" "$OUT"/build-*.log
echo "total: $(($(date +%s) - t0)) s"
