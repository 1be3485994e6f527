#!/usr/bin/env bash
# One performance experiment of the mini-app on one node, recorded the way
# docs/data/ keeps them: builds this tree (and, with --against REV, that
# revision beside it), runs every variant at every size, interleaved and
# repeated so that drift hits all of them alike, prints the table last, and
# leaves a folder with the reports packed in raw.tar.xz and a README to
# complete (what the experiment asked, which document uses it).
#
# usage: tools/experiment.sh NAME [--against REV] [--variant LABEL=ARGS]... [--sizes "64 128 ..."]
#                            [--ranks N] [--repeat N] [--bench "BENCH_ARGS"] [-- MINIAPP_ARGS...]
#   --against REV        also build REV (git archive) and run it as variant "before"
#   --variant LABEL=ARGS this tree with extra arguments, e.g. --variant graphs="--graphs on";
#                        without any, one variant "now" with MINIAPP_ARGS alone
#   --sizes              --local N,N,N per rank for each N (default "128 256 512")
#   --ranks              MPI ranks per run (default 1), one GPU each
#   --repeat             rounds over all variants and sizes (default 2)
#   --bench BENCH_ARGS   also build stencil-bench (this tree, and REV's) and run it with
#                        BENCH_ARGS once a round, alternating with REV's: the kernel table
#   MINIAPP_ARGS         given to every run (default --radius 4 --comm none --steps 300 --warmup 20)
# env: OUT (results folder; default results/NAME-YYYYMMDD-HHMM), STENCIL_BACKEND (to force one),
#      MPI_HOME (an MPI install to build against and launch with, e.g. a GPU-aware one),
#      MPIRUN_FLAGS (for its mpirun, e.g. "--mca pml ob1")
#
# example, the graphs experiment of docs/scaling/SMALL-BOXES.md:
#   tools/experiment.sh graphs --against 66eeb38 --variant plain="--graphs off" \
#       --variant graphs="--graphs on" --sizes "64 128 256 512" -- --radius 4 --comm none --steps 300
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [[ $1 == -* ]]; then sed -n '9,21p' "$0" >&2; exit 2; fi
name=$1; shift
against="" sizes="128 256 512" ranks=1 repeat=2 labels=() extra=() bench_args=""
while [ $# -gt 0 ]; do
  case "$1" in
    --against) against=$2; shift ;;
    --variant) labels+=("${2%%=*}"); extra+=("${2#*=}"); shift ;;
    --sizes) sizes=$2; shift ;;
    --ranks) ranks=$2; shift ;;
    --repeat) repeat=$2; shift ;;
    --bench) bench_args=$2; shift ;;
    --) shift; break ;;
    *) echo "experiment: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
