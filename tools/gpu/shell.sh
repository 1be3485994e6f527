# shellcheck shell=bash disable=SC2154 # revision_args: tools/offline-deps.sh's
# The boundary slabs on one GPU, before and after a change, in one call:
# builds this tree and REV (the mini-app and stencil-bench, CUDA, with the
# resource table of this tree), checks this tree bit for bit against one
# domain with 2 ranks sharing the GPU (R = 1, 4, 8, both precisions, and a
# planted skipped slab cell that must fail), then, interleaved round by
# round: the shell benchmark of both trees, of this tree at each slab
# window and each x slab depth (--slab-x), and one GPU's step at 512^3
# with --comm none and --periodic x,y,z --overlap on (this tree also with
# --slab-x R). Tables last. Everything is packed into $OUT/shell.tgz (OUT
# default .out) after each part, so a run cut short still leaves what it
# measured.
#
# usage: tools/gpu.sh shell [--against REV] [--repeat N] [--sizes "256,512"] [--windows "4 8 16"]
#                           [--slab-x "32"] [--steps N]

shell_settings() { echo against repeat sizes windows slab_x steps; } # what --dry-run prints
shell_options() {
  against="" repeat=2 sizes="256,512" windows="" slab_x="32" steps=2000
  while [ $# -gt 0 ]; do
    case "$1" in
      --against) value "$1" $#; against=$2; shift ;;
      --repeat) value "$1" $#; repeat=$2; shift ;;
      --sizes) value "$1" $#; sizes=$2; shift ;;
      --windows) value "$1" $#; windows=$2; shift ;;
      --slab-x) value "$1" $#; slab_x=$2; shift ;;
      --steps) value "$1" $#; steps=$2; shift ;;
      *) other_option "$1" ;;
    esac
    shift
  done
}

shell_main() {
  OUT=${OUT:-$PWD/.out}
  mkdir -p "$OUT"
  work=$(mktemp -d)
  log=$work/shell
  mkdir -p "$log"
  {
    date -u +%Y-%m-%dT%H:%M:%SZ
    revision_line "$against"
    echo "command: tools/gpu.sh shell ${against:+--against $against} --repeat $repeat --sizes $sizes" \
      "--windows \"$windows\" --steps $steps"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit --format=csv,noheader
  } | tee "$log/environment.txt"
  trees=(now)
  build_tree . build-shell "$log/build-shell" "stencil-miniapp stencil-bench" -DSTENCIL_BUILD_BENCH=ON \
    -DSTENCIL_RESOURCE_REPORT=ON || exit 1
  python3 tools/resource-report.py cuda "$log/build-shell-build.log" >"$log/resources.txt" || true
  if [ -n "$against" ]; then
    unpack_revision "$against" /tmp/shell-before || exit 1
    build_tree /tmp/shell-before build-shell-before "$log/build-shell-before" "stencil-miniapp stencil-bench" \
      -DSTENCIL_BUILD_BENCH=ON "${revision_args[@]}" || exit 1
    trees=(before now)
  fi
  shell_checks
  pack
  local round tree f
  for round in $(seq 1 "$repeat"); do shell_round "$round"; done
  for tree in "${trees[@]}"; do
    "$(app "$tree")" --local 512,512,512 --radius 4 --steps 200 --periodic x,y,z --overlap on --pack fused \
      --timeline "$log/timeline-$tree.json" --quiet >"$log/timeline-$tree.txt" 2>&1 || true
  done
  pack
  grep -E "slab_table_kernel|wave_table_kernel" "$log/resources.txt" | head -20 || true
  for f in "$log"/bench-*-r"$repeat".json; do
    echo "== $(basename "$f" .json)"
    python3 tools/report-table.py bench "$f" | grep -E "shell|copy" || true
  done
  python3 tools/report-table.py miniapp "$log"/run-*.json || true
}

