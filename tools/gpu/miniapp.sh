# shellcheck shell=bash
# The mini-app on a multi-GPU node: build, check, time. It needs no
# package archive (tools/prepare-offline-deps.sh).
#
# Builds the CUDA back-end twice: against the system MPI (not GPU-aware,
# so --comm staged) and, when .deps/ompi-4.1.4-cuda-install.tar.xz is
# there (tools/prepare-offline-deps.sh ARCHIVE), against that CUDA-aware
# Open MPI (--comm gpu-aware, and nccl where NCCL is installed). Then, per
# build: the preflight; 2 ranks against 1, bit for bit, split along z and
# along x; the timing matrix; the halo micro-benchmark; a snapshot run
# whose files must pass tools/verify-output.py. With --sweep "64 128 ...",
# one GPU at each --local N,N,N with --comm none (the projection's input,
# jobscripts/project.py). With --scaling, also the weak and strong scaling
# study of docs/scaling/ (GPU-aware MPI; ranks along z and along x,
# overlap on and off; 1, 2, 4 ... ranks up to the GPUs present). Prints a
# table last; reports and logs go to the results folder $OUT (default
# .out), in one archive, reports.tgz.
#
# usage: tools/gpu.sh miniapp [--sizes "512,512,512 ..."] [--splits "1,1,2 2,1,1"]
#                             [--radius 4] [--steps 100] [--one-gpu] [--scaling]
#                             [--sweep "64 96 128 ..."] [--precisions "fp32 fp64"]
#                             [--graphs "auto off"] [--depths "1 2 4"]
#   --sizes, --splits: the timing matrix's --local boxes and --procs grids
#   --one-gpu:    also each size on one GPU, --comm none
#   --precisions: the checks, timing matrix and snapshot runs in each (default fp32)
#   --graphs:     the timing matrix with each --graphs value (default auto); the
#                 checks always run both ways, and their checksums must agree
#   --depths:     the checks and the timing matrix at each --halo-depth value
#                 (default auto), and the halo micro-benchmark at each number

miniapp_settings() { echo sizes splits radius steps one_gpu scaling sweep precisions graph_modes depths; } # what --dry-run prints
miniapp_options() {
  sizes="512,512,512" splits="1,1,2" radius=4 steps=100 one_gpu=0 scaling=0 sweep="" precisions=fp32
  graph_modes=auto depths=auto
  while [ $# -gt 0 ]; do
    case "$1" in
      --sizes) value "$1" $#; sizes=$2; shift ;;
      --splits) value "$1" $#; splits=$2; shift ;;
      --radius) value "$1" $#; radius=$2; shift ;;
      --steps) value "$1" $#; steps=$2; shift ;;
      --one-gpu) one_gpu=1 ;;
      --scaling) scaling=1 ;;
      --sweep) value "$1" $#; sweep=$2; shift ;;
      --precisions) value "$1" $#; precisions=$2; shift ;;
      --graphs) value "$1" $#; graph_modes=$2; shift ;;
      --depths) value "$1" $#; depths=$2; shift ;;
      *) other_option "$1" ;;
    esac
    shift
  done
}