common=("$@")
[ ${#common[@]} -gt 0 ] || common=(--radius 4 --comm none --steps 300 --warmup 20)
[ ${#labels[@]} -gt 0 ] || { labels=(now); extra=(""); }
[[ $name =~ ^[A-Za-z0-9._-]+$ ]] || { echo "experiment: NAME '$name' must be letters, digits, . _ -" >&2; exit 2; }
out=${OUT:-results/$name-$(date -u +%Y%m%d-%H%M)}
mkdir -p "$out/runs" "$out/bench"

source tools/offline-deps.sh # sets prefix
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 # never NVLink multicast on shared nodes
backend=${STENCIL_BACKEND:-}
if [ -z "$backend" ]; then
  if nvidia-smi -L >/dev/null 2>&1 && command -v nvcc >/dev/null; then backend=CUDA
  elif [ -e /dev/kfd ] && command -v hipcc >/dev/null; then backend=HIP
  else backend=HOST; fi
fi
[ "$backend" = HIP ] && export CXX=hipcc

{
  echo "experiment: $name"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "revision: $(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)${against:+ against $against}"
  echo "backend: $backend${MPI_HOME:+, MPI from $MPI_HOME ${MPIRUN_FLAGS:-}}"
  echo "command: $0 $name${against:+ --against $against} --sizes \"$sizes\" --ranks $ranks --repeat $repeat${bench_args:+ --bench \"$bench_args\"} -- ${common[*]}"
  for i in "${!labels[@]}"; do echo "variant ${labels[$i]}: ${extra[$i]}"; done
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit --format=csv,noheader 2>/dev/null ||
    rocm-smi --showproductname 2>/dev/null || lscpu | grep -E "Model name|^CPU\(s\)"
} | tee "$out/environment.txt"

mpi=()
mpirun=mpirun
if [ -n "${MPI_HOME:-}" ]; then
  mpi=(-DMPI_HOME="$MPI_HOME")
  mpirun=$MPI_HOME/bin/mpirun
  export LD_LIBRARY_PATH=$MPI_HOME/lib:${LD_LIBRARY_PATH:-}
fi
targets=(stencil-miniapp)
[ -z "$bench_args" ] || targets+=(stencil-bench)
build() { # build SOURCE_DIR BUILD_DIR [CMAKE_ARGS...]
  if ! cmake -S "$1" -B "$2" -DSTENCIL_BACKEND="$backend" -DSTENCIL_BUILD_TESTS=OFF \
         -DSTENCIL_BUILD_BENCH="$([ -n "$bench_args" ] && echo ON || echo OFF)" \
         "${mpi[@]}" "${prefix[@]}" "${@:3}" >"$out/$(basename "$2")-configure.log" 2>&1 ||
     ! cmake --build "$2" -j"$(nproc)" --target "${targets[@]}" >"$out/$(basename "$2")-build.log" 2>&1; then
    echo "experiment: building $1 failed (logs in $out)" >&2
    exit 1
  fi
}
if [ -n "$against" ]; then
  unpack_revision "$against" /tmp/experiment-before || exit 1
  build /tmp/experiment-before build-exp-before "${revision_args[@]}"
  labels=(before "${labels[@]}"); extra=("" "${extra[@]}")
fi
build . build-exp

for round in $(seq 1 "$repeat"); do
  if [ -n "$bench_args" ]; then
    for tree in ${against:+before} now; do
      bench=build-exp/bench/stencil-bench
      [ "$tree" = before ] && bench=build-exp-before/bench/stencil-bench
      # shellcheck disable=SC2086 # the benchmark's arguments are a list
      "$bench" $bench_args --benchmark_out="$out/bench/$tree-r$round.json" --benchmark_out_format=json \
        >"$out/bench/$tree-r$round.txt" 2>&1 || echo "experiment: FAILED the benchmark of $tree, round $round"
    done
  fi
  for n in $sizes; do
    for i in "${!labels[@]}"; do
      app=build-exp/miniapp/stencil-miniapp
      [ "${labels[$i]}" = before ] && app=build-exp-before/miniapp/stencil-miniapp
      report=$out/runs/${labels[$i]}-$n-r$round.json
      # shellcheck disable=SC2086 # a variant's extra arguments and the launcher's flags are lists
      "$mpirun" ${MPIRUN_FLAGS:-} -np "$ranks" "$app" --local "$n,$n,$n" "${common[@]}" ${extra[$i]} --quiet \
        --label "${labels[$i]}" --report "$report" >"${report%.json}.txt" 2>&1 ||
        echo "experiment: FAILED ${labels[$i]} at $n^3, round $round (${report%.json}.txt)"
    done
  done
done

(cd "$out" && tar -cJf raw.tar.xz runs bench environment.txt ./*.log && rm -rf runs bench ./*.log)
cat >"$out/README.md" <<EOF
# $name

| | |
|---|---|
| date | $(sed -n 's/^date: //p' "$out/environment.txt") |
| device | $(tail -1 "$out/environment.txt") |
| command | \`$(sed -n 's/^command: //p' "$out/environment.txt")\` |
| used by | (the document that quotes it) |

What it asked, and the prediction made before it ran: (fill in)

The reports, their console output, the build logs and environment.txt are
in \`raw.tar.xz\`. Table: \`tar xJf raw.tar.xz && tools/report-table.py miniapp runs/*.json\`.
EOF
echo
echo "experiment $name: $out (raw.tar.xz, README.md)"
# The table exits 1 when a run failed its --check, having printed it and
# said which: the benchmark tables and the clean-up still follow.
tmp=$(mktemp -d) && tar xJf "$out/raw.tar.xz" -C "$tmp" runs bench &&
  { python3 tools/report-table.py miniapp "$tmp"/runs/*.json || [ $? -eq 1 ]; }
for table in "$tmp"/bench/*.json; do
  [ -f "$table" ] || continue
  echo "== stencil-bench, $(basename "$table" .json)"
  python3 tools/report-table.py bench "$table"
done
rm -rf "$tmp"