pack() { (cd "$work" && tar czf "$OUT/shell.tgz" shell); }
app() { [ "$1" = before ] && echo build-shell-before/miniapp/stencil-miniapp || echo build-shell/miniapp/stencil-miniapp; }
bench() { [ "$1" = before ] && echo build-shell-before/bench/stencil-bench || echo build-shell/bench/stencil-bench; }

# shell_checks: bit for bit against one domain, this tree: 2 ranks on the
# one GPU, the x slabs R cells wide and wider (--slab-x, all three
# kernels' paths), and the planted skipped slab cell.
shell_checks() {
  local checks=0 failed=0 precision radius case procs x
  for precision in fp32 fp64; do
    for radius in 1 4 8; do
      for case in "2,1,1 auto" "1,2,1 auto" "2,1,1 32" "1,2,1 13"; do
        read -r procs x <<<"$case"
        checks=$((checks + 1))
        mpirun --oversubscribe -np 2 "$(app now)" --grid 136,120,104 --procs "$procs" --periodic x,y,z \
          --radius "$radius" --precision "$precision" --slab-x "$x" --overlap on --steps 40 --check \
          --quiet >>"$log/checks.txt" 2>&1 ||
          { failed=$((failed + 1)); echo "FAILED: R=$radius $precision --procs $procs --slab-x $x" |
            tee -a "$log/checks.txt"; }
      done
    done
  done
  if mpirun --oversubscribe -np 2 "$(app now)" --grid 136,120,104 --procs 2,1,1 --periodic x,y,z --steps 40 \
    --overlap on --inject-fault skip-slab-cell --check --quiet >>"$log/checks.txt" 2>&1; then
    failed=$((failed + 1)); echo "FAILED: the planted skipped slab cell passed --check" | tee -a "$log/checks.txt"
  fi
  echo "checks: $checks runs and one planted fault, $failed failed"
}

# shell_round N: the shell benchmark of each tree, each window and slab
# depth, then the one-GPU runs.
shell_round() {
  local round=$1 tree w x variant args
  for tree in "${trees[@]}"; do
    "$(bench "$tree")" --variants=shell --sizes="$sizes" --radii=4 --precision=fp32 \
      --benchmark_out="$log/bench-$tree-r$round.json" --benchmark_out_format=json \
      >"$log/bench-$tree-r$round.txt" 2>&1 || echo "gpu.sh shell: FAILED bench $tree round $round"
  done
  for w in $windows; do
    "$(bench now)" --variants=shell --sizes="$sizes" --radii=4 --precision=fp32 --window="$w" \
      --benchmark_filter='shell_[xyzs]' --benchmark_out="$log/bench-window$w-r$round.json" \
      --benchmark_out_format=json >"$log/bench-window$w-r$round.txt" 2>&1 ||
      echo "gpu.sh shell: FAILED bench window $w round $round"
  done
  for x in $slab_x; do
    "$(bench now)" --variants=shell --sizes="$sizes" --radii=4 --precision=fp32 --slab-x="$x" \
      --benchmark_filter='shell_[ixs]' --benchmark_out="$log/bench-slabx$x-r$round.json" \
      --benchmark_out_format=json >"$log/bench-slabx$x-r$round.txt" 2>&1 ||
      echo "gpu.sh shell: FAILED bench slab-x $x round $round"
  done
  pack
  for variant in before-none before-periodic now-none now-periodic now-periodic-xR; do
    tree=${variant%%-*}
    [ "$tree" = before ] && [ -z "$against" ] && continue
    args=(--comm none)
    case $variant in
      *-periodic) args=(--periodic "x,y,z" --overlap on) ;;
      *-periodic-xR) args=(--periodic "x,y,z" --overlap on --slab-x 4) ;;
    esac
    "$(app "$tree")" --local 512,512,512 --radius 4 --steps "$steps" --warmup 50 "${args[@]}" --quiet \
      --label "$variant" --report "$log/run-$variant-r$round.json" \
      >"$log/run-$variant-r$round.txt" 2>&1 || echo "gpu.sh shell: FAILED run $variant"
  done
  pack
}
