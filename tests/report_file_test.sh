#!/usr/bin/env bash
# --report and --timeline name files the run writes at its end: an
# existing one is refused before step 1, in one line, and left as it was
# (it was overwritten); --output-force replaces it, as it takes an output
# folder anyway.
# usage: report_file_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
preflags=("$@")
expect=$(dirname "$0")/expect_failure.sh
rm -rf "$work" && mkdir -p "$work"
fail() { echo "report_file_test: $*"; exit 1; }
# shellcheck disable=SC2054 # the commas are inside the grid size
mini=("$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" --grid 16,16,16 --steps 4 --quiet)
for option in --report --timeline; do
  file=$work/mine${option#--}.json
  echo "my notes" >"$file"
  bash "$expect" 20 "$option .*mine${option#--}.json: the file exists; name another, or pass --output-force to replace it" \
    "${mini[@]}" "$option" "$file"
  [ "$(cat "$file")" = "my notes" ] || fail "$option: the existing file was changed"
  "${mini[@]}" "$option" "$file" --output-force >"$work/forced.txt" 2>&1 || { cat "$work/forced.txt"; fail "$option --output-force failed"; }
  python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$file" || fail "$option --output-force: not replaced by the run's JSON"
  echo "ok  $option: an existing file refused and kept; --output-force replaces it"
done
echo "report files ok"
