#!/usr/bin/env bash
# OpenMP teams sized per node: 4 HOST ranks on a machine with fewer cores,
# launched by hand without OMP_NUM_THREADS (and without the test
# environment's OMP_WAIT_POLICY), each form a team of cores / 4 threads (at
# least one), counted inside a parallel region; oversubscribed spinning teams
# made such runs 20-36x slower. With OMP_NUM_THREADS=1 the team is 1. The
# report says the threads per rank and why, on stdout and in the JSON, and one
# warning says when ranks x threads (more than one per rank,
# OMP_NUM_THREADS=2 here) exceed the cores; a value that is no count, or
# far more than the cores, is refused, and an empty one is as if unset.
# Nothing here is timed: the speed
# this protects is a benchmark's to show, not a test's.
# usage: omp_threads_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "omp_threads_test: $*"; exit 1; }
unset OMP_NUM_THREADS OMP_WAIT_POLICY
cores=$(nproc)
# shellcheck disable=SC2054 # the commas are inside the grid size
problem=(--grid 32,32,32 --steps 4 --warmup 1)
run() { # run NAME [VAR=VALUE...]: the output in $work/NAME.txt, the report in $work/NAME.json
  local name=$1
  shift
  env "$@" "$mpiexec" "$np_flag" 4 "${preflags[@]}" "$app" "${problem[@]}" --report "$work/$name.json" \
    >"$work/$name.txt" 2>&1 || { cat "$work/$name.txt"; fail "$name: the run failed"; }
}
preflags=("$@")
run one OMP_NUM_THREADS=1
run unset
grep -q "OpenMP threads per rank: 1 (OMP_NUM_THREADS=1)" "$work/one.txt" ||
  { cat "$work/one.txt"; fail "no threads line naming OMP_NUM_THREADS"; }
team=$(( cores / 4 > 0 ? cores / 4 : 1 ))
grep -q "OpenMP threads per rank: $team ($cores cores in the affinity mask / 4 ranks on the node sharing it)" \
  "$work/unset.txt" || { cat "$work/unset.txt"; fail "no threads line naming the affinity mask"; }
python3 - "$work" "$team" "$cores" <<'PY'
import json, sys
work, team, cores = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for name, threads, reason in (("one", 1, "OMP_NUM_THREADS=1"),
                              ("unset", team, "%d cores in the affinity mask / 4 ranks on the node sharing it" % cores)):
    doc = json.load(open("%s/%s.json" % (work, name)))
    got = (doc.get("omp_threads_per_rank"), doc.get("omp_threads_reason"))
    if got != (threads, reason):
        sys.exit("omp_threads_test: %s.json says %r, not %r" % (name, got, (threads, reason)))
PY
# One warning line, from rank 0, where 4 ranks x 2 threads exceed the cores.
if [ "$cores" -lt 8 ]; then
  # shellcheck disable=SC2054 # the commas are inside the grid size
  problem=(--grid 16,16,16 --steps 2)
  run two OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive
  [ "$(grep -c "^stencil-miniapp: warning: 4 ranks x 2 OpenMP threads on a node exceed the $cores core" \
      "$work/two.txt")" = 1 ] || { cat "$work/two.txt"; fail "not exactly one oversubscription warning"; }
fi
grep -q "warning: .*OpenMP" "$work/unset.txt" "$work/one.txt" && fail "a warning where the teams fit"
# An OMP_NUM_THREADS that is no count (libgomp warns and runs a team of
# every core per rank): refused in one line before step 1, every rank alike.
for bad in abc 0 2x; do
  rc=0
  env OMP_NUM_THREADS="$bad" "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" --grid 16,16,16 --steps 2 \
    >"$work/bad.txt" 2>&1 || rc=$?
  if ! { [ "$rc" != 0 ] && [ "$(grep -c "^stencil-miniapp: " "$work/bad.txt")" = 1 ] &&
    grep -q "^stencil-miniapp: OMP_NUM_THREADS=$bad is not a thread count" "$work/bad.txt" &&
    ! grep -q "progress: step" "$work/bad.txt"; }; then
    cat "$work/bad.txt"
    fail "OMP_NUM_THREADS=$bad not refused"
  fi
done
# A count far past the cores (99999 ended in SIGSEGV inside the runtime):
# refused in one line before step 1.
rc=0
env OMP_NUM_THREADS=99999 "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" --grid 16,16,16 --steps 2 \
  >"$work/huge.txt" 2>&1 || rc=$?
if ! { [ "$rc" != 0 ] && [ "$(grep -c "^stencil-miniapp: " "$work/huge.txt")" = 1 ] &&
  grep -q "^stencil-miniapp: OMP_NUM_THREADS=99999 asks for more than [0-9]* threads per rank" "$work/huge.txt"; }; then
  cat "$work/huge.txt"
  fail "OMP_NUM_THREADS=99999 not refused in one line"
fi
# Set but empty: the runtime warns and ignores it; the run goes on as if
# unset and says so.
env OMP_NUM_THREADS= "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" --grid 16,16,16 --steps 2 \
  >"$work/empty.txt" 2>&1 || { cat "$work/empty.txt"; fail "OMP_NUM_THREADS= failed"; }
grep -q "^  OpenMP threads per rank: [0-9]* (OMP_NUM_THREADS empty, so as if unset: " "$work/empty.txt" ||
  { cat "$work/empty.txt"; fail "OMP_NUM_THREADS= not reported as unset"; }
echo "threads per rank and their reason reported; one warning for 4 x 2 threads on $cores cores"
