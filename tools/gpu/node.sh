# shellcheck shell=bash disable=SC2154 # prefix, revision_args: tools/offline-deps.sh's
# One node of several GPUs: the decomposition's checks and the node's weak
# and strong scaling against one GPU's --comm none step measured in the
# same call. Builds the CUDA back-end against the CUDA-aware Open MPI
# builds in .deps/ (ob1, and UCX where its archive is there;
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
# timeline. Reports and logs go to $OUT/node (OUT default .out), the table
# last (tools/report-table.py node).
#
# usage: tools/gpu.sh node [--parts "checks weak strong choices timelines"] [--repeat N]
#                          [--against REV]

node_settings() { echo parts repeat against; } # what --dry-run prints
node_options() {
  parts="checks weak strong choices timelines" repeat=1 against=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --parts) value "$1" $#; parts=$2; shift ;;
      --repeat) value "$1" $#; repeat=$2; shift ;;
      --against) value "$1" $#; against=$2; shift ;;
      *) other_option "$1" ;;
    esac
    shift
  done
  positive "$repeat" --repeat
  local p
  for p in $parts; do
    [[ " checks weak strong choices timelines " == *" $p "* ]] ||
      die "unknown --parts entry '$p': checks, weak, strong, choices or timelines"
  done
}

node_main() {
  need_mpi ob1
  set +e # a failed run is counted in the status, and the next one runs
  OUT=${OUT:-$PWD/.out}/node
  mkdir -p "$OUT/runs"
  gpus=$(nvidia-smi -L | grep -c '^GPU')
  {
    date -u +%Y-%m-%dT%H:%M:%SZ
    revision_line "$against"
    echo "command: tools/gpu.sh node --parts \"$parts\" --repeat $repeat${against:+ --against $against}"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    nvidia-smi topo -m 2>&1 | head -$((gpus + 1))
  } | tee -a "$OUT/environment.txt"
  start=$(date +%s)
  node_builds || exit 1
  echo "builds: $(($(date +%s) - start)) s"
  # A path's name gives its build and --comm: ob1 and ucx are GPU-aware MPI.
  paths="peer ob1 nccl" && [[ " ${libs[*]} " == *" ucx "* ]] && paths="peer ob1 ucx nccl"
  status=0
  wants checks && node_checks
  # Weak: the process grids of this node; strong: the GPU counts of this node.
  case $gpus in
    8) weak_grids="2,2,2" ;; 4) weak_grids="2,2,1 1,2,2" ;; 2) weak_grids="2,1,1" ;; *) weak_grids="" ;;
  esac
  counts=$(for n in 2 4 8; do [ "$n" -le "$gpus" ] && echo -n "$n "; done)
  local round
  for round in $(seq 1 "$repeat"); do node_round "r$round"; done
  wants timelines && [ -n "$weak_grids" ] && node_timelines
  echo "runs: $(($(date +%s) - start)) s"
  tar czf "$OUT/reports.tgz" -C "$OUT" runs environment.txt
  python3 tools/report-table.py node "$OUT/runs" | tee "$OUT/table.txt" || status=1
  exit $status
}

# node_builds: each library's build of this tree, and REV's (--against),
# side by side.
node_builds() {
  libs=(ob1)
  has_mpi ucx && libs+=(ucx)
  local lib job
  for lib in "${libs[@]}"; do unpack_mpi "$lib" || return 1; done # before the builds, which share them
  for lib in "${libs[@]}"; do
    build_tree --mpi "$(mpi_root "$lib")" . "build-node-$lib" "$OUT/build-node-$lib" stencil-miniapp -G Ninja \
      -DSTENCIL_BUILD_BENCH=OFF &
  done
  if [ -n "$against" ]; then
    unpack_revision "$against" /tmp/node-before &&
      build_tree --mpi /tmp/gpumpi /tmp/node-before build-node-before "$OUT/build-node-before" stencil-miniapp \
        -G Ninja -DSTENCIL_BUILD_BENCH=OFF "${revision_args[@]}" &
  fi
  for job in $(jobs -p); do wait "$job" || return 1; done
}

