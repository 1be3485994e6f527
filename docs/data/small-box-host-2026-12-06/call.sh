#!/usr/bin/env bash
# One GPU, 2026-12-06 (sixth session): where the host's time goes in a
# small box's time loop, and whether longer chunks feed the GPU. main
# beside the tree with host-probe.patch (timers around the loop's parts,
# printed with STENCIL_HOST_PROBE=1; the clock's ring of 32 steps, chunks
# of 8 and 16 allowed, the stop agreed every 16 steps; chunks of 8 and
# 16 run with the NaN check every 64 steps, so that its steps align with
# them). main is this checkout less sponge-table.patch (the sponge's
# factors from a table, issue 69), which the patched tree keeps. Call 1:
#   GUARD=480 bash docs/data/small-box-host-2026-12-06/call.sh build checks sponge probe
# Call 2, the session's tree (chunks of up to 16, the sponge's table and
# the walk's distances) against main (the checkout less session.patch):
#   GUARD=330 bash docs/data/small-box-host-2026-12-06/call.sh build2 checks2 runs2
# Call 3, the NaN check read one check later (nan-later.patch) against the
# landed tree before it (46796a0, "main" in its table):
#   NO_MAIN=1 JOBS=16 GUARD=170 bash docs/data/small-box-host-2026-12-06/call.sh build3 checks3 runs3
# (call 3 did not run: no device time was left)
# (NO_MAIN: the checkout alone, its default against --nan-check 0, for want
# of device time to build main beside it)
# (the patches are in files.tar.xz: unpack it here first)
# A part starts only before $GUARD seconds (default 480). Everything under
# $OUT, a short table last.
set -uo pipefail
source tools/gpu/common.sh
gpu_env
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
t0=$SECONDS
el() { echo "$((SECONDS - t0)) s"; }
parts=" ${*:-build3 checks3 runs3} "
want() { [[ $parts == *" $1 "* ]] && [ $((SECONDS - t0)) -lt "${GUARD:-480}" ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv,noheader | tee "$OUT/gpu.txt"
use_mpi ob1
here=docs/data/small-box-host-2026-12-06
main=build-main/miniapp/stencil-miniapp exp=build-exp/miniapp/stencil-miniapp

if want build; then
  if [ ! -x $main ]; then
    patched_tree /tmp/tree-main "$here/sponge-table.patch" -R &&
      jobs=8 build_tree --mpi "$(mpi_root ob1)" /tmp/tree-main build-main "$OUT/main" stencil-miniapp \
        -G Ninja -DSTENCIL_BUILD_BENCH=OFF &
  fi
  # This checkout's files (the device's git index may be older) with the
  # experiment's patch.
  if [ ! -x $exp ]; then
    patched_tree /tmp/tree-exp "$here/${EXP_PATCH:-host-probe.patch}" &&
      jobs=8 build_tree --mpi "$(mpi_root ob1)" /tmp/tree-exp build-exp "$OUT/exp" \
        "stencil-miniapp stencil_kernel_tests" -G Ninja -DSTENCIL_BUILD_BENCH=OFF -DSTENCIL_BUILD_TESTS=ON &
  fi
  wait
  echo "built: $(el)"
fi

# Call 2: main and the session's tree.
if want build2; then
  patched_tree /tmp/tree-main "$here/session.patch" -R &&
    jobs=6 build_tree --mpi "$(mpi_root ob1)" /tmp/tree-main build-main "$OUT/main" stencil-miniapp \
      -G Ninja -DSTENCIL_BUILD_BENCH=OFF &
  jobs=10 build_tree --mpi "$(mpi_root ob1)" . build-exp "$OUT/new" "stencil-miniapp stencil_kernel_tests" \
    -G Ninja -DSTENCIL_BUILD_BENCH=OFF -DSTENCIL_BUILD_TESTS=ON &
  wait
  echo "built: $(el)"
fi

# Call 3: the landed tree (the checkout less nan-later.patch) and the checkout.
if want build3; then
  [ -n "${NO_MAIN:-}" ] || { patched_tree /tmp/tree-main "$here/nan-later.patch" -R &&
    jobs=7 build_tree --mpi "$(mpi_root ob1)" /tmp/tree-main build-main "$OUT/main" stencil-miniapp \
      -G Ninja -DSTENCIL_BUILD_BENCH=OFF & }
  jobs=${JOBS:-9} build_tree --mpi "$(mpi_root ob1)" . build-exp "$OUT/new" stencil-miniapp -G Ninja -DSTENCIL_BUILD_BENCH=OFF &
  wait
  echo "built: $(el)"
fi

steps_for() { case $1 in 64) echo 300000 ;; 96) echo 160000 ;; 128) echo 100000 ;; 512) echo 2200 ;; esac; }
R=$OUT/runs
mkdir -p "$R"
one() { # one VARIANT N ROUND [ARGS...]; a variant named main* runs main, the others the patched tree
  local v=$1 n=$2 round=$3 exe=$exp
  shift 3
  [[ $v == main* ]] && exe=$main
  STENCIL_HOST_PROBE=1 mpi -np 1 $exe --local "$n,$n,$n" --steps "$(steps_for "$n")" --radius 4 --warmup 32 \
    --quiet --comm none "$@" --label "$v" --report "$R/$v-$n-r$round.json" >"$R/$v-$n-r$round.txt" 2>&1 ||
    echo "FAILED $v $n r$round"
}
mpi() { timeout 200 "$mpihome/bin/mpirun" --mca pml ob1 --oversubscribe -x LD_LIBRARY_PATH -x STENCIL_HOST_PROBE "$@"; }
# The update's forms, bit for bit (tests/update_forms_test.sh), on the patched tree.
forms_bitwise() {
  if bash tests/update_forms_test.sh "$mpihome/bin/mpirun" -np --mca pml ob1 --oversubscribe -x LD_LIBRARY_PATH -- \
    $exp >"$OUT/update_forms.log" 2>&1; then
    echo "update_forms: $(grep -c 'same bits' "$OUT/update_forms.log") cases, same bits"
  else
    echo "update_forms: DIFFER"; grep -E "DIFFER|rror" "$OUT/update_forms.log" | head -3
  fi
}
chk() {
  local np=$1; shift
  printf 'np=%s %s :: ' "$np" "$*"
  mpi -np "$np" $exp --quiet --check --checksum --steps 40 "$@" 2>&1 | tee -a "$OUT/checks.log" |
    grep -iE "check|refus|error|differ" | tr '\n' ' ' | cut -c1-160
  echo
}
# The sponge's table on the GPU: the kernels' tests of the sponge and of
# the launch shapes (the table's factors against computed ones, bit for
# bit), and --check with a sponge across ranks and routes.
# sponge_checks COMM: those, the third run's halo path COMM (call 1's peer
# was refused with deep halos; call 2 ran staged).
sponge_checks() {
  build-exp/tests/stencil_kernel_tests --gtest_filter='*Sponge*:*LaunchShapeChangesNoBit*:*Slab*' \
    >"$OUT/kernel-tests.log" 2>&1
  tail -1 "$OUT/kernel-tests.log"
  chk 2 --grid 70,55,48 --procs 2,1,1 --comm peer --radius 4 --sponge 6
  chk 4 --grid 90,77,52 --procs 1,2,2 --comm gpu-aware --radius 8 --precision fp64 --sponge 9
  chk 4 --grid 80,70,60 --procs 2,2,1 --comm "$1" --radius 3 --sponge 12 --halo-depth 2
}
if want checks; then
  sponge_checks peer
  echo "checks: $(el)"
