#!/usr/bin/env bash
# The mini-app on a multi-GPU node, in one script: build, check, time.
# It needs no package archive (tools/prepare-offline-deps.sh).
#
# Builds the CUDA back-end twice: against the system MPI (not GPU-aware, so
# --comm staged) and, when .deps/ompi-4.1.4-cuda-install.tar.xz is there
# (tools/prepare-offline-deps.sh ARCHIVE), against that CUDA-aware Open MPI
# (--comm gpu-aware, and nccl where
# NCCL is installed). Then, per build: the preflight; 2 ranks against 1,
# bit for bit, split along z and along x; the timing matrix; the halo
# micro-benchmark; a snapshot run whose files must pass
# tools/verify-output.py. With --sweep "64 128 ...", one GPU at each --local
# N,N,N with --comm none (the projection's input, jobscripts/project.py).
# With --scaling, also the weak and strong scaling study of
# docs/scaling/ (GPU-aware MPI; ranks along z and along x, overlap on and
# off; 1, 2, 4 ... ranks up to the GPUs present). Prints a table last;
# reports and logs go to the results folder $OUT (default .out), in one
# archive, reports.tgz.
#
# usage: tools/gpu-miniapp.sh [--sizes "512,512,512 ..."] [--splits "1,1,2 2,1,1"]
#                             [--radius 4] [--steps 100] [--one-gpu] [--scaling]
#                             [--sweep "64 96 128 ..."] [--precisions "fp32 fp64"]
#                             [--graphs "auto off"] [--depths "1 2 4"]
# --precisions: the checks, timing matrix and snapshot runs in each (default fp32).
# --graphs: the timing matrix with each --graphs value (default auto). The
#           checks always run both ways, and their checksums must agree.
# --depths: the checks and the timing matrix at each --halo-depth value
#           (default auto), and the halo micro-benchmark at each number.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/.out}
mkdir -p "$OUT"
sizes="512,512,512" splits="1,1,2" radius=4 steps=100 one_gpu=0 scaling=0 sweep="" precisions=fp32
graph_modes=auto depths=auto
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) sizes=$2; shift ;;
    --splits) splits=$2; shift ;;
    --radius) radius=$2; shift ;;
    --steps) steps=$2; shift ;;
    --one-gpu) one_gpu=1 ;;
    --scaling) scaling=1 ;;
    --sweep) sweep=$2; shift ;;
    --precisions) precisions=$2; shift ;;
    --graphs) graph_modes=$2; shift ;;
    --depths) depths=$2; shift ;;
    *) echo "gpu-miniapp: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 # never NVLink multicast on shared machines
nvidia-smi topo -m >"$OUT/topology.txt" 2>&1 || true

source tools/offline-deps.sh # sets prefix

build() { # build DIR [cmake args...]
  local dir=$1 log; shift
  log=$OUT/$(basename "$dir")
  cmake -S . -B "$dir" -DSTENCIL_BACKEND=CUDA -DSTENCIL_BUILD_TESTS=OFF "${prefix[@]}" "$@" >"$log-configure.log" 2>&1 ||
    { tail -20 "$log-configure.log"; exit 1; }
  grep -E "NCCL|mini-app" "$log-configure.log" || true
  cmake --build "$dir" -j"$(nproc)" --target stencil-miniapp stencil-halo-bench >"$log-build.log" 2>&1 ||
    { grep -A5 error "$log-build.log" | head -40; exit 1; }
}

# dir|launcher|modes
builds=("build-gpu-sysmpi|mpirun|staged")
build build-gpu-sysmpi
if [ -f .deps/ompi-4.1.4-cuda-install.tar.xz ]; then
  mkdir -p /tmp/gpumpi && tar xJf .deps/ompi-4.1.4-cuda-install.tar.xz -C /tmp/gpumpi
  # Only this build and its runs may see that library: the system-MPI build
  # segfaults if it loads the other libmpi.
  PATH=/tmp/gpumpi/install/bin:$PATH LD_LIBRARY_PATH=/tmp/gpumpi/install/lib:${LD_LIBRARY_PATH:-} \
    build build-gpu-cudampi -DMPI_HOME=/tmp/gpumpi/install
  require_mpi_from "$OUT/build-gpu-cudampi-configure.log" /tmp/gpumpi/install || exit 1
  modes="gpu-aware none"
  grep -q "NCCL/RCCL *OFF" "$OUT/build-gpu-cudampi-configure.log" || modes="gpu-aware nccl none"
  builds+=("build-gpu-cudampi|/tmp/gpumpi/install/bin/mpirun --mca pml ob1|$modes")
fi

