#!/usr/bin/env bash
# An option given more than once: the last value counts (the report says 3
# steps and a separate pack), and one warning per option, once, names its
# values in order; a flag says only that it was repeated.
# usage: repeated_option_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "repeated_option_test: $*"; cat "$work/out.txt"; exit 1; }
# shellcheck disable=SC2054 # the commas are inside the grid size
"$mpiexec" "$np_flag" 2 "$@" "$app" --grid 16,16,16 --steps 2 --warmup 1 --steps 5 --steps 3 --pack fused \
  --pack separate --checksum --checksum >"$work/out.txt" 2>&1 || fail "the run failed"
for line in "--steps given more than once ('2', then '5', then '3'): the last counts" \
            "--pack given more than once ('fused', then 'separate'): the last counts" \
            "--checksum given more than once: the last counts"; do
  [ "$(grep -cxF "stencil-miniapp: warning: $line" "$work/out.txt")" = 1 ] || fail "not once: $line"
done
[ "$(grep -c "warning: .* given more than once" "$work/out.txt")" = 3 ] || fail "not 3 warnings"
grep -q ", 3 steps (after 1 warm-up" "$work/out.txt" || fail "the last --steps did not count"
grep -q "^  halo pack separate (--pack separate)$" "$work/out.txt" || fail "the last --pack did not count"
echo "repeated options: the last counts, one warning each"
