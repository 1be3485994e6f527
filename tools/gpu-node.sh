#!/usr/bin/env bash
# One node of several GPUs, in one script: the decomposition's checks and
# the node's weak and strong scaling against one GPU's --comm none step
# measured in the same call. Builds the CUDA back-end against the CUDA-aware
# Open MPI builds in .deps/ (ob1, and UCX where its archive is there;
# tools/prepare-offline-deps.sh), then the parts asked for:
#   checks     bit for bit against one domain on 8 ranks, --procs 2,2,2,
#              sharing the node's GPUs: periodic and open, halo depth 1-3,
#              both precisions, each halo path (NCCL where a GPU per rank)
#   weak       512^3 and 128^3 per GPU, periodic, each path, on every GPU
#              (2x2x2 on eight, 2x2x1 and 1x2x2 on four, 2x1x1 on two)
#   strong     512^3, 1024x1024x512 on 1, 2, 4, 8 GPUs; 256^3 on 1 to all
#   choices    overlap on and off against auto; the grid the mini-app
#              chooses against a forced one
#   timelines  a --timeline of the weak 512^3 run per path
# Every timed run is long enough (>= ~1 s of timed steps); --repeat rounds,
# each with its own one-GPU baselines. With --against REV that revision is
# built too and its weak 512^3 runs (GPU-aware, ob1: each periodic grid,
# and the open z split beside this tree's) are timed beside, with a
# timeline. Reports and logs go to $OUT (default .out/node), the table last
# (tools/report-table.py node).
# usage: tools/gpu-node.sh [--parts "checks weak strong choices timelines"] [--repeat N]
#                          [--against REV]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-$PWD/.out}/node
parts="checks weak strong choices timelines" repeat=1 against=""
while [ $# -gt 0 ]; do
  case "$1" in
    --parts) parts=$2; shift ;;
    --repeat) repeat=$2; shift ;;
    --against) against=$2; shift ;;
    *) echo "gpu-node: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[[ $repeat =~ ^[1-9][0-9]*$ ]] || { echo "gpu-node: --repeat takes a positive number" >&2; exit 2; }
for part in $parts; do
  [[ " checks weak strong choices timelines " == *" $part "* ]] ||
    { echo "gpu-node: unknown part '$part'" >&2; exit 2; }
done
[ -f .deps/ompi-4.1.4-cuda-install.tar.xz ] ||
  { echo "gpu-node: .deps/ompi-4.1.4-cuda-install.tar.xz is missing (tools/prepare-offline-deps.sh)" >&2; exit 2; }
mkdir -p "$OUT/runs"
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 # never NVLink multicast on shared machines
source tools/offline-deps.sh # sets prefix
gpus=$(nvidia-smi -L | grep -c '^GPU')
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  echo "revision: $(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)${against:+ against $against}"
  echo "command: $0 --parts \"$parts\" --repeat $repeat${against:+ --against $against}"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvidia-smi topo -m 2>&1 | head -$((gpus + 1))
} | tee -a "$OUT/environment.txt"
start=$(date +%s)

# Each library unpacks where it was configured to live (its --prefix, less
# /install); its wrappers find their data only there.
libs=(ob1)
[ -f .deps/ompi-ucx-cuda-install.tar.xz ] && libs+=(ucx)
declare -A root=([ob1]=/tmp/gpumpi [ucx]=/tmp/gpumpi5) archive=([ob1]=ompi-4.1.4 [ucx]=ompi-ucx)
for lib in "${libs[@]}"; do # before the builds, which share them
  [ -x "${root[$lib]}/install/bin/mpirun" ] ||
    { mkdir -p "${root[$lib]}" && tar xJf ".deps/${archive[$lib]}-cuda-install.tar.xz" -C "${root[$lib]}"; } || exit 1