status=0
# miniapp-table prints its table and exits 1 when a report failed its
# --check (2 when it cannot read one): either marks this script failed but
# must not stop it before the archive.
table() { python3 tools/report-table.py miniapp "$@" || status=1; }
run() { # run LAUNCHER RANKS NAME ARGS...
  local launcher=$1 ranks=$2 name=$3 libs=${LD_LIBRARY_PATH:-}; shift 3
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

for spec in "${builds[@]}"; do
  IFS='|' read -r dir launcher modes <<<"$spec"
  app=$dir/miniapp/stencil-miniapp
  run "$launcher" 2 "preflight-$(basename "$dir")" "$app" --grid 256,256,256 --steps 1 --preflight --print-binding
  grep -A2 "^preflight" "$OUT/preflight-$(basename "$dir").txt" || true
  for mode in $modes; do
    [ "$mode" = none ] && continue
    for procs in 1,1,2 2,1,1; do
      r=$([ "$procs" = 1,1,2 ] && echo "$radius" || echo 8)
      for p in $precisions; do
        for k in $depths; do
          for g in auto off; do
            name=check-$mode-$(tag "$procs")$(suffix "$p")$(dsuffix "$k")$(gsuffix "$g")
            run "$launcher" 2 "$name" "$app" --grid 192,160,176 --procs "$procs" --radius "$r" --steps 40 \
              --comm "$mode" --precision "$p" --graphs "$g" --halo-depth "$k" --check --checksum
            echo "$mode procs $procs R=$r $p halo depth $k graphs $g: $(grep -h -E "^check:" "$OUT/$name.txt" || echo 'no check line')"
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
  for size in $sizes; do
    for procs in $splits; do
      for mode in $modes; do
        for overlap in on off; do
          for p in $precisions; do
            for g in $graph_modes; do
              for k in $depths; do
                name=perf-$(tag "$size")-$(tag "$procs")-$mode-$overlap$(suffix "$p")$(gsuffix "$g")$(dsuffix "$k")
                run "$launcher" 2 "$name" "$app" --local "$size" --procs "$procs" --radius "$radius" \
                  --steps "$steps" --warmup 10 --comm "$mode" --overlap "$overlap" --precision "$p" \
                  --graphs "$g" --halo-depth "$k" --report "$OUT/$name.json"
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
          run "$launcher" 1 "$name" "$app" --local "$size" --radius "$radius" --steps "$steps" \
            --warmup 10 --comm none --overlap "$overlap" --graphs "$g" --report "$OUT/$name.json"
        done
      done
    fi
  done
  bench_modes=$(echo "$modes" | tr ' ' '\n' | grep -v none | paste -sd, -)
  bench_depths=$(echo "$depths" | tr ' ' '\n' | grep -E '^[0-9]+$' | paste -sd, -)
  run "$launcher" 2 "halo-bench-$(basename "$dir")" "$dir/bench/stencil-halo-bench" --sizes 64,128,256,512 \
    --radius "$radius" --modes "$bench_modes" --depths "${bench_depths:-1}"
done
if [ -n "$sweep" ]; then
  mkdir -p "$OUT/sweep"
  for n in $sweep; do
    run mpirun 1 "sweep/sweep-$n" build-gpu-sysmpi/miniapp/stencil-miniapp --local "$n,$n,$n" --radius "$radius" \
      --steps "$steps" --warmup 10 --comm none --label sweep --report "$OUT/sweep/sweep-$n.json"
  done
  table "$OUT"/sweep/*.json
fi
# Snapshots from the GPUs, written by MPI-IO from every rank, must verify
# against their sidecars (length and CRC-32).
spec=${builds[-1]}
IFS='|' read -r dir launcher modes <<<"$spec"
for p in $precisions; do
  rm -rf /tmp/stencil-snapshots
  run "$launcher" 2 "snapshots$(suffix "$p")" "$dir/miniapp/stencil-miniapp" --grid 192,160,176 --steps 40 \
    --snapshot-every 20 --receiver-line z=40 --output /tmp/stencil-snapshots --precision "$p" --checksum
  python3 tools/verify-output.py /tmp/stencil-snapshots >"$OUT/snapshots-verify$(suffix "$p").txt" 2>&1 ||
    { echo "FAILED: the GPU run's $p snapshots do not verify"; status=1; }
  cat "$OUT/snapshots-verify$(suffix "$p").txt"
done
if [ "$scaling" = 1 ]; then
  if [ ! -x build-gpu-cudampi/miniapp/stencil-miniapp ]; then
    echo "FAILED: --scaling needs the CUDA-aware Open MPI in .deps/ (tools/prepare-offline-deps.sh ARCHIVE)"
    status=1
  else
    gpus=$(nvidia-smi -L | wc -l) ranks_list=1
    for ((n = 2; n <= gpus; n *= 2)); do ranks_list+=" $n"; done
    for along in "" x; do
      for overlap in on off; do
        # The collector needs matplotlib, which a GPU node may lack: run it
        # afterwards, wherever the reports are copied to.
        LD_LIBRARY_PATH=/tmp/gpumpi/install/lib:${LD_LIBRARY_PATH:-} APP=build-gpu-cudampi/miniapp/stencil-miniapp \
          MPIRUN="/tmp/gpumpi/install/bin/mpirun --mca pml ob1" RANKS_LIST=$ranks_list COMM=gpu-aware \
          RADIUS=$radius STEPS=$steps OVERLAP=$overlap PROCS_ALONG=$along LABEL_SUFFIX=${along:+-along-$along} \
          RESULTS="$OUT/scaling" COLLECT=off jobscripts/local/scaling.sh >>"$OUT/scaling.txt" 2>&1 ||
          { echo "FAILED: scaling ${along:+along $along }overlap $overlap"; tail -15 "$OUT/scaling.txt"; status=1; }
      done
    done
    table "$OUT"/scaling/*.json
  fi
fi
cat "$OUT"/halo-bench-*.txt | grep -v "^$" || true
table "$OUT"/perf-*.json --markdown >"$OUT/table.md"
table "$OUT"/perf-*.json
# One archive is the easiest thing to copy off a node.
(
  cd "$OUT"
  archived=(./*.txt ./*.json ./*.md)
  [ ! -d scaling ] || archived+=(./scaling)
  [ ! -d sweep ] || archived+=(./sweep)
  tar czf reports.tgz "${archived[@]}" && find . -maxdepth 1 -type f ! -name reports.tgz -delete && rm -rf scaling sweep
)
exit $status
