#!/usr/bin/env bash
# Issue 53, call 4 on four GPUs of one node, kept as it ran: how the x
# faces (rows of R cells) are best stored. Builds this tree (16 bytes a
# row where aligned) and this tree with four-byte-stores.patch ("4b": a
# cell at a time, as the probe stored them), checks the variant, then two
# rounds of the peer step with x faces only (4,1,1), x and y (2,2,1) and z
# only (1,1,4), each against one GPU's --comm none step of this call.
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
  echo "revision: $(cat .carry/revision) and four-byte-stores.patch"
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
rm -rf /tmp/fold && mkdir -p /tmp/fold && tar cf - --exclude=./.deps --exclude=./.carry . | tar xf - -C /tmp/fold
(cd /tmp/fold && patch -p1 -s <"$OLDPWD/docs/data/one-kernel-node-2026-11-27/four-byte-stores.patch") || exit 1
build . /tmp/b-now "$(cat .carry/revision)" &
build /tmp/fold /tmp/b-fold "$(cat .carry/revision)-4b" &
wait
echo "builds: $(($(date +%s) - t0)) s"
NOW=/tmp/b-now/miniapp/stencil-miniapp FOLD=/tmp/b-fold/miniapp/stencil-miniapp
[ -x $NOW ] && [ -x $FOLD ] || exit 1
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
NOW=$FOLD check 4b-411-periodic 4 --grid 256,96,80 --procs 4,1,1 --periodic x,y,z --comm peer
NOW=$FOLD check 4b-221-odd-R3 4 --grid 191,157,173 --procs 2,2,1 --periodic x,y,z --radius 3 --comm peer
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
  timed one-128-r$r $NOW 1 60000 $L128 --comm none
  timed one-512-r$r $NOW 1 1500 $L512 --comm none
  for v in now 4b; do
    bin=$NOW && [ $v = 4b ] && bin=$FOLD
    timed w128-411-peer-$v-r$r $bin 4 40000 $L128 --procs 4,1,1 $P --comm peer
    timed w128-221-peer-$v-r$r $bin 4 40000 $L128 --procs 2,2,1 $P --comm peer
    timed w128-114-peer-$v-r$r $bin 4 40000 $L128 --procs 1,1,4 $P --comm peer
    timed w512-411-peer-$v-r$r $bin 4 1200 $L512 --procs 4,1,1 $P --comm peer
    timed w512-221-peer-$v-r$r $bin 4 1200 $L512 --procs 2,2,1 $P --comm peer
  done
done
echo "timed runs done: $(($(date +%s) - t0)) s"
python3 docs/data/one-kernel-node-2026-11-27/table.py "$OUT/runs" | tee "$OUT/table.txt"
tar czf "$OUT/call4.tgz" -C "$OUT" runs environment.txt "build-$(cat .carry/revision).log" 2>/dev/null
rm -rf "$OUT/runs" "$OUT"/build-*.log
echo "total: $(($(date +%s) - t0)) s"