done
build() { # build LIB SOURCE_DIR BUILD_DIR [CMAKE_ARGS...]
  local r=${root[$1]}
  if ! PATH=$r/install/bin:$PATH cmake -S "$2" -B "$3" -G Ninja -DSTENCIL_BACKEND=CUDA -DSTENCIL_BUILD_TESTS=OFF \
         -DSTENCIL_BUILD_BENCH=OFF -DMPI_HOME="$r/install" "${prefix[@]}" "${@:4}" >"$OUT/$(basename "$3").log" 2>&1 ||
     ! cmake --build "$3" -j"$(nproc)" --target stencil-miniapp >>"$OUT/$(basename "$3").log" 2>&1; then
    echo "gpu-node: building $3 failed" >&2; tail -30 "$OUT/$(basename "$3").log" >&2; return 1
  fi
}
for lib in "${libs[@]}"; do build "$lib" . "build-node-$lib" & done
if [ -n "$against" ]; then
  unpack_revision "$against" /tmp/node-before && build ob1 /tmp/node-before build-node-before "${revision_args[@]}" &
fi
for job in $(jobs -p); do wait "$job" || exit 1; done
echo "builds: $(($(date +%s) - start)) s"

# A path's name gives its build and --comm: ob1 and ucx are GPU-aware MPI.
paths="peer ob1 nccl" && [[ " ${libs[*]} " == *" ucx "* ]] && paths="peer ob1 ucx nccl"
launch() { # launch PATH RANKS ARGS...: mpirun of that path's library
  local path=$1 ranks=$2 lib=ob1 comm=$1 flags=(--mca pml ob1); shift 2
  case "$path" in
    ob1) comm=gpu-aware ;; none) ;;
    ucx) lib=ucx comm=gpu-aware
         flags=(--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any -x "UCX_TLS=cuda_copy,cuda_ipc,sm,self") ;;
    before) comm=gpu-aware ;; before-none) comm=none ;;
  esac
  local app=build-node-$lib/miniapp/stencil-miniapp
  [[ $path == before* ]] && app=build-node-before/miniapp/stencil-miniapp
  timeout 150 "${root[$lib]}/install/bin/mpirun" "${flags[@]}" --oversubscribe -x NCCL_NVLS_ENABLE \
    -x LD_LIBRARY_PATH -np "$ranks" "$app" --comm "$comm" "$@"
}
status=0
check() { # check PATH NAME ARGS...: 8 ranks, bitwise equal to one domain
  local path=$1 name=$2; shift 2
  if launch "$path" 8 --procs 2,2,2 --grid 104,88,96 --steps 40 --check --quiet "$@" >"$OUT/runs/$name.txt" 2>&1 &&
     grep -q "bitwise equal" "$OUT/runs/$name.txt"; then
    echo "ok      $name"
  else
    echo "FAILED  $name: $(grep -h -E "^check:|error|stencil-miniapp:" "$OUT/runs/$name.txt" | head -2)"; status=1
  fi
}
timed() { # timed PATH RANKS NAME LABEL STEPS ARGS...: one report
  local path=$1 ranks=$2 name=$3 label=$4 steps=$5; shift 5
  if launch "$path" "$ranks" --radius 4 --warmup 20 --steps "$steps" --label "$label" --quiet \
       --report "$OUT/runs/$name.json" "$@" >"$OUT/runs/$name.txt" 2>&1; then
    echo "$name: $(grep -h "^FOM" "$OUT/runs/$name.txt")"
  else
    echo "FAILED  $name: $(tail -3 "$OUT/runs/$name.txt" | tr '\n' ' ')"; status=1
  fi
}
wants() { [[ " $parts " == *" $1 "* ]]; }

if wants checks; then
  for path in $paths; do
    [ "$path" = nccl ] && [ "$gpus" -lt 8 ] && { echo "skipped nccl checks on 8 ranks: $gpus GPUs"; continue; }
    check "$path" "check-$path-periodic-fp32" --periodic x,y,z --overlap on
    check "$path" "check-$path-open-fp64-R7" --precision fp64 --radius 7 --overlap on
    [ "$path" = peer ] && continue # peer stores faces from the boundary kernels: depth 1 only
    check "$path" "check-$path-periodic-depth2-fp64" --periodic x,y,z --halo-depth 2 --precision fp64
    check "$path" "check-$path-open-depth3-R2" --halo-depth 3 --radius 2 --overlap off
  done
  echo "checks: $(($(date +%s) - start)) s"
