#!/usr/bin/env bash
# --comm peer on one node of several GPUs, in one script: build, check,
# time, and the table last. It needs no package archive
# (tools/prepare-offline-deps.sh); with .deps/ompi-4.1.4-cuda-install.tar.xz
# the same build also times GPU-aware MPI (ob1) and NCCL beside peer.
#
# Checks, bit for bit against one domain: periodic and open splits, R = 1,
# 4 and 8, both precisions, graphs on and off, two ranks sharing one GPU
# and four ranks on two GPUs, faces forced onto MPI (STENCIL_NODE_RANKS=1);
# the planted bugs (peer-skip-wait, peer-early-signal, peer-wrong-face) must
# fail their check. Then the timings, each against one GPU's --comm none
# step of the same box in this call: weak 512^3 and 128^3 per GPU, strong
# 256^3; --repeat rounds, interleaved; a --timeline of one peer step.
# Reports and logs go to the results folder $OUT (default .out).
#
# usage: tools/gpu-peer.sh [--repeat N] [--gpus N]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/.out}
mkdir -p "$OUT"
repeat=2 gpus=$(nvidia-smi -L | wc -l)
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat=$2; shift ;;
    --gpus) gpus=$2; shift ;;
    *) echo "gpu-peer: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 # never NVLink multicast on shared machines
source tools/offline-deps.sh # sets prefix

mpirun=(mpirun) modes="peer none" mpi=()
if [ -f .deps/ompi-4.1.4-cuda-install.tar.xz ]; then
  mkdir -p /tmp/gpumpi && tar xJf .deps/ompi-4.1.4-cuda-install.tar.xz -C /tmp/gpumpi
  export PATH=/tmp/gpumpi/install/bin:$PATH LD_LIBRARY_PATH=/tmp/gpumpi/install/lib:${LD_LIBRARY_PATH:-}
  mpirun=(/tmp/gpumpi/install/bin/mpirun --mca pml ob1) modes="peer gpu-aware nccl none" mpi=(-DMPI_HOME=/tmp/gpumpi/install)
fi
cmake -S . -B build-gpu-peer -DSTENCIL_BACKEND=CUDA -DSTENCIL_BUILD_TESTS=OFF "${prefix[@]}" "${mpi[@]}" \
  >"$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
grep -q "NCCL/RCCL *OFF" "$OUT/configure.log" && modes=${modes/nccl /}
cmake --build build-gpu-peer -j"$(nproc)" --target stencil-miniapp >"$OUT/build.log" 2>&1 ||
  { grep -A5 error "$OUT/build.log" | head -40; exit 1; }
app=build-gpu-peer/miniapp/stencil-miniapp
status=0
run() { # run RANKS NAME ARGS...
  local ranks=$1 name=$2; shift 2
  "${mpirun[@]}" -np "$ranks" "$app" "$@" >"$OUT/$name.txt" 2>&1 || return 1
}
check() { # check RANKS NAME ARGS...: must be bitwise equal
  local name=$2
  if run "$@" --check --steps 40 --quiet && grep -q "bitwise equal" "$OUT/$name.txt"; then
    echo "ok      $name"
  else
    echo "FAILED  $name: $(grep -h -E "^check:|error" "$OUT/$name.txt" | head -2)"; status=1
  fi
}
planted() { # planted RANKS NAME ARGS...: the check must fail
  local name=$2
  if run "$@" --check --steps 40 --quiet --graphs off; then
    echo "FAILED  $name: the planted bug passed its check"; status=1
  else
    echo "caught  $name: $(grep -h -E "^check:" "$OUT/$name.txt" | head -1)"
  fi
}
g=192,160,176
check 2 peer-x-periodic-R8 --grid $g --procs 2,1,1 --periodic x,y,z --radius 8 --comm peer
check 2 peer-x-periodic-R8-fp64 --grid $g --procs 2,1,1 --periodic x,y,z --radius 8 --comm peer --precision fp64
check 2 peer-x-periodic-graphs-off --grid $g --procs 2,1,1 --periodic x,y,z --comm peer --graphs off
check 2 peer-z-open-R1 --grid $g --procs 1,1,2 --radius 1 --comm peer
check 2 peer-y-open-fp64 --grid $g --procs 1,2,1 --radius 4 --comm peer --precision fp64
check 2 peer-auto --grid $g --procs 2,1,1 --periodic x
CUDA_VISIBLE_DEVICES=0 check 2 peer-one-gpu-two-ranks --grid $g --procs 2,1,1 --periodic x,y,z --comm peer
check 4 peer-four-ranks-two-gpus --grid $g --procs 2,2,1 --periodic x,y,z --radius 5 --comm peer
[[ $modes == *gpu-aware* ]] &&
  STENCIL_NODE_RANKS=1 check 2 peer-forced-mpi --grid $g --procs 2,1,1 --periodic x,y,z --comm peer
planted 2 planted-skip-wait --grid $g --procs 2,1,1 --periodic x,y,z --comm peer --inject-fault peer-skip-wait
planted 2 planted-early-signal --grid $g --procs 2,1,1 --periodic x,y,z --comm peer --inject-fault peer-early-signal
CUDA_VISIBLE_DEVICES=0 planted 3 planted-wrong-face --grid $g --procs 3,1,1 --periodic x --comm peer \
  --inject-fault peer-wrong-face
grep -h -E "^  (comm|rank 0's faces)" "$OUT/peer-auto.txt" || true

# Timings: at least 1 s of timed steps each; one GPU's --comm none beside.
timed() { # timed RANKS NAME STEPS ARGS...
  local ranks=$1 name=$2 steps=$3; shift 3
  run "$ranks" "$name" --steps "$steps" --warmup 20 --radius 4 --report "$OUT/$name.json" "$@" ||
    { echo "FAILED  $name"; tail -5 "$OUT/$name.txt"; status=1; }
}
for round in $(seq 1 "$repeat"); do
  timed 1 "r$round-one-512" 2000 --local 512,512,512 --comm none --periodic x,y,z
  timed 1 "r$round-one-128" 20000 --local 128,128,128 --comm none
  timed 1 "r$round-one-256" 5000 --grid 256,256,256 --comm none
  for mode in $modes; do
    [ "$mode" = none ] && continue
    timed "$gpus" "r$round-weak512-$mode" 2000 --local 512,512,512 --procs "$gpus",1,1 --periodic x,y,z --comm "$mode"
    timed "$gpus" "r$round-weak128-$mode" 20000 --local 128,128,128 --procs 1,1,"$gpus" --comm "$mode"
    timed "$gpus" "r$round-strong256-$mode" 5000 --grid 256,256,256 --comm "$mode"
  done
done
run "$gpus" timeline-peer --local 512,512,512 --procs "$gpus",1,1 --periodic x,y,z --comm peer --steps 400 \
  --timeline "$OUT/timeline-peer.json" || status=1
python3 tools/peer-table.py "$OUT" || status=1
(cd "$OUT" && tar czf reports.tgz ./*.txt ./*.json && find . -maxdepth 1 -type f ! -name reports.tgz ! -name table.txt -delete)
exit $status
