#!/usr/bin/env bash
# Issue "strong scaling to small boxes", graphs with per-node priorities, on
# one node with 2 GPUs and the CUDA-aware Open MPI of .deps/: --check with
# graphs on in every comm mode (GPU-aware, NCCL, staged), then R = 4, 300
# steps, overlap on, graphs on and off, twice in alternation, at 64^3 ..
# 512^3 per GPU and the strong pair (256^3 on one GPU and on two); the one-
# GPU runs with --comm none. Kept as it ran.
set -uo pipefail
OUT=${OUT:-$PWD/.out}
mkdir -p "$OUT/runs"
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
source tools/offline-deps.sh # sets prefix
mkdir -p /tmp/gpumpi && tar xJf .deps/ompi-4.1.4-cuda-install.tar.xz -C /tmp/gpumpi
export PATH=/tmp/gpumpi/install/bin:$PATH LD_LIBRARY_PATH=/tmp/gpumpi/install/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,power.limit --format=csv,noheader | tee "$OUT/gpu.txt"
cmake -S . -B build-two -DSTENCIL_BACKEND=CUDA -DSTENCIL_BUILD_TESTS=OFF -DMPI_HOME=/tmp/gpumpi/install "${prefix[@]}" \
  >"$OUT/configure.log" 2>&1 && cmake --build build-two -j32 --target stencil-miniapp >"$OUT/build.log" 2>&1 ||
  { tail -20 "$OUT/build.log"; exit 1; }
app=build-two/miniapp/stencil-miniapp
mpi=(mpirun --mca pml ob1 -np 2)
for mode in gpu-aware nccl staged; do
  for procs in 1,1,2 2,1,1; do
    "${mpi[@]}" $app --grid 192,160,176 --procs $procs --steps 40 --comm $mode --graphs on --check --quiet 2>&1 |
      grep -E "^check:|stencil-miniapp:" | sed "s/^/$mode $procs graphs on: /"
  done
done
for rep in 1 2; do
  for n in 64 128 256 512; do
    for g in on off; do
      $app --local $n,$n,$n --steps 300 --warmup 20 --comm none --graphs $g --quiet \
        --report "$OUT/runs/r$rep-1gpu-$n-$g.json" >/dev/null 2>&1 || echo "FAILED 1gpu $n $g"
    done
  done
  for local in 64,64,64 128,128,128 256,256,128 256,256,256 512,512,512; do
    for mode in gpu-aware nccl; do
      for g in on off; do
        "${mpi[@]}" $app --local $local --procs 1,1,2 --steps 300 --warmup 20 --comm $mode --graphs $g --quiet \
          --report "$OUT/runs/r$rep-$mode-${local//,/x}-$g.json" >/dev/null 2>&1 || echo "FAILED $mode $local $g"
      done
    done
  done
done
python3 tools/miniapp-table.py "$OUT"/runs/r1-*.json "$OUT"/runs/r2-*.json | tee "$OUT/table.txt"
(cd "$OUT" && tar czf reports.tgz runs gpu.txt table.txt && rm -rf runs table.txt)