fi

# Weak: the process grids of this node; strong: the GPU counts of this node.
case $gpus in
  8) weak_grids="2,2,2" ;; 4) weak_grids="2,2,1 1,2,2" ;; 2) weak_grids="2,1,1" ;; *) weak_grids="" ;;
esac
counts=$(for n in 2 4 8; do [ "$n" -le "$gpus" ] && echo -n "$n "; done)
for round in $(seq 1 "$repeat"); do
  r=r$round
  if wants weak || wants choices || wants strong; then
    timed none 1 "$r-one-512" one 1600 --local 512,512,512
    timed none 1 "$r-one-128" one 60000 --local 128,128,128
  fi
  if wants weak; then
    for grid in $weak_grids; do
      for path in $paths; do
        [ "$grid" != 2,2,1 ] && [ "$grid" != 2,2,2 ] && [ "$path" != ob1 ] && [ "$path" != peer ] && continue
        timed "$path" "$gpus" "$r-w512-${grid//,/x}-$path" weak 2000 --local 512,512,512 --procs "$grid" \
          --periodic x,y,z
        timed "$path" "$gpus" "$r-w128-${grid//,/x}-$path" weak 20000 --local 128,128,128 --procs "$grid" \
          --periodic x,y,z
      done
    done
    if [ -n "$against" ]; then # REV beside: each periodic grid, and the open z split of both trees
      timed before-none 1 "$r-one-512-before" one 1600 --local 512,512,512
      for grid in $weak_grids; do
        timed before "$gpus" "$r-w512-${grid//,/x}-before" weak 2000 --local 512,512,512 --procs "$grid" \
          --periodic x,y,z
      done
      for tree in ob1 before; do
        timed "$tree" "$gpus" "$r-w512-z-open-$tree" weak 2000 --local 512,512,512 --procs "1,1,$gpus"
      done
    fi
  fi
  if wants strong; then
    timed none 1 "$r-one-256" one 12000 --grid 256,256,256
    timed none 1 "$r-one-1024x1024x512" one 400 --grid 1024,1024,512
    for n in $(seq 2 "$gpus"); do
      timed ob1 "$n" "$r-s256-n$n-ob1" strong $((12000 * n)) --grid 256,256,256
      [[ " $counts " == *" $n "* ]] || continue
      for path in $paths; do
        [ "$path" = ucx ] && continue
        timed "$path" "$n" "$r-s512-n$n-$path" strong $((1600 * n)) --grid 512,512,512
        timed "$path" "$n" "$r-s1024x1024x512-n$n-$path" strong $((400 * n)) --grid 1024,1024,512
      done
    done
  fi
  if wants choices && [ -n "$weak_grids" ]; then
    grid=${weak_grids%% *}
    for overlap in on off; do
      timed ob1 "$gpus" "$r-w512-${grid//,/x}-ob1-overlap-$overlap" weak 2000 --local 512,512,512 --procs "$grid" \
        --periodic x,y,z --overlap "$overlap"
    done
    timed ob1 "$gpus" "$r-s512-n$gpus-ob1-grid-auto" strong $((1600 * gpus)) --grid 512,512,512
    timed ob1 "$gpus" "$r-s512-n$gpus-ob1-grid-1x1x$gpus" strong $((1600 * gpus)) --grid 512,512,512 \
      --procs "1,1,$gpus"
  fi
done
if wants timelines && [ -n "$weak_grids" ]; then
  grid=${weak_grids%% *}
  for path in $paths ${against:+before}; do
    launch "$path" "$gpus" --local 512,512,512 --procs "$grid" --periodic x,y,z --radius 4 --steps 400 --quiet \
      --timeline "$OUT/runs/timeline-$path.json" >"$OUT/runs/timeline-$path.txt" 2>&1 || status=1
  done
fi
echo "runs: $(($(date +%s) - start)) s"
tar czf "$OUT/reports.tgz" -C "$OUT" runs environment.txt
python3 tools/report-table.py node "$OUT/runs" | tee "$OUT/table.txt" || status=1
exit $status
