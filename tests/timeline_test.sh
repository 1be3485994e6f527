#!/usr/bin/env bash
# --timeline: on 1 and 2 ranks, open and periodic, overlap on and off, halo
# depth 1 and 2, the file holds every rank's sampled steps, each its
# schedule in order on one clock (tests/timeline_check.py); the report says
# where it went. Bad paths are refused before step 1 with a non-zero exit.
# usage: timeline_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
rm -rf "$work" && mkdir -p "$work"
here=$(dirname "$0")
fail() { echo "timeline: $*"; exit 1; }
steps=140 # 18 sampled cycles at k = 1: the file keeps the first 8
runs=0
for ranks in 1 2; do
  for periodic in none x,y,z; do
    for overlap in on off; do
      for depth in 1 2; do
        name="np${ranks}_${periodic//,/}_overlap_${overlap}_k${depth}"
        # shellcheck disable=SC2054 # the commas are inside the grid size
        args=(--grid 24,20,28 --radius 2 --steps "$steps" --warmup 2 --overlap "$overlap"
              --halo-depth "$depth" --timeline "$work/$name.json" --report "$work/$name.report.json")
        [ "$periodic" = none ] || args+=(--periodic "$periodic")
        "$mpiexec" "$np_flag" "$ranks" "$@" "$app" "${args[@]}" >"$work/$name.txt" 2>&1 ||
          { cat "$work/$name.txt"; fail "$name: the run failed"; }
        python3 "$here/timeline_check.py" "$work/$name.json" "$ranks" "$steps" "$depth" ||
          fail "$name: the timeline is wrong"
        grep -q "timeline: $work/$name.json" "$work/$name.txt" || fail "$name: the report does not name it"
        python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["timeline"] == sys.argv[2]' \
          "$work/$name.report.json" "$work/$name.json" || fail "$name: the JSON report does not name it"
        runs=$((runs + 1))
      done
    done
  done
done

# Refused before step 1: one line naming --timeline, exit non-zero, no
# progress line and no report (which the run writes at its end).
refused() {
  local why=$1 path=$2
  shift 2
  local status=0
  rm -f "$work/refused.report.json"
  # shellcheck disable=SC2054 # the commas are inside the grid size
  "$mpiexec" "$np_flag" 2 "${PREFLAGS[@]}" "$app" --grid 24,20,28 --steps 3 --progress 0 \
    --report "$work/refused.report.json" --timeline "$path" "$@" >"$work/refused.txt" 2>&1 || status=$?
  [ "$status" -ne 0 ] || fail "$why: exit 0"
  grep -q "^stencil-miniapp: --timeline .*$why" "$work/refused.txt" || { cat "$work/refused.txt"; fail "$why: no such line"; }
  ! grep -q "progress: step" "$work/refused.txt" || fail "$why: steps ran"
  [ ! -e "$work/refused.report.json" ] || fail "$why: a report was written"
  [ ! -e "$path" ] || [ -d "$path" ] || [ -p "$path" ] || [ "$path" = "$work/refused.report.json" ] ||
    fail "$why: $path was written"
}
PREFLAGS=("$@")
refused "cannot write there" "$work/missing-folder/t.json"
refused "a directory" "$work"
refused "the same file as --report" "$work/refused.report.json"
mkdir -p "$work/out"
refused "a file the run writes into --output" "$work/out/traces.json" --output "$work/out"
refused "the --output folder" "$work/out" --output "$work/out"
refused "inside the checkpoint folder" "$work/out/checkpoints/t.json" --output "$work/out" --checkpoint-every 2
refused "inside the checkpoint folder" "$work/ck" --checkpoint-dir "$work/ck" --checkpoint-every 2
# The checkpoint a restart reads, wherever it lies, is never written over.
mkdir -p "$work/elsewhere/step_000002" && echo '{}' >"$work/elsewhere/step_000002/checkpoint.json"
refused "inside the checkpoint --restart" "$work/elsewhere/step_000002/t.json" \
  --restart "$work/elsewhere/step_000002" --output "$work/out2"
[ "$(cat "$work/elsewhere/step_000002/checkpoint.json")" = "{}" ] || fail "the restart's checkpoint was changed"
mkfifo "$work/fifo.json"
refused "not a regular file" "$work/fifo.json"
[ -p "$work/fifo.json" ] || fail "the FIFO was replaced"
# A file, a link or a folder where the write's .partial goes is the user's
# (or another run's write in progress): refused, and left as it was.
echo "the user's" >"$work/mine.json.partial" && echo keep >"$work/precious.txt"
ln -s precious.txt "$work/link.json.partial" && mkdir "$work/dir.json.partial"
for name in mine link dir; do
  refused "$name.json.partial exists" "$work/$name.json"
done
if [ "$(cat "$work/mine.json.partial")/$(cat "$work/precious.txt")" != "the user's/keep" ]; then
  fail "a .partial in the way was changed, or the file its link names"
fi
if [ "$(id -u)" -ne 0 ]; then # root writes anywhere
  mkdir -p "$work/read-only" && chmod a-w "$work/read-only"
  refused "cannot write there" "$work/read-only/t.json"
  chmod u+w "$work/read-only"
fi
echo "timeline: $runs runs checked, bad paths refused before step 1"
