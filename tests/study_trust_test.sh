#!/usr/bin/env bash
# project.py takes only what it can stand on, and says every default it
# takes (issue 68; each case failed before its fix):
#  1. a machine file whose kernel_time_scales lacks the calibration's GPU,
#     and that has no kernel_time_scale, is refused naming the GPU and the
#     keys; a key in lower case matches; a file with no scale says 1;
# usage: study_trust_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 app=$3 work=$4
shift 4
preflags="$*"
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
  env RESULTS="$into" APP="$app" MPIRUN="$mpiexec $preflags" SWEEP="16 24 32" RADIUS=2 STEPS=4 \
    HALO_DEPTH=1 WEAK_LOCAL=24,24,24 STRONG_GRID=32,32,32 "$@" bash "$repo/jobscripts/local/calibrate.sh" \
    >"$work/calibrate.txt" 2>&1 || { cat "$work/calibrate.txt"; fail "calibrate.sh failed"; }
}
calibrate "$work/cal"
cal=$work/cal
weak() { project "$cal" --radius 2 "$@" weak --local 24,24,24 --nodes 1; }

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

echo "study_trust: every projection stands on what it says"
