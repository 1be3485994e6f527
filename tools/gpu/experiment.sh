# shellcheck shell=bash disable=SC2154 # revision_args: tools/offline-deps.sh's
# One performance experiment of the mini-app on one node, recorded the way
# docs/data/ keeps them: builds this tree (and, with --against REV, that
# revision beside it), runs every variant at every size, interleaved and
# repeated so that drift hits all of them alike, prints the table last, and
# leaves a folder with the reports packed in raw.tar.xz and a README to
# complete (what the experiment asked, which document uses it).
#
# usage: tools/gpu.sh experiment NAME [--against REV] [--variant LABEL=ARGS]... [--sizes "64 128 ..."]
#                                [--ranks N] [--repeat N] [--bench "BENCH_ARGS"] [-- MINIAPP_ARGS...]
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
#   tools/gpu.sh experiment graphs --against 66eeb38 --variant plain="--graphs off" \
#       --variant graphs="--graphs on" --sizes "64 128 256 512" -- --radius 4 --comm none --steps 300

experiment_settings() { echo name against sizes ranks repeat bench_args labels extra common; } # what --dry-run prints
experiment_options() {
  case ${1:-} in
    -h | --help) other_option "$1" ;;
    "" | -*) die "the experiment's NAME comes first (tools/gpu.sh experiment --help)" ;;
  esac
  name=$1
  shift
  against="" sizes="128 256 512" ranks=1 repeat=2 labels=() extra=() bench_args=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --against) value "$1" $#; against=$2; shift ;;
      --variant) value "$1" $#; labels+=("${2%%=*}"); extra+=("${2#*=}"); shift ;;
      --sizes) value "$1" $#; sizes=$2; shift ;;
      --ranks) value "$1" $#; ranks=$2; shift ;;
      --repeat) value "$1" $#; repeat=$2; shift ;;
      --bench) value "$1" $#; bench_args=$2; shift ;;
      --) shift; break ;;
      *) other_option "$1" ;;
    esac
    shift
  done
  common=("$@")
  [ ${#common[@]} -gt 0 ] || common=(--radius 4 --comm none --steps 300 --warmup 20)
  [ ${#labels[@]} -gt 0 ] || { labels=(now); extra=(""); }
  [[ $name =~ ^[A-Za-z0-9._-]+$ ]] || die "NAME '$name' must be letters, digits, . _ -"
}

experiment_main() {
  out=${OUT:-results/$name-$(date -u +%Y%m%d-%H%M)}
  mkdir -p "$out/runs" "$out/bench"
  backend=${STENCIL_BACKEND:-}
  if [ -z "$backend" ]; then
    if nvidia-smi -L >/dev/null 2>&1 && command -v nvcc >/dev/null; then backend=CUDA
    elif [ -e /dev/kfd ] && command -v hipcc >/dev/null; then backend=HIP
    else backend=HOST; fi
  fi
  [ "$backend" != HIP ] || export CXX=hipcc
  experiment_environment | tee "$out/environment.txt"
  mpirun=mpirun
  local mpi=() bench=OFF targets=stencil-miniapp round
  if [ -n "${MPI_HOME:-}" ]; then
    mpi=(-DMPI_HOME="$MPI_HOME")
    mpirun=$MPI_HOME/bin/mpirun
    export LD_LIBRARY_PATH=$MPI_HOME/lib:${LD_LIBRARY_PATH:-}
  fi
  [ -z "$bench_args" ] || { bench=ON targets="stencil-miniapp stencil-bench"; }
  if [ -n "$against" ]; then
    unpack_revision "$against" /tmp/experiment-before || exit 1
    build_tree /tmp/experiment-before build-exp-before "$out/build-exp-before" "$targets" \
      -DSTENCIL_BACKEND="$backend" -DSTENCIL_BUILD_BENCH=$bench "${mpi[@]}" "${revision_args[@]}" || exit 1
    labels=(before "${labels[@]}") extra=("" "${extra[@]}")
  fi
  build_tree . build-exp "$out/build-exp" "$targets" -DSTENCIL_BACKEND="$backend" -DSTENCIL_BUILD_BENCH=$bench \
    "${mpi[@]}" || exit 1
  for round in $(seq 1 "$repeat"); do experiment_round "$round"; done
  (cd "$out" && tar -cJf raw.tar.xz runs bench environment.txt ./*.log && rm -rf runs bench ./*.log)
  experiment_readme >"$out/README.md"
  echo
  echo "experiment $name: $out (raw.tar.xz, README.md)"
  experiment_tables
}

experiment_environment() {
  echo "experiment: $name"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  revision_line "$against"
  echo "backend: $backend${MPI_HOME:+, MPI from $MPI_HOME ${MPIRUN_FLAGS:-}}"
  echo "command: tools/gpu.sh experiment $name${against:+ --against $against} --sizes \"$sizes\" --ranks $ranks" \
    "--repeat $repeat${bench_args:+ --bench \"$bench_args\"} -- ${common[*]}"
  local i
  for i in "${!labels[@]}"; do echo "variant ${labels[$i]}: ${extra[$i]}"; done
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit --format=csv,noheader 2>/dev/null ||
    rocm-smi --showproductname 2>/dev/null || lscpu | grep -E "Model name|^CPU\(s\)"
}

# experiment_round N: the benchmark of each tree (--bench), then every
# variant at every size.
experiment_round() {
  local round=$1 tree bench n i app report
  if [ -n "$bench_args" ]; then
    for tree in ${against:+before} now; do
      bench=build-exp/bench/stencil-bench
      [ "$tree" = now ] || bench=build-exp-before/bench/stencil-bench
      # shellcheck disable=SC2086 # the benchmark's arguments are a list
      "$bench" $bench_args --benchmark_out="$out/bench/$tree-r$round.json" --benchmark_out_format=json \
        >"$out/bench/$tree-r$round.txt" 2>&1 || echo "experiment: FAILED the benchmark of $tree, round $round"
    done
  fi
  for n in $sizes; do
    for i in "${!labels[@]}"; do
      app=build-exp/miniapp/stencil-miniapp
      [ "${labels[$i]}" != before ] || app=build-exp-before/miniapp/stencil-miniapp
      report=$out/runs/${labels[$i]}-$n-r$round.json
      # shellcheck disable=SC2086 # a variant's extra arguments and the launcher's flags are lists
      "$mpirun" ${MPIRUN_FLAGS:-} -np "$ranks" "$app" --local "$n,$n,$n" "${common[@]}" ${extra[$i]} --quiet \
        --label "${labels[$i]}" --report "$report" >"${report%.json}.txt" 2>&1 ||
        echo "experiment: FAILED ${labels[$i]} at $n^3, round $round (${report%.json}.txt)"
    done
  done
}

experiment_readme() {
  cat <<README
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
README
}

# experiment_tables: the mini-app's table, then the benchmark's. The first
# exits 1 when a run failed its --check, having printed it and said which:
# the benchmark tables and the clean-up still follow.
experiment_tables() {
  local tmp table
  tmp=$(mktemp -d)
  tar xJf "$out/raw.tar.xz" -C "$tmp" runs bench &&
    { python3 tools/report-table.py miniapp "$tmp"/runs/*.json || [ $? -eq 1 ]; }
  for table in "$tmp"/bench/*.json; do
    [ -f "$table" ] || continue
    echo "== stencil-bench, $(basename "$table" .json)"
    python3 tools/report-table.py bench "$table"
  done
  rm -rf "$tmp"
}
