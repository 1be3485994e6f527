#!/usr/bin/env bash
# project.py takes only what it can stand on, and says every default it
# takes (issue 68; each case failed before its fix):
#  1. a machine file whose kernel_time_scales lacks the calibration's GPU,
#     and that has no kernel_time_scale, is refused naming the GPU and the
#     keys; a key in lower case matches; a file with no scale says 1;
#  2. collect.py keeps apart 2-rank runs of 2 OpenMP threads or a sponge
#     from a 1-rank run, and leaves out one with a planted late rank;
#  3. a calibration whose runs warn of their timing is refused, or taken
#     with --accept-timing-warnings and said; STEPS=auto times a run long
#     enough to have no warning; validate leaves out, and names, runs with
#     test aids, a failed --check, a short window or a slow node;
#  4. a calibration is one kernel on one device: host/, scaling/, shell/
#     and the benches of another device, back-end, R or precision (read
#     from the files, not their names) are refused;
#  5. strong efficiency is against one node's step, whatever the first
#     row, and the base is said under the table;
#  8. a COMM=staged calibration projects, fitting its staged rows, and
#     --comm chooses among a bench's modes;
#  9. --halo-depth best tries the validated depths only, and says so; a K
#     past them is said;
# 10. --plot rings the points of boxes outside the calibration's sweep;
#     collect.py's plots ring short windows, and phases.png gives a run
#     of a rank count already drawn its own bar;
# 11. strong scaling takes the boxes the mini-app takes (k*R cells).
# usage: study_trust_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
preflags=("$@")
repo=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work" && mkdir -p "$work"
fail() { echo "study_trust: $*"; exit 1; }
# shellcheck source=tests/tool_expect.sh
source "$repo/tests/tool_expect.sh"
py=python3
python3 -c "import jsonschema, matplotlib" 2>/dev/null || py=/usr/bin/python3
"$py" -c "import jsonschema" || fail "no Python with jsonschema (tools/install-deps.sh installs it)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
project() { "$py" "$repo/jobscripts/project.py" "$@"; }
host=$repo/jobscripts/machines/ci-host.json frontier=$repo/jobscripts/machines/frontier.json
# edit NAME FILE PYTHON-STATEMENT: the JSON FILE, as m, edited into $work/NAME.json
edit() {
  "$py" -c "import json, sys; m = json.load(open(sys.argv[1])); $3; json.dump(m, open(sys.argv[2], 'w'))" \
    "$2" "$work/$1.json"
}

echo "== a calibration of one node (jobscripts/local/calibrate.sh, small)"
calibrate() { # calibrate FOLDER VAR=VALUE...
  local into=$1
  shift
  env RESULTS="$into" APP="$app" MPIRUN="$mpiexec ${preflags[*]}" SWEEP="16 24 32" RADIUS=2 STEPS=4 \
    HALO_DEPTH=1 WEAK_LOCAL=24,24,24 STRONG_GRID=32,32,32 "$@" bash "$repo/jobscripts/local/calibrate.sh" \
    >"$work/calibrate.txt" 2>&1 || { cat "$work/calibrate.txt"; fail "calibrate.sh failed"; }
}
calibrate "$work/cal"
cal=$work/cal
# weak MACHINE-ARGS...: a projection from the calibration, whose few steps a
# run warn of their timing (taken, and said).
weak() { project "$cal" --radius 2 --accept-timing-warnings "$@" weak --local 24,24,24 --nodes 1; }

