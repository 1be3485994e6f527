#!/usr/bin/env bash
# shellcheck disable=SC2086 # the option groups are words
# Issue 56 (NCCL's two speeds) and issue 57 (the driver on a GPU node), one
# call on four GPUs of one node, kept as it ran. Needs .deps/ (as
# tools/README.md says) and .carry/before.tar, a `git archive 2e12ee1`.
# 1. tools/gpu.sh timing --matrix-only 'matrix-s256-n4-nccl': strong 256^3
#    through NCCL with graphs, auto against every forced setting (the
#    driver's own part), while nvidia-smi logs every GPU's clocks, power
#    and throttle reasons every 100 ms and ps samples the ranks' threads'
#    CPUs every 0.5 s.
# 2. Four more auto runs of the same problem, the same logs.
# 3. One GPU's --comm none step at 64^3, 128^3 and 512^3, this tree
#    against 2e12ee1, interleaved, two rounds (issue 57: nothing slower).
# Results: $OUT/call1.tgz.
set -uo pipefail
OUT=${OUT:-$PWD/.out}
t0=$(date +%s)
late() { [ $(($(date +%s) - t0)) -gt "$1" ] && echo "skipped: $2 (time)"; }
mkdir -p "$OUT/auto" "$OUT/none"
trap 'kill $(jobs -p) 2>/dev/null; tar czf "$OUT/call1.tgz" -C "$OUT" timing auto none clocks.csv threads.txt environment.txt 2>/dev/null' EXIT
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  echo "revision: $(cat .carry/revision 2>/dev/null) against this tree"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,power.limit --format=csv
  nvidia-smi topo -m
  nproc
} >"$OUT/environment.txt" 2>&1
nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu,clocks_event_reasons.active \
  --format=csv,noheader -lms 100 >"$OUT/clocks.csv" 2>&1 &
(while sleep 0.5; do
  echo "== $(date +%s.%N)"
  ps -eLo pid,tid,psr,pcpu,stat,comm | awk '$6 ~ /stencil|cuda|nccl|ompi|async/'
done) >"$OUT/threads.txt" 2>&1 &
# The 2e12ee1 tree for part 3 and this tree's build-timing (as the timing
# part builds it, which then finds nothing to do), side by side: no build
# runs beside a timed run.
mkdir -p /tmp/before && tar xf .carry/before.tar -C /tmp/before
# shellcheck source=tools/gpu/common.sh
source tools/gpu/common.sh && gpu_env && unpack_mpi ob1
gpumpi=/tmp/gpumpi
build_tree --mpi $gpumpi /tmp/before /tmp/b-before "$OUT/none/build-before" stencil-miniapp -G Ninja \
  -DSTENCIL_REVISION=2e12ee1 &
before_build=$!
build_tree --mpi $gpumpi . build-timing "$OUT/none/build-now" "stencil-miniapp stencil-halo-bench stencil-bench" -G Ninja
wait $before_build # not the loggers, which run until the end
echo "builds: $(($(date +%s) - t0)) s"
OUT=$OUT bash tools/gpu.sh timing --matrix-only 'matrix-s256-n4-nccl' 2>&1 | tee "$OUT/timing-part.txt"
echo "part 1: $(($(date +%s) - t0)) s"
export LD_LIBRARY_PATH=$gpumpi/install/lib:$LD_LIBRARY_PATH
run() { # run NAME RANKS BIN ARGS...
  local name=$1 np=$2 bin=$3; shift 3
  echo "== $name start $(date +%s.%N)" >>"$OUT/auto/times.txt"
  timeout 120 $gpumpi/install/bin/mpirun --mca pml ob1 -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -np "$np" </dev/null \
    "$bin" --radius 4 --warmup 20 --quiet --label "$name" --report "$name.json" "$@" >"$name.log" 2>&1 ||
    echo "FAILED: $name"
  echo "== $name end $(date +%s.%N)" >>"$OUT/auto/times.txt"
  grep -h "^FOM" "$name.log" | sed "s#^#$(basename "$name"): #"
}
NOW=build-timing/miniapp/stencil-miniapp
for r in 2 3 4 5; do
  late 300 "auto r$r" && break
  run "$OUT/auto/s256-n4-nccl-auto-r$r" 4 $NOW --grid 256,256,256 --steps 20000 --comm nccl
done
echo "part 2: $(($(date +%s) - t0)) s"
declare -A steps=([64]=100000 [128]=60000 [512]=1500)
for r in 1 2; do
  for n in 64 128 512; do
    late 380 "none $n r$r" && break 2
    for tree in now before; do
      bin=$NOW && [ $tree = before ] && bin=/tmp/b-before/miniapp/stencil-miniapp
      run "$OUT/none/none-$n-$tree-r$r" 1 $bin --local $n,$n,$n --steps ${steps[$n]} --comm none
    done
  done
done
echo "part 3: $(($(date +%s) - t0)) s"
