#!/usr/bin/env bash
# Issue 53, call 3 on four GPUs of one node, kept as it ran: the face
# stores direct (an offset from the updated cell), in a kernel of their own.
# Builds this tree and the main before it (519a287); the checks, the
# planted bugs and the NaN that hung peer runs; then two rounds of the
# issue's rows, each against one GPU's --comm none step of this call (the
# first round with forced MPI and the before rows too); timelines of a
# 128^3 and a 512^3 peer step. $OUT/call3.tgz, the table last.
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
build . /tmp/b-now "$(cat .carry/revision)" &
build /tmp/before /tmp/b-before 519a287 &
wait
echo "builds: $(($(date +%s) - t0)) s"
NOW=/tmp/b-now/miniapp/stencil-miniapp BEFORE=/tmp/b-before/miniapp/stencil-miniapp
[ -x $NOW ] && [ -x $BEFORE ] || exit 1
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
planted wrong-face 3 --grid $g --procs 3,1,1 --periodic x --comm peer --inject-fault peer-wrong-face
planted drop-face 4 --grid 40,36,44 --procs 2,2,1 --periodic x,y,z --comm peer --inject-fault drop-face
if mpi -np 2 $NOW --grid 36,36,36 --radius 2 --steps 12 --comm peer --inject-fault nan \
     >"$OUT/runs/nan.txt" 2>&1; then
  echo "FAILED  nan: the planted NaN ran to the end"
else
  echo "ended   nan ($?): $(grep -h -o "unstable: .*step [0-9]*" "$OUT/runs/nan.txt" | head -1)"
fi
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
  for v in peer auto; do
    comm=(--comm peer) && [ $v = auto ] && comm=()
    timed w64-221-$v-r$r $NOW 4 60000 $L64 --procs 2,2,1 $P "${comm[@]}"
    timed w128-221-$v-r$r $NOW 4 40000 $L128 --procs 2,2,1 $P "${comm[@]}"
    timed w128-114-$v-r$r $NOW 4 40000 $L128 --procs 1,1,4 $P "${comm[@]}"
    timed w512-221-$v-r$r $NOW 4 1200 $L512 --procs 2,2,1 $P "${comm[@]}"
    timed w512-122-$v-r$r $NOW 4 1200 $L512 --procs 1,2,2 $P "${comm[@]}"
    timed s256-$v-r$r $NOW 4 30000 --grid 256,256,256 "${comm[@]}"
    timed s512-$v-r$r $NOW 4 5000 --grid 512,512,512 "${comm[@]}"
  done
  [ $r = 2 ] && continue
  timed one-64-before-r$r $BEFORE 1 100000 $L64 --comm none
  timed one-128-before-r$r $BEFORE 1 60000 $L128 --comm none
  timed one-512-before-r$r $BEFORE 1 1500 $L512 --comm none
  timed w512-221-ob1-r$r $NOW 4 1200 $L512 --procs 2,2,1 $P --comm gpu-aware
  timed w512-221-ob1-before-r$r $BEFORE 4 1200 $L512 --procs 2,2,1 $P --comm gpu-aware
  timed s256-ob1-r$r $NOW 4 20000 --grid 256,256,256 --comm gpu-aware
  timed s512-ob1-r$r $NOW 4 5000 --grid 512,512,512 --comm gpu-aware
  timed s512-ob1-before-r$r $BEFORE 4 5000 --grid 512,512,512 --comm gpu-aware
done
echo "timed runs done: $(($(date +%s) - t0)) s"
for n in 128 512; do
  mpi -np 4 $NOW --local $n,$n,$n --procs 2,2,1 $P --comm peer --radius 4 --steps 200 --quiet \
    --timeline "$OUT/timeline-$n.json" >"$OUT/runs/timeline-$n.txt" 2>&1
done
python3 docs/data/one-kernel-node-2026-11-27/table.py "$OUT/runs" | tee "$OUT/table.txt"
tar czf "$OUT/call3.tgz" -C "$OUT" runs environment.txt timeline-128.json timeline-512.json \
  build-519a287.log "build-$(cat .carry/revision).log" 2>/dev/null
rm -rf "$OUT/runs" "$OUT"/build-*.log
echo "total: $(($(date +%s) - t0)) s"