launch() { # launch PATH RANKS ARGS...: mpirun of that path's library
  local path=$1 ranks=$2 lib=ob1 comm=$1 flags=(--mca pml ob1)
  shift 2
  case "$path" in
    ob1) comm=gpu-aware ;; none) ;;
    ucx) lib=ucx comm=gpu-aware
         flags=(--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any -x "UCX_TLS=cuda_copy,cuda_ipc,sm,self") ;;
    before) comm=gpu-aware ;; before-none) comm=none ;;
  esac
  local app=build-node-$lib/miniapp/stencil-miniapp
  [[ $path == before* ]] && app=build-node-before/miniapp/stencil-miniapp
  timeout 150 "$(mpi_root "$lib")/install/bin/mpirun" "${flags[@]}" --oversubscribe -x NCCL_NVLS_ENABLE \
    -x LD_LIBRARY_PATH -np "$ranks" "$app" --comm "$comm" "$@"
}
ncheck() { # ncheck PATH NAME ARGS...: 8 ranks, bitwise equal to one domain
  local path=$1 name=$2
  shift 2
  if launch "$path" 8 --procs 2,2,2 --grid 104,88,96 --steps 40 --check --quiet "$@" >"$OUT/runs/$name.txt" 2>&1 &&
    grep -q "bitwise equal" "$OUT/runs/$name.txt"; then
    echo "ok      $name"
  else
    echo "FAILED  $name: $(grep -h -E "^check:|error|stencil-miniapp:" "$OUT/runs/$name.txt" | head -2)"; status=1
  fi
}
timed() { # timed PATH RANKS NAME LABEL STEPS ARGS...: one report
  local path=$1 ranks=$2 name=$3 label=$4 steps=$5
  shift 5
  if launch "$path" "$ranks" --radius 4 --warmup 20 --steps "$steps" --label "$label" --quiet \
    --report "$OUT/runs/$name.json" "$@" >"$OUT/runs/$name.txt" 2>&1; then
    echo "$name: $(grep -h "^FOM" "$OUT/runs/$name.txt")"
  else
    echo "FAILED  $name: $(tail -3 "$OUT/runs/$name.txt" | tr '\n' ' ')"; status=1
  fi
}
wants() { [[ " $parts " == *" $1 "* ]]; }

node_checks() {
  local path
  for path in $paths; do
    [ "$path" = nccl ] && [ "$gpus" -lt 8 ] && { echo "skipped nccl checks on 8 ranks: $gpus GPUs"; continue; }
    ncheck "$path" "check-$path-periodic-fp32" --periodic x,y,z --overlap on
    ncheck "$path" "check-$path-open-fp64-R7" --precision fp64 --radius 7 --overlap on
    [ "$path" = peer ] && continue # peer stores faces from the boundary kernels: depth 1 only
    ncheck "$path" "check-$path-periodic-depth2-fp64" --periodic x,y,z --halo-depth 2 --precision fp64
    ncheck "$path" "check-$path-open-depth3-R2" --halo-depth 3 --radius 2 --overlap off
  done
  echo "checks: $(($(date +%s) - start)) s"
}

# node_round R: one round's baselines, weak, strong and choices runs.
node_round() {
  local r=$1 grid path n
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
    [ -z "$against" ] || node_before "$r"
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
  wants choices && [ -n "$weak_grids" ] && node_choices "$r"
}

# node_before R: REV beside, each periodic grid, and the open z split of both trees.
node_before() {
  local r=$1 grid tree
  timed before-none 1 "$r-one-512-before" one 1600 --local 512,512,512
  for grid in $weak_grids; do
    timed before "$gpus" "$r-w512-${grid//,/x}-before" weak 2000 --local 512,512,512 --procs "$grid" --periodic x,y,z
  done
  for tree in ob1 before; do
    timed "$tree" "$gpus" "$r-w512-z-open-$tree" weak 2000 --local 512,512,512 --procs "1,1,$gpus"
  done
}

node_choices() { # node_choices R
  local r=$1 grid=${weak_grids%% *} overlap
  for overlap in on off; do
    timed ob1 "$gpus" "$r-w512-${grid//,/x}-ob1-overlap-$overlap" weak 2000 --local 512,512,512 --procs "$grid" \
      --periodic x,y,z --overlap "$overlap"
  done
  timed ob1 "$gpus" "$r-s512-n$gpus-ob1-grid-auto" strong $((1600 * gpus)) --grid 512,512,512
  timed ob1 "$gpus" "$r-s512-n$gpus-ob1-grid-1x1x$gpus" strong $((1600 * gpus)) --grid 512,512,512 \
    --procs "1,1,$gpus"
}

node_timelines() {
  local grid=${weak_grids%% *} path
  for path in $paths ${against:+before}; do
    launch "$path" "$gpus" --local 512,512,512 --procs "$grid" --periodic x,y,z --radius 4 --steps 400 --quiet \
      --timeline "$OUT/runs/timeline-$path.json" >"$OUT/runs/timeline-$path.txt" 2>&1 || status=1
  done
}
