#!/usr/bin/env bash
# The main job: installs what it needs, builds the mini-app for the GPU this
# machine has (CUDA with nvcc and an NVIDIA GPU, HIP with hipcc and an AMD
# GPU, else the HOST back-end) and runs the default problem on 4 MPI ranks.
# usage: tools/run-miniapp.sh [mini-app options]   e.g. --grid 256,256,256 --radius 8
# env:   RANKS (default 4), STENCIL_BACKEND (to force one), MPIRUN_FLAGS
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh host
export PATH=/usr/local/cuda/bin:$PATH
backend=${STENCIL_BACKEND:-}
if [ -z "$backend" ]; then
  if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 && command -v nvcc >/dev/null; then
    backend=CUDA
  elif [ -e /dev/kfd ] && command -v hipcc >/dev/null; then
    backend=HIP
  else
    backend=HOST
  fi
fi
build=build-run-${backend,,}
[ "$backend" = HIP ] && export CXX=hipcc
cmake -S . -B "$build" -G Ninja -DSTENCIL_BACKEND="$backend" -DSTENCIL_BUILD_TESTS=OFF \
  -DSTENCIL_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target stencil-miniapp
ranks=${RANKS:-4}
# On the HOST back-end the ranks share the cores: one OpenMP thread per core.
if [ "$backend" = HOST ]; then
  threads=$(( $(nproc) / ranks )); [ "$threads" -ge 1 ] || threads=1
  export OMP_NUM_THREADS=$threads OMP_WAIT_POLICY=passive
fi
# Open MPI: allow more ranks than cores, and root inside containers.
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "run-miniapp: $backend back-end, $ranks ranks"
# shellcheck disable=SC2086 # MPIRUN_FLAGS is a list of flags
mpirun -np "$ranks" ${MPIRUN_FLAGS:-} "$build/miniapp/stencil-miniapp" --print-binding --checksum "$@"