miniapp_main() {
  OUT=${OUT:-$PWD/.out}
  mkdir -p "$OUT"
  nvidia-smi topo -m >"$OUT/topology.txt" 2>&1 || true
  miniapp_builds
  status=0
  local spec dir launcher modes
  for spec in "${builds[@]}"; do
    IFS='|' read -r dir launcher modes <<<"$spec"
    mrun "$launcher" 2 "preflight-$(basename "$dir")" "$dir/miniapp/stencil-miniapp" --grid 256,256,256 --steps 1 \
      --preflight --print-binding
    grep -A2 "^preflight" "$OUT/preflight-$(basename "$dir").txt" || true
    miniapp_checks "$dir" "$launcher" "$modes"
    miniapp_matrix "$dir" "$launcher" "$modes"
  done
  miniapp_sweep
  miniapp_snapshots
  [ "$scaling" = 0 ] || miniapp_scaling
  cat "$OUT"/halo-bench-*.txt | grep -v "^$" || true
  mtable "$OUT"/perf-*.json --markdown >"$OUT/table.md"
  mtable "$OUT"/perf-*.json
  # One archive is the easiest thing to copy off a node.
  (
    cd "$OUT" || exit 1
    archived=(./*.txt ./*.json ./*.md)
    [ ! -d scaling ] || archived+=(./scaling)
    [ ! -d sweep ] || archived+=(./sweep)
    tar czf reports.tgz "${archived[@]}" && find . -maxdepth 1 -type f ! -name reports.tgz -delete &&
      rm -rf scaling sweep
  )
  exit $status
}

# miniapp_builds: `builds`, one "DIR|LAUNCHER|MODES" per build: the system
# MPI's, and the CUDA-aware Open MPI's where .deps/ has it.
miniapp_builds() {
  builds=("build-gpu-sysmpi|mpirun|staged")
  build_tree . build-gpu-sysmpi "$OUT/build-gpu-sysmpi" "stencil-miniapp stencil-halo-bench" || exit 1
  grep -E "NCCL|mini-app" "$OUT/build-gpu-sysmpi-configure.log" || true
  has_mpi ob1 || return 0
  unpack_mpi ob1
  # Only this build and its runs may see that library: the system-MPI
  # build segfaults if it loads the other libmpi.
  build_tree --mpi /tmp/gpumpi . build-gpu-cudampi "$OUT/build-gpu-cudampi" "stencil-miniapp stencil-halo-bench" ||
    exit 1
  grep -E "NCCL|mini-app" "$OUT/build-gpu-cudampi-configure.log" || true
  require_mpi_from "$OUT/build-gpu-cudampi-configure.log" /tmp/gpumpi/install || exit 1
  local modes="gpu-aware none"
  grep -q "NCCL/RCCL *OFF" "$OUT/build-gpu-cudampi-configure.log" || modes="gpu-aware nccl none"
  builds+=("build-gpu-cudampi|/tmp/gpumpi/install/bin/mpirun --mca pml ob1|$modes")
}

# mtable REPORTS... [--markdown]: the table; a report that failed its
# --check (status 1) or is unreadable (2) marks the part failed but must
# not stop it before the archive.
mtable() { python3 tools/report-table.py miniapp "$@" || status=1; }
mrun() { # mrun LAUNCHER RANKS NAME ARGS...
  local launcher=$1 ranks=$2 name=$3 libs=${LD_LIBRARY_PATH:-}
  shift 3
  [[ $launcher == /tmp/gpumpi/* ]] && libs=/tmp/gpumpi/install/lib:$libs
  # shellcheck disable=SC2086 # the launcher carries its own flags
  LD_LIBRARY_PATH=$libs $launcher -np "$ranks" "$@" >"$OUT/$name.txt" 2>&1 ||
    { echo "FAILED: $name"; tail -15 "$OUT/$name.txt"; status=1; }
}
tag() { echo "$1" | tr , x; } # file names without commas: safe in every shell and copy tool
suffix() { [ "$1" = fp32 ] || echo "-$1"; } # fp32 names stay as they were
gsuffix() { [ "$1" = auto ] || echo "-graphs-$1"; } # graphs auto names stay as they were
dsuffix() { [ "$1" = auto ] || echo "-k$1"; } # --halo-depth auto names stay as they were
checksum_of() { grep -h -E "^checksum:" "$OUT/$1.txt" 2>/dev/null || echo "none"; }

# miniapp_checks DIR LAUNCHER MODES: 2 ranks against one domain, bit for
# bit, split along z and along x, graphs on and off giving the same bits.
miniapp_checks() {
  local dir=$1 launcher=$2 mode procs r p k g name
  for mode in $3; do
    [ "$mode" = none ] && continue
    for procs in 1,1,2 2,1,1; do
      r=$([ "$procs" = 1,1,2 ] && echo "$radius" || echo 8)
      for p in $precisions; do
        for k in $depths; do
          for g in auto off; do
            name=check-$mode-$(tag "$procs")$(suffix "$p")$(dsuffix "$k")$(gsuffix "$g")
            mrun "$launcher" 2 "$name" "$dir/miniapp/stencil-miniapp" --grid 192,160,176 --procs "$procs" \
              --radius "$r" --steps 40 --comm "$mode" --precision "$p" --graphs "$g" --halo-depth "$k" --check \
              --checksum
            echo "$mode procs $procs R=$r $p halo depth $k graphs $g: $(grep -h -E "^check:" "$OUT/$name.txt" ||
              echo 'no check line')"
          done
          name=check-$mode-$(tag "$procs")$(suffix "$p")$(dsuffix "$k")
          if [ "$(checksum_of "$name")" = "$(checksum_of "$name-graphs-off")" ]; then
            echo "  graphs on and off: the same bits ($(checksum_of "$name"))"
          else
            echo "FAILED: graphs on and off differ: $(checksum_of "$name") vs $(checksum_of "$name-graphs-off")"
            status=1
          fi
        done
      done
    done
  done
}

# miniapp_matrix DIR LAUNCHER MODES: the timing matrix, one GPU's runs
# (--one-gpu, system MPI build) and the halo micro-benchmark.
miniapp_matrix() {
  local dir=$1 launcher=$2 modes=$3 size procs mode overlap p g k name bench_modes bench_depths
  for size in $sizes; do
    for procs in $splits; do
      for mode in $modes; do
        for overlap in on off; do
          for p in $precisions; do
            for g in $graph_modes; do
              for k in $depths; do
                name=perf-$(tag "$size")-$(tag "$procs")-$mode-$overlap$(suffix "$p")$(gsuffix "$g")$(dsuffix "$k")
                mrun "$launcher" 2 "$name" "$dir/miniapp/stencil-miniapp" --local "$size" --procs "$procs" \
                  --radius "$radius" --steps "$steps" --warmup 10 --comm "$mode" --overlap "$overlap" \
                  --precision "$p" --graphs "$g" --halo-depth "$k" --report "$OUT/$name.json"
              done
            done
          done
        done
      done
    done
    if [ "$one_gpu" = 1 ] && [ "$dir" = build-gpu-sysmpi ]; then
      for overlap in on off; do
        for g in $graph_modes; do
          name=perf-$(tag "$size")-1gpu-$overlap$(gsuffix "$g")
          mrun "$launcher" 1 "$name" "$dir/miniapp/stencil-miniapp" --local "$size" --radius "$radius" \
            --steps "$steps" --warmup 10 --comm none --overlap "$overlap" --graphs "$g" --report "$OUT/$name.json"
        done
      done
    fi
  done
  bench_modes=$(echo "$modes" | tr ' ' '\n' | grep -v none | paste -sd, -)
  bench_depths=$(echo "$depths" | tr ' ' '\n' | grep -E '^[0-9]+$' | paste -sd, -)
  mrun "$launcher" 2 "halo-bench-$(basename "$dir")" "$dir/bench/stencil-halo-bench" --sizes 64,128,256,512 \
    --radius "$radius" --modes "$bench_modes" --depths "${bench_depths:-1}"
}

# miniapp_sweep: --sweep's one-GPU runs at each --local N,N,N.
miniapp_sweep() {
  [ -n "$sweep" ] || return 0
  mkdir -p "$OUT/sweep"
  local n
  for n in $sweep; do
    mrun mpirun 1 "sweep/sweep-$n" build-gpu-sysmpi/miniapp/stencil-miniapp --local "$n,$n,$n" --radius "$radius" \
      --steps "$steps" --warmup 10 --comm none --label sweep --report "$OUT/sweep/sweep-$n.json"
  done
  mtable "$OUT"/sweep/*.json
}

# miniapp_snapshots: snapshots from the GPUs, written by MPI-IO from every
# rank, must verify against their sidecars (length and CRC-32).
miniapp_snapshots() {
  local dir launcher modes p
  IFS='|' read -r dir launcher modes <<<"${builds[-1]}"
  for p in $precisions; do
    rm -rf /tmp/stencil-snapshots
    mrun "$launcher" 2 "snapshots$(suffix "$p")" "$dir/miniapp/stencil-miniapp" --grid 192,160,176 --steps 40 \
      --snapshot-every 20 --receiver-line z=40 --output /tmp/stencil-snapshots --precision "$p" --checksum
    python3 tools/verify-output.py /tmp/stencil-snapshots >"$OUT/snapshots-verify$(suffix "$p").txt" 2>&1 ||
      { echo "FAILED: the GPU run's $p snapshots do not verify"; status=1; }
    cat "$OUT/snapshots-verify$(suffix "$p").txt"
  done
}

# miniapp_scaling: the study of docs/scaling/ through jobscripts/local/scaling.sh.
miniapp_scaling() {
  if [ ! -x build-gpu-cudampi/miniapp/stencil-miniapp ]; then
    echo "FAILED: --scaling needs the CUDA-aware Open MPI in .deps/ (tools/prepare-offline-deps.sh ARCHIVE)"
    status=1
    return
  fi
  local gpus ranks_list=1 n along overlap
  gpus=$(nvidia-smi -L | wc -l)
  for ((n = 2; n <= gpus; n *= 2)); do ranks_list+=" $n"; done
  for along in "" x; do
    for overlap in on off; do
      # The collector needs matplotlib, which a GPU node may lack: run it
      # afterwards, wherever the reports are copied to.
      LD_LIBRARY_PATH=/tmp/gpumpi/install/lib:${LD_LIBRARY_PATH:-} APP=build-gpu-cudampi/miniapp/stencil-miniapp \
        MPIRUN="/tmp/gpumpi/install/bin/mpirun --mca pml ob1" RANKS_LIST=$ranks_list COMM=gpu-aware \
        RADIUS=$radius STEPS=$steps OVERLAP=$overlap PROCS_ALONG=$along LABEL_SUFFIX=${along:+-along-$along} \
        RESULTS="$OUT/scaling" COLLECT=off APPEND=on jobscripts/local/scaling.sh >>"$OUT/scaling.txt" 2>&1 ||
        { echo "FAILED: scaling ${along:+along $along }overlap $overlap"; tail -15 "$OUT/scaling.txt"; status=1; }
    done
  done
  mtable "$OUT"/scaling/*.json
}
