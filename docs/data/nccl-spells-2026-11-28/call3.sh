#!/usr/bin/env bash
# shellcheck disable=SC2086 # the option groups are words
# Issue 56, call 3 on four GPUs of one node, kept as it ran: the speed
# check that makes a slow simulation anew, each new one warmed before it
# is timed (d257fd5), strong 256^3 through NCCL with graphs: five auto runs, and the forced settings the matrix
# found best (overlap on, fused pack, k = 1 and 2; overlap off), once,
# interleaved, 20,000 timed steps each (about 1.3 s). GPU clocks logged.
# Needs .deps/ (tools/README.md). Results: $OUT/call3.tgz.
set -uo pipefail
OUT=${OUT:-$PWD/.out}
t0=$(date +%s)
late() { [ $(($(date +%s) - t0)) -gt "$1" ] && echo "skipped: $2 (time)"; }
mkdir -p "$OUT/runs"
trap 'kill $(jobs -p) 2>/dev/null; tar czf "$OUT/call3.tgz" -C "$OUT" runs clocks.csv environment.txt build-now-build.log 2>/dev/null' EXIT
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
} >"$OUT/environment.txt" 2>&1
nvidia-smi --query-gpu=timestamp,index,clocks.sm,power.draw,clocks_event_reasons.active \
  --format=csv,noheader -lms 200 >"$OUT/clocks.csv" 2>&1 &
# shellcheck source=tools/gpu/common.sh
source tools/gpu/common.sh && gpu_env && unpack_mpi ob1
gpumpi=/tmp/gpumpi
build_tree --mpi $gpumpi . build-timing "$OUT/build-now" stencil-miniapp -G Ninja || exit 1
echo "build: $(($(date +%s) - t0)) s"
export LD_LIBRARY_PATH=$gpumpi/install/lib:$LD_LIBRARY_PATH
run() { # run NAME ARGS...
  local name=$1; shift
  timeout 120 $gpumpi/install/bin/mpirun --mca pml ob1 -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -np 4 </dev/null \
    build-timing/miniapp/stencil-miniapp --radius 4 --warmup 20 --quiet --label "$name" \
    --report "$OUT/runs/$name.json" --grid 256,256,256 --steps 20000 --comm nccl "$@" \
    >"$OUT/runs/$name.log" 2>&1 || echo "FAILED: $name"
  echo "$name: $(grep -h "^FOM" "$OUT/runs/$name.log") $(grep -h "speed check" "$OUT/runs/$name.log" | head -1)"
}
for r in 1 2 3 4 5; do
  late 250 "round $r" && break
  run auto-r$r
  if [ $r -le 1 ]; then
    run on-fused-r$r --overlap on --pack fused --halo-depth 1
    run on-k2-r$r --overlap on --halo-depth 2
    run off-r$r --overlap off --halo-depth 1
  fi
done
echo "done: $(($(date +%s) - t0)) s"
