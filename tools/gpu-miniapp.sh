#!/usr/bin/env bash
# The mini-app on a lent multi-GPU machine, in one call: builds the CUDA
# back-end against the system MPI (not GPU-aware: staged) and, when
# .deps/ompi-4.1.4-cuda-install.tar.xz travels along, against that
# CUDA-aware Open MPI (gpu-aware). Checks 2 ranks against 1 bit for bit, then
# times --local NX,NY,NZ on 1 and 2 GPUs, overlap on and off, per comm mode,
# and prints a table last. Reports go to $OUT.
#
# usage: tools/gpu-miniapp.sh [LOCAL (default 512,512,512)] [RADIUS (default 4)] [STEPS (default 100)]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/.out}
mkdir -p "$OUT"
local_size=${1:-512,512,512} radius=${2:-4} steps=${3:-100}
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 # never NVLink multicast on shared machines
gpus=$(nvidia-smi -L | wc -l)
nvidia-smi topo -m >"$OUT/topology.txt" 2>&1 || true

build() { # build DIR [cmake args...]
  local dir=$1; shift
  cmake -S . -B "$dir" -DSTENCIL_BACKEND=CUDA -DSTENCIL_BUILD_TESTS=OFF -DSTENCIL_BUILD_BENCH=OFF "$@" \
    >"$OUT/$(basename "$dir")-configure.log" 2>&1 || { tail -20 "$OUT/$(basename "$dir")-configure.log"; exit 1; }
  cmake --build "$dir" -j"$(nproc)" --target stencil-miniapp >"$OUT/$(basename "$dir")-build.log" 2>&1 ||
    { grep -A5 error "$OUT/$(basename "$dir")-build.log" | head -40; exit 1; }
}

builds=("build-gpu-sysmpi|mpirun|staged")
build build-gpu-sysmpi
if [ -f .deps/ompi-4.1.4-cuda-install.tar.xz ]; then
  mkdir -p /tmp/gpumpi && tar xJf .deps/ompi-4.1.4-cuda-install.tar.xz -C /tmp/gpumpi
  PATH=/tmp/gpumpi/install/bin:$PATH LD_LIBRARY_PATH=/tmp/gpumpi/install/lib:${LD_LIBRARY_PATH:-} \
    build build-gpu-cudampi -DMPI_HOME=/tmp/gpumpi/install
  builds+=("build-gpu-cudampi|/tmp/gpumpi/install/bin/mpirun --mca pml ob1|gpu-aware")
fi

run() { # run LAUNCHER RANKS NAME ARGS...
  local launcher=$1 ranks=$2 name=$3; shift 3
  local env=(env)
  [[ $launcher == /tmp/gpumpi/* ]] && env+=(PATH="/tmp/gpumpi/install/bin:$PATH" LD_LIBRARY_PATH="/tmp/gpumpi/install/lib:${LD_LIBRARY_PATH:-}")
  # shellcheck disable=SC2086 # the launcher carries its own flags
  "${env[@]}" $launcher -np "$ranks" "$@" >"$OUT/$name.txt" 2>&1 || { echo "FAILED: $name"; tail -15 "$OUT/$name.txt"; return 1; }
}

status=0
for spec in "${builds[@]}"; do
  IFS='|' read -r dir launcher mode <<<"$spec"
  app=$dir/miniapp/stencil-miniapp
  run "$launcher" 1 "bind-$mode" "$app" --print-binding --steps 1 --grid 64,64,64 || status=1
  # Correctness: 2 ranks against 1, bit for bit (--check), and the same checksum.
  if [ "$gpus" -ge 2 ]; then
    run "$launcher" 2 "check-$mode" "$app" --grid 192,160,176 --radius "$radius" --steps 40 --comm "$mode" --check --checksum --print-binding || status=1
    run "$launcher" 2 "check-$mode-x" "$app" --grid 192,160,176 --procs 2,1,1 --radius 8 --steps 40 --comm "$mode" --check --checksum || status=1
    grep -h -E "^check:|^checksum" "$OUT/check-$mode.txt" "$OUT/check-$mode-x.txt" || true
  fi
  for ranks in 1 2; do
    [ "$ranks" -le "$gpus" ] || continue
    for overlap in on off; do
      for comm in "$mode" none; do
        [ "$ranks" = 1 ] && [ "$comm" = none ] && continue
        name=perf-np$ranks-$comm-$overlap-$mode
        run "$launcher" "$ranks" "$name" "$app" --local "$local_size" --radius "$radius" --steps "$steps" \
          --warmup 10 --comm "$comm" --overlap "$overlap" --report "$OUT/$name.json" || status=1
      done
    done
  done
done
python3 tools/miniapp-table.py "$OUT"/perf-*.json | tee "$OUT/table.txt"
exit $status
