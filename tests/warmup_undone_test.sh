#!/usr/bin/env bash
# Warm-up steps are undone: a run with --warmup 7 writes the same snapshots
# (same names, same bytes), the same traces and the same final checksum as
# one with --warmup 0, and its traces hold --steps samples. Deep halos (k = 3)
# and a graph period that 7 does not divide make the rewind land mid-cycle.
# usage: warmup_undone_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
rm -rf "$work" && mkdir -p "$work"
steps=12
# shellcheck disable=SC2054 # the commas are inside the grid size
common=(--grid 40,36,44 --procs 1,1,3 --model layered --steps "$steps" --halo-depth 3 --snapshot-every 6
        --receiver-line z=20 --checksum --quiet)
for warmup in 0 7; do
  "$mpiexec" "$np_flag" 3 "$@" "$app" "${common[@]}" --warmup $warmup --output "$work/w$warmup" \
    >"$work/w$warmup.txt" 2>&1
done
fail() { echo "warmup_undone: $*"; exit 1; }
checksum() { grep '^checksum:' "$1" || true; }
[ -n "$(checksum "$work/w0.txt")" ] || fail "no checksum printed"
[ "$(checksum "$work/w0.txt")" = "$(checksum "$work/w7.txt")" ] || fail "the warm-up changed the result"
names() { find "$1" -maxdepth 1 -type f ! -name '*.json' -printf '%f\n' | sort; }
[ "$(names "$work/w0")" = "$(names "$work/w7")" ] || fail "different files: $(names "$work/w7")"
for f in snapshot_000006.raw snapshot_000012.raw traces.bin; do
  cmp "$work/w0/$f" "$work/w7/$f" || fail "$f differs"
done
grep -q "\"nt\": $steps," "$work/w7/traces.json" || fail "traces.json does not hold $steps steps"
echo "warm-up undone: $steps steps of physics with 0 and 7 warm-up steps, same bits"
