# shellcheck shell=bash disable=SC2154 # prefix: tools/offline-deps.sh's
# One GPU: build the CUDA back-end with its resource table, run the GPU
# test suite, run the benchmark, and print a short table last. Logs and
# JSON go to the results folder $OUT (default .out).
#
# usage: tools/gpu.sh check [--bench-args "..."] [--extra-bench "..."] [--tests REGEX]
#                           [--skip-tests] [--skip-bench]
#   --bench-args:  stencil-bench's arguments (default --sizes=256,512 --radii=1,2,4,8)
#   --tests:       only the tests whose names match REGEX (ctest -R)
#   --extra-bench: a second benchmark run (for example a --rows sweep), to
#                  $OUT/extra.json and its table to $OUT/extra-table.txt
#   --skip-tests, --skip-bench: leave that step out
# env: OUT, STENCIL_CUDA_ARCHS (default 90), STENCIL_BUILD_MINIAPP (default ON)

check_settings() { echo bench_args extra_args test_regex run_tests run_bench; } # what --dry-run prints
check_options() {
  bench_args="--sizes=256,512 --radii=1,2,4,8" extra_args="" run_tests=1 run_bench=1 test_regex=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --bench-args) value "$1" $#; bench_args=$2; shift ;;
      --extra-bench) value "$1" $#; extra_args=$2; shift ;;
      --tests) value "$1" $#; test_regex=$2; shift ;;
      --skip-tests) run_tests=0 ;;
      --skip-bench) run_bench=0 ;;
      *) other_option "$1" ;;
    esac
    shift
  done
}

check_main() {
  OUT=${OUT:-$PWD/.out}
  mkdir -p "$OUT"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,power.limit,pci.bus_id \
    --format=csv | tee "$OUT/gpu.txt"
  build="build-cuda"
  build_tree . "$build" "$OUT/$build" "" -DSTENCIL_BUILD_TESTS=ON -DSTENCIL_RESOURCE_REPORT=ON \
    -DSTENCIL_BUILD_MINIAPP="${STENCIL_BUILD_MINIAPP:-ON}" || exit 1
  grep -A14 "configuration" "$OUT/$build-configure.log" || true
  python3 tools/resource-report.py cuda "$OUT/$build-build.log" >"$OUT/resources.txt" ||
    { cat "$OUT/resources.txt"; exit 1; }
  tail -1 "$OUT/resources.txt"
  status=0
  if [ "$run_tests" = 1 ]; then
    (cd "$build" && ctest --output-on-failure -j4 --timeout 1500 ${test_regex:+-R "$test_regex"}) \
      >"$OUT/ctest.log" 2>&1 || status=1
    grep -E "tests passed|tests failed|Failed|\*\*\*" "$OUT/ctest.log" | tail -25
  fi
  [ "$run_bench" = 0 ] || check_bench
  if [ -n "$extra_args" ]; then
    # shellcheck disable=SC2086 # extra_args is a list of flags
    "$build"/bench/stencil-bench $extra_args --benchmark_min_time=0.2 --benchmark_out="$OUT/extra.json" \
      --benchmark_out_format=json >"$OUT/extra.txt" 2>&1 || { tail -20 "$OUT/extra.txt"; status=1; }
    python3 tools/report-table.py bench "$OUT/extra.json" >"$OUT/extra-table.txt"
  fi
  exit $status
}

# check_bench: the benchmark, with the power and SM clock sampled while it
# runs: an H200 at R >= 4 reaches its power limit and lowers its clock,
# which moves results between machines.
check_bench() {
  local samples sampler
  samples=$(mktemp)
  nvidia-smi --query-gpu=power.draw,clocks.sm,clocks_event_reasons.sw_power_cap \
    --format=csv,noheader,nounits -lms 500 >"$samples" 2>/dev/null &
  sampler=$!
  # shellcheck disable=SC2086 # bench_args is a list of flags
  "$build"/bench/stencil-bench $bench_args --benchmark_min_time=0.2 \
    --benchmark_out="$OUT/bench.json" --benchmark_out_format=json >"$OUT/bench.txt" 2>&1 ||
    { tail -20 "$OUT/bench.txt"; status=1; }
  kill "$sampler" 2>/dev/null || true
  {
    python3 tools/report-table.py bench "$OUT/bench.json"
    # Samples between kernels idle at low clocks: the clock range is that of
    # the samples taken at the power cap.
    awk -F', *' '{n++; if ($1 > w) w = $1}
      $3 == "Active" {a++; if (!c || $2 < c) c = $2; if ($2 > d) d = $2}
      END {if (n) printf "power during the benchmark: max %.0f W; at the power cap in %d of %d samples%s\n", w, a, n,
             a ? sprintf(", SM clock there %d-%d MHz", c, d) : ""}' "$samples"
  } | tee "$OUT/bench-table.txt"
  rm -f "$samples"
}