fi

if want checks2; then
  sponge_checks staged
  forms_bitwise
  echo "checks2: $(el)"
fi

# Call 3: a planted NaN still stops the run, naming its step; the forms'
# bits; the rows.
if want checks3; then
  for exe in $exp; do
    mpi -np 2 "$exe" --grid 40,36,44 --steps 200 --inject-fault nan --quiet 2>&1 | grep -iE "nan|inf|step" | head -2
  done
  forms_bitwise
  echo "checks3: $(el)"
fi
if want runs3; then
  for round in 1 2; do
    want runs3 || break
    for n in 64 96 128 512; do
      [ -n "${NO_MAIN:-}" ] || one main "$n" "$round"
      one new "$n" "$round"
      [ "$n" = 512 ] || one new-nan0 "$n" "$round" --nan-check 0
    done
  done
  echo "runs3: $(el)"
fi

# Call 2's rows: main against the session's tree, two rounds.
if want runs2; then
  for round in 1 2; do
    want runs2 || break
    for n in 64 96 128 512; do
      one main "$n" "$round"
      one new "$n" "$round"
    done
    for n in 128 512; do
      one main-sponge16 "$n" "$round" --sponge 16
      one new-sponge16 "$n" "$round" --sponge 16
    done
    one main-sponge8 128 "$round" --sponge 8
    one new-sponge8 128 "$round" --sponge 8
    one main-ahead2 512 "$round" --planes-ahead 2
    one new-ahead2 512 "$round" --planes-ahead 2
    for n in 64 96 128; do one new-nan0 "$n" "$round" --nan-check 0; done
  done
  echo "runs2: $(el)"
fi

# The sponge's cost, main against the table (issue 69).
if want sponge; then
  for round in 1 2; do
    want sponge || break
    for v in main exp; do
      one "$v-none" 512 "$round"
      one "$v-sponge16" 512 "$round" --sponge 16
      one "$v-none" 128 "$round"
      one "$v-sponge16" 128 "$round" --sponge 16
      one "$v-sponge8" 128 "$round" --sponge 8
    done
  done
  echo "sponge: $(el)"
fi

if want probe; then
  for round in 1 2; do
    want probe || break
    for n in 64 128; do
      one main "$n" "$round"
      one spg4 "$n" "$round" --steps-per-graph 4
      one spg8 "$n" "$round" --steps-per-graph 8 --nan-check 64
      one spg16 "$n" "$round" --steps-per-graph 16 --nan-check 64
      one spg16-nan0 "$n" "$round" --steps-per-graph 16 --nan-check 0
    done
    for n in 96 512; do
      one main "$n" "$round"
      one spg16 "$n" "$round" --steps-per-graph 16 --nan-check 64
    done
  done
  echo "probe: $(el)"
  for f in "$R"/*-r1.txt; do
    echo "-- $(basename "$f" .txt)"; grep '^probe' "$f"
  done >"$OUT/probe.txt"
  grep -A8 -E "^-- (spg4|spg16)-(64|128)-r1" "$OUT/probe.txt"
fi

if [ -n "$(ls "$R" 2>/dev/null)" ]; then
  python3 docs/data/small-boxes-h100-2026-12-06/table.py "$R" | tee "$OUT/table.txt"
  tar czf "$OUT/runs-$(date +%H%M%S).tgz" -C "$OUT" runs && rm -rf "$R"
fi
echo "total: $(el)"