echo "== 1. a kernel time scale the machine file does not give is refused, or said"
edit no-scale "$frontier" 'del m["kernel_time_scale"], m["kernel_time_scale_from"]'
expect 2 "kernel_time_scales without the calibration's GPU" weak --machine "$work/no-scale.json"
# The HOST back-end names the CPU as its device.
device=$("$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))["devices"][0])' "$cal/sweep/sweep-16.json")
said "no scale" "no kernel time scale for the calibration's $device (HOST)" "$work/err.txt"
said "no scale" "kernel_time_scales has H100, H200" "$work/err.txt"
edit lower "$work/no-scale.json" "m['kernel_time_scales'] = {'h100': 2.1, '${device,,}': 2.5}"
expect 0 "a GPU named in lower case" weak --machine "$work/lower.json"
said "lower case" "kernel times scaled by 2.5" "$work/out.txt"
expect 0 "a machine file with no scale" weak --machine "$host"
said "no scale at all" "kernel time scale 1: the machine file names none" "$work/out.txt"

echo "== 2. runs of other work, or with test aids, are no series"
mkdir -p "$work/mixed"
mixed_run() { # mixed_run NAME RANKS THREADS MINI-APP-OPTIONS...
  env OMP_NUM_THREADS="$3" "$mpiexec" "$np_flag" "$2" "${preflags[@]}" "$app" --local 16,16,16 --radius 2 \
    --steps 4 --warmup 1 --halo-depth 1 --label weak --quiet --report "$work/mixed/$1.json" "${@:4}" >/dev/null 2>&1 ||
    fail "the run $1 failed"
}
mixed_run one 1 1
mixed_run threads 2 2
mixed_run late 2 1 --inject-fault late-rank=1
mixed_run sponge 2 1 --sponge 8
expect 0 "collect.py on four runs of one label and box" "$py" "$repo/jobscripts/collect.py" "$work/mixed" \
  --out "$work/mixed-out"
said "test aids" "late.json ran with test aids (--inject-fault late-rank=1): left out" "$work/err.txt"
[ "$(grep -c '^### ' "$work/mixed-out/scaling.md")" -eq 3 ] || { cat "$work/mixed-out/scaling.md"; fail "not 3 series"; }
said "threads" "OpenMP threads 2" "$work/mixed-out/scaling.md"
said "sponge" "sponge 8" "$work/mixed-out/scaling.md"

echo "== 3. runs that warn of their timing: refused, or taken and said"
expect 2 "a calibration of short runs" project "$cal" --machine "$host" --radius 2 weak --local 24,24,24
said "short runs" "warn of their timing (" "$work/err.txt"
said "short runs" "under 0.5 s of timed steps" "$work/err.txt"
said "short runs" "--accept-timing-warnings" "$work/err.txt"
expect 0 "a calibration of short runs, taken" weak --machine "$host"
said "short runs taken" "11 of the calibration's 11 runs warn of their timing" "$work/out.txt"
expect 2 "calibrate.sh STEPS=abc" env STEPS=abc RESULTS="$work/never" bash "$repo/jobscripts/local/calibrate.sh"
env APP="$app" MPIRUN="$mpiexec ${preflags[*]}" RESULTS="$work/auto" RANKS_LIST=1 STUDIES=weak WEAK_LOCAL=16,16,16 \
  RADIUS=2 STEPS=auto HALO_DEPTH=1 COLLECT=off bash "$repo/jobscripts/local/scaling.sh" >/dev/null
"$py" - "$work"/auto/weak-*.json <<'PY' || fail "STEPS=auto left a run that warns of its timing"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["timing_warning"] is None and r["timed_window_s"] >= 0.5, (r["steps"], r["timed_window_s"])
PY
echo "ok  STEPS=auto: a window of no warning"
# validate: each kind of run it may not take, beside one it may, against
# a copy of the calibration whose warnings are cleared (on a busy machine a
# run may also warn of a slow node: cleared too).
fix() { "$py" -c "import json, sys; r = json.load(open(sys.argv[1])); $2; json.dump(r, open(sys.argv[1], 'w'))" "$1"; }
trust='r["timing_warning"] = None; r["speed_check"] = None'
cp -r "$cal" "$work/cal-ok"
for report in "$work"/cal-ok/*/*.json; do fix "$report" "$trust"; done
mkdir -p "$work/val"
for case in trusted short slow failed; do
  cp "$cal"/scaling/weak-local24x24x24-*-overlap-on-n2.json "$work/val/$case.json"
  fix "$work/val/$case.json" 'r["speed_check"] = None'
  [ "$case" = short ] || fix "$work/val/$case.json" "$trust"
done
fix "$work/val/slow.json" 'r["speed_check"] = {"trial_ms": 1.0, "slow_warning": "slow"}'
fix "$work/val/failed.json" 'r["check"] = {"bitwise_equal": False, "cells": 9, "cells_differing": 1}'
"$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" --local 24,24,24 --radius 2 --steps 4 --warmup 1 --halo-depth 1 --quiet \
  --inject-fault drop-face --check --report "$work/val/dropped.json" >/dev/null 2>&1 || true
[ -f "$work/val/dropped.json" ] || fail "the run with drop-face wrote no report"
fix "$work/val/dropped.json" "$trust"
# counted VALIDATE-ARGS...: the reports validate compared, in order. Past
# its tolerance or not (exit 1 or 0: a busy machine's runs are far off the
# model), what it compared is the question.
counted() {
  local status=0
  project "$work/cal-ok" --machine "$host" validate "$work/val" "$@" >"$work/out.txt" 2>&1 || status=$?
  [ "$status" -le 1 ] || { cat "$work/out.txt" >&2; echo "validate $*: exit $status"; return; }
  awk -F' [|] ' '/[|] validation [|]$/ {sub(/^[|] /, ""); printf "%s ", $1}' "$work/out.txt"
}
[ "$(counted)" = "trusted.json " ] || { cat "$work/out.txt"; fail "validate took a run it may not trust"; }
said "aids left out" "Left out, ran with test aids (--inject-fault drop-face): dropped.json (1 run)." "$work/out.txt"
said "failed check left out" "Left out, failed its --check: failed.json (1 run)." "$work/out.txt"
said "short left out" "Left out, a timing warning (under 0.5 s of timed steps;" "$work/out.txt"
[ "$(counted --accept-timing-warnings)" = "short.json slow.json trusted.json " ] ||
  { cat "$work/out.txt"; fail "validate --accept-timing-warnings"; }
said "warnings taken" "runs that warn of their timing, taken" "$work/out.txt"
echo "ok  validate: the trusted run alone, or with the warned ones when told"

echo "== 4. every part of a calibration: one kernel on one device, from the files"
# mixed NAME [FILES PYTHON]: a copy of cal-ok, the reports FILES (a glob in it) edited by PYTHON.
mixed() {
  rm -rf "$work/mixed-$1" && cp -r "$work/cal-ok" "$work/mixed-$1"
  [ $# -eq 1 ] || for report in "$work/mixed-$1"/$2; do fix "$report" "$3"; done
}
from() { project "$work/mixed-$1" --machine "$host" --radius 2 weak --local 24,24,24 --nodes 1; }
mixed host-cuda 'host/*.json' 'r["backend"] = "CUDA"; r["devices"] = ["NVIDIA H100 80GB HBM3"]'
expect 2 "host/ from another device and back-end" from host-cuda
said "host/ of CUDA" "host/host-along-x-16-off.json: device CUDA NVIDIA H100 80GB HBM3, but" "$work/err.txt"
mixed host-r4 'host/*.json' 'r["radius"] = 4; r["precision"] = "fp64"'
expect 2 "host/ at R = 4 in FP64" from host-r4
said "host/ at R = 4" "host/host-along-x-16-off.json: R 4, but sweep/sweep-16.json has 2" "$work/err.txt"
mixed strided-fp64 'scaling/*along-x*-n2.json' 'r["precision"] = "fp64"'
expect 2 "scaling/ in FP64" from strided-fp64
said "scaling/ in FP64" "precision fp64, but sweep/sweep-16.json has fp32" "$work/err.txt"
mixed bench-device
sed -i "1s/, $device, R=/, NVIDIA H200, R=/" "$work/mixed-bench-device/halo-bench-calibration.txt"
expect 2 "a halo bench of another device" from bench-device
said "bench device" "halo-bench-calibration.txt: device HOST NVIDIA H200, but" "$work/err.txt"
# A shell bench as stencil-bench writes it, of R = 2 and, renamed, of R = 8.
shell_bench() { # shell_bench R FILE
  "$py" - "$1" "$device" "$2" <<'PY'
import json, sys
radius, device, path = sys.argv[1:]
marks = [{"name": f"{kernel}/R{radius}/fp32/{n}x{n}x{n}/manual_time", "run_type": "iteration",
          "real_time": ms * n ** 3 / 4096, "time_unit": "ms"}
         for n in (16, 24, 32) for kernel, ms in (("wave", 0.1), ("shell_inner", 0.09), ("shell_slabs", 0.04))]
json.dump({"context": {"backend": "HOST", "device": device, "precision": "fp32"}, "benchmarks": marks},
          open(path, "w"))
PY
}
mixed shell-r2 && shell_bench 2 "$work/mixed-shell-r2/shell-bench.json"
expect 0 "a shell bench of the sweep's R" from shell-r2
said "shell bench" "the shell from the shell bench" "$work/out.txt"
mixed shell-r8 && shell_bench 8 "$work/mixed-shell-r8/shell-bench.json"
expect 2 "a shell bench of R = 8" from shell-r8
said "shell bench R = 8" "shell-bench.json: R 8, but sweep/sweep-16.json has 2" "$work/err.txt"

echo "== 8. a calibration of the staged exchange"
calibrate "$work/cal-staged" COMM=staged SWEEP="16 24"
said "calibrate.sh" "--comm staged weak" "$work/calibrate.txt"
staged() { project "$work/cal-staged" --accept-timing-warnings --machine "$host" --radius 2 "$@" \
  weak --local 24,24,24 --nodes 1; }
expect 0 "a staged calibration" staged
said "staged" "exchange (staged, the halo bench's)" "$work/out.txt"
expect 0 "a staged calibration, --comm staged" staged --comm staged
expect 2 "a staged calibration, --comm gpu-aware" staged --comm gpu-aware
said "gpu-aware asked" "no 'gpu-aware' rows in" "$work/err.txt"
said "gpu-aware asked" "(it has staged): choose one with --comm" "$work/err.txt"
expect 2 "a gpu-aware calibration, --comm staged" project "$cal" --accept-timing-warnings --machine "$host" \
  --comm staged weak
said "staged asked" "no 'staged' rows in" "$work/err.txt"

echo "== 5. strong efficiency against one node, said"
h100=$repo/docs/data/nccl-speeds-2026-11-28/calibration-h100x4.tar.xz
kept() { project "$h100" --accept-timing-warnings --machine "$frontier" "$@"; }
expect 0 "strong scaling from 64 nodes" kept strong --grid 1024,1024,512 --nodes 64
said "from 64 nodes" "| 64 | 512 | 8x8x8 | 128x128x64 |" "$work/out.txt"
said "from 64 nodes" "| 14.1% |" "$work/out.txt" # PROJECTION.md's 0.141 of one node
said "the base" "Strong efficiency: one node's step (8 GPUs, 1.021 ms, not a row of this table)" "$work/out.txt"
expect 0 "weak scaling" kept weak --local 512,512,512 --nodes 2
said "the weak base" "Weak efficiency: one GPU alone with the same box and edges" "$work/out.txt"

echo "== 9. --halo-depth best: the validated depths"
expect 0 "--halo-depth best at 64^3" kept --halo-depth best weak --local 64,64,64 --nodes 1
awk -F' [|] ' '/^[|] 1 [|]/ {exit $5 > 4}' "$work/out.txt" || { cat "$work/out.txt"; fail "best took K > 4"; }
said "best" "--halo-depth best: the fastest of K = 1, 2, 4, the mini-app's auto depths" "$work/out.txt"
expect 0 "--halo-depth 8" kept --halo-depth 8 weak --local 64,64,64 --nodes 1
said "K = 8" "halo depth 8: validation covers K = 1 to 4 only" "$work/out.txt"

echo "== 10. a projection's plot rings what it extrapolates"
if "$py" -c "import matplotlib" 2>/dev/null; then
  expect 0 "--plot of boxes inside the sweep" weak --machine "$host" --plot "$work/inside.svg"
  ! grep -q "extrapolated" "$work/inside.svg" || fail "a box inside the sweep ringed as extrapolated"
  expect 0 "--plot of boxes past the sweep" project "$cal" --accept-timing-warnings --machine "$host" --radius 2 \
    --plot "$work/past.svg" weak --local 64,64,64 --nodes 1
  said "--plot" "<!-- extrapolated: a box outside the calibrated 16^3 to 32^3 -->" "$work/past.svg"
else
  echo "SKIPPED the plot: no Python with matplotlib"
fi

if "$py" -c "import matplotlib" 2>/dev/null; then
  mkdir -p "$work/twice"
  cp "$cal"/scaling/weak-local24x24x24-*-overlap-on-n[12].json "$work/twice/"
  cp "$cal"/scaling/weak-local24x24x24-*-overlap-on-n2.json "$work/twice/again-n2.json"
  "$py" - "$repo/jobscripts" "$work/twice" <<'PY' 2>"$work/err.txt" || { cat "$work/err.txt"; fail "collect.py's plots"; }
import sys
sys.path.insert(0, sys.argv[1])
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import collect, scaling_plots
figures = []
plt.close = figures.append  # each figure kept to be looked at
rows = collect.series_rows(collect.load(sys.argv[2]))
scaling_plots.plot(rows, sys.argv[2])
weak, _, phases = [f for f in figures if not isinstance(f, str)]  # not close("all")
rings = [c for c in weak.axes[0].collections if c.get_label().startswith("* under 0.5 s")]
assert rings and len(rings[0].get_offsets()) == 3, "the short windows' points are not ringed"
bars = {round(p.get_x(), 6) for p in phases.axes[0].patches}
assert len(bars) == 3, f"three runs drawn as {len(bars)} bars"
PY
  echo "ok  collect.py: short windows ringed, a second run of 2 ranks its own bar"
fi

echo "== 11. strong scaling takes the boxes the mini-app takes"
expect 0 "boxes of 8 cells at R = 4" project "$cal" --accept-timing-warnings --machine "$host" --radius 4 \
  strong --grid 16,16,16
said "8 cells" "| 1 | 8 | 2x2x2 | 8x8x8 |" "$work/out.txt"
"$mpiexec" "$np_flag" 8 "${preflags[@]}" "$app" --grid 16,16,16 --radius 4 --steps 1 --halo-depth 1 --quiet >/dev/null 2>&1 ||
  fail "the mini-app refused 8 cells a rank at R = 4"
expect 2 "boxes of 2 cells at R = 4" project "$cal" --accept-timing-warnings --machine "$host" --radius 4 \
  strong --grid 4,4,4
said "2 cells" "boxes of 4 cells or more along each split axis" "$work/err.txt"

echo "study_trust: every projection stands on what it says"
