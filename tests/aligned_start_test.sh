#!/usr/bin/env bash
# The timed steps start together: with one rank held back 2 s before them
# (--inject-fault late-rank=N), no rank's reported step time, nor the timed
# window, holds the delay; the window is checked against the delay, not
# against a clock target (the run's 20 steps take milliseconds). A short
# run warns, naming the --steps that would time about a second. Progress
# starts its clock with the timed steps, and the report names the aid.
# usage: aligned_start_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "aligned_start: $*"; exit 1; }
for late in 0 2; do
  "$mpiexec" "$np_flag" 3 "$@" "$app" --grid 40,36,44 --procs 1,1,3 --steps 20 --warmup 2 --progress 0 \
    --inject-fault late-rank=$late --report "$work/late$late.json" >"$work/late$late.txt" 2>&1 ||
    { cat "$work/late$late.txt"; fail "the run with rank $late late failed"; }
  python3 - "$work/late$late.json" "$late" <<'PY' || { cat "$work/late$late.txt"; fail "rank $late's delay reached the timings"; }
import json, sys
doc = json.load(open(sys.argv[1]))
delay_s = 2.0
step = doc["phases_ms"]["step"]
window = doc["timed_window_s"]
slowest = step["max"] * doc["steps"] / 1000
if not (window < delay_s / 4 and slowest < delay_s / 4):
    sys.exit("timed window %.3f s, slowest rank's steps %.3f s: the 2 s delay is in them" % (window, slowest))
if doc["timed_steps"] != doc["steps"]:
    sys.exit("timed_steps %r, not the run's %r steps" % (doc["timed_steps"], doc["steps"]))
if abs(window - slowest) > 1e-9 * max(1, window):
    sys.exit("the window (%r) is not the slowest rank's steps (%r)" % (window, slowest))
if not 0 <= doc["step_rank_spread"] < 1:
    sys.exit("step_rank_spread %r is not a fraction" % doc["step_rank_spread"])
if doc["test_aids"] != "--inject-fault late-rank=%d" % int(sys.argv[2]):
    sys.exit("test_aids %r does not name the planted late rank" % doc["test_aids"])
if not doc["timing_warning"] or "--steps" not in doc["timing_warning"]:
    sys.exit("a 20-step run has no timing warning naming --steps: %r" % doc["timing_warning"])
PY
  grep -q "^stencil-miniapp: warning: the timed steps took .* run --steps [0-9]* or more" "$work/late$late.txt" ||
    fail "no short-window warning on stderr"
  grep -q "^  NOTE: faults planted (--inject-fault late-rank=$late): not a measurement" "$work/late$late.txt" ||
    fail "the report does not say a test aid was planted"
  elapsed=$(sed -n 's|^progress: step 20/20 .* elapsed \([0-9.]*\) s .*|\1|p' "$work/late$late.txt")
  python3 -c 'import sys; sys.exit(not float(sys.argv[1]) < 0.5)' "${elapsed:-9}" ||
    { cat "$work/late$late.txt"; fail "progress's clock holds the 2 s delay: elapsed ${elapsed:-none} s"; }
  grep -q "^  timed 20 steps in .* s (slowest rank; the ranks start them together); step across ranks" \
    "$work/late$late.txt" || fail "no 'timed ... steps' line in the report"
done
echo "aligned start: a rank 2 s late is in no step time"
