#!/usr/bin/env bash
# shellcheck disable=SC2086,SC2015 # the option groups are words; a failed build says so
# Issue 56, call 2 on four GPUs of one node, kept as it ran: whether NCCL's
# slow speed (call 1: a whole trial or run at ~90 us a step against ~64,
# overlap off included, so not the kernels' priorities) follows NCCL's
# registration of captured buffers. Strong 256^3, --comm nccl, graphs on,
# auto, alternately with NCCL_GRAPH_REGISTER=0 and as NCCL sets it; each
# run's five trials are five fresh captures. One run with NCCL_DEBUG=INFO.
# Then the projection's small-box inputs: two GPUs split along x, periodic
# and open, 64^3 and 128^3 per GPU, overlap off and on, depth 1; and the
# shell bench on one GPU, 64^3 to 512^3 (the slabs' cost over the whole
# box, now that a one-GPU periodic run is one kernel a step).
# Results: $OUT/call2.tgz.
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
{ date -u +%Y-%m-%dT%H:%M:%SZ; echo "revision: $(git rev-parse --short HEAD 2>/dev/null || cat .carry/revision)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee "$OUT/environment.txt"
trap 'tar czf "$OUT/call2.tgz" -C "$OUT" runs small environment.txt table.txt 2>/dev/null' EXIT
late() { [ $(($(date +%s) - t0)) -gt "$1" ] && echo "skipped: $2 (time)"; }
PATH=$root/install/bin:$PATH cmake -S . -B /tmp/b-now -G Ninja -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 \
  -DSTENCIL_BUILD_TESTS=OFF -DMPI_HOME=$root/install "${prefix[@]}" >"$OUT/build.log" 2>&1 &&
  cmake --build /tmp/b-now -j32 --target stencil-miniapp stencil-bench >>"$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
NOW=/tmp/b-now/miniapp/stencil-miniapp
mpi() { timeout 120 $root/install/bin/mpirun --mca pml ob1 --oversubscribe -x NCCL_NVLS_ENABLE \
  -x LD_LIBRARY_PATH "$@"; }
timed() { # timed NAME ENV_ASSIGNMENT RANKS STEPS ARGS...
  local name=$1 env=$2 np=$3 steps=$4; shift 4
  if env $env $root/install/bin/mpirun --mca pml ob1 --oversubscribe -x NCCL_NVLS_ENABLE -x NCCL_GRAPH_REGISTER \
       -x NCCL_DEBUG -x NCCL_DEBUG_SUBSYS -x LD_LIBRARY_PATH -np "$np" $NOW --radius 4 --warmup 20 \
       --steps "$steps" --quiet --report "$OUT/runs/$name.json" "$@" >"$OUT/runs/$name.txt" 2>&1; then
    echo "$name: $(grep -h "^FOM" "$OUT/runs/$name.txt")"
  else
    echo "FAILED  $name: $(tail -2 "$OUT/runs/$name.txt" | tr '\n' ' ')"
  fi
}
S="--grid 256,256,256 --comm nccl --graphs on"
export NCCL_DEBUG=WARN NCCL_DEBUG_SUBSYS=INIT NCCL_GRAPH_REGISTER=1
timed s256-nccl-auto-info "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,REG,P2P,GRAPH" 4 20000 $S
for r in 1 2 3 4 5 6; do
  late 230 "round $r" && break
  timed s256-nccl-auto-reg0-r$r NCCL_GRAPH_REGISTER=0 4 20000 $S
  timed s256-nccl-auto-reg1-r$r NCCL_GRAPH_REGISTER=1 4 20000 $S
done
mkdir -p "$OUT/small"
timeout 150 /tmp/b-now/bench/stencil-bench --sizes=64,96,128,192,256,384,512 --radii=4 --precision=fp32 \
  --variants=wave,shell --benchmark_filter='^(wave|shell_inner|shell_slabs)/' --benchmark_min_time=0.5 \
  --benchmark_out="$OUT/small/shell-bench.json" >"$OUT/small/shell-bench.txt" 2>&1 || echo "FAILED shell bench"
echo "shell bench: $(($(date +%s) - t0)) s"
small() { # small NAME ARGS...: a gpu-aware run of two GPUs, report in small/
  local name=$1; shift
  mpi -np 2 $NOW --radius 4 --warmup 20 --quiet --comm gpu-aware --halo-depth 1 --pack separate \
    --report "$OUT/small/$name.json" "$@" >"$OUT/small/$name.txt" 2>&1 &&
    echo "$name: $(grep -h "^FOM" "$OUT/small/$name.txt")" || echo "FAILED $name"
}
for n in 64 128; do
  for o in off on; do
    late 360 "small $n $o" && break 2
    small along-x-$n-$o --local $n,$n,$n --procs 2,1,1 --steps 20000 --overlap $o
    small along-x-periodic-$n-$o --local $n,$n,$n --procs 2,1,1 --periodic x --steps 20000 --overlap $o
  done
done
python3 - "$OUT/runs" >"$OUT/table.txt" <<'PY'
import glob, json, os, sys
for p in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    r = json.load(open(p))
    trials = " ".join("%.0f" % (t["step_ms"] * 1000) for t in r["trials"])
    print(f"{os.path.basename(p)[:-5]:26s} trials {trials:28s} final "
          f"{r['phases_ms']['step']['max'] * 1000:6.1f} {'on' if r['overlap'] else 'off'} k{r['halo_depth']}")
PY
echo "total: $(($(date +%s) - t0)) s"
cat "$OUT/table.txt"
