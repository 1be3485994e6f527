#!/usr/bin/env bash
# --comm none moves no message between ranks, but keeps a rank's own
# periodic faces (they are no messages): on one rank its checksum is the
# one-domain answer, the same as every other path's; on two ranks the
# checksum line and the JSON report say it is not the one-domain answer.
# usage: comm_none_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "comm_none_test: $*"; exit 1; }
# shellcheck disable=SC2054 # the commas are inside the grid size
run() { # run RANKS NAME ARGS...: the checksum line
  local ranks=$1 name=$2; shift 2
  "$mpiexec" "$np_flag" "$ranks" "$@" "$app" --grid 36,36,36 --radius 2 --steps 20 \
    --periodic x,y,z --checksum --quiet --report "$work/$name.json" "${extra[@]}" >"$work/$name.txt" 2>&1 ||
    { cat "$work/$name.txt"; fail "$name failed"; }
  grep '^checksum:' "$work/$name.txt"
}
one_domain() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["checksum_is_one_domain_answer"])' "$1"; }
extra=(--comm none)
none=$(run 1 none1 "$@")
extra=(--comm staged)
staged=$(run 1 staged1 "$@")
[ "$none" = "$staged" ] || fail "one rank: --comm none gives '$none', staged '$staged'"
[ "$(one_domain "$work/none1.json")" = True ] || fail "one rank: the JSON says none is not the one-domain answer"
echo "ok  one rank, periodic x,y,z: --comm none keeps its own faces: $none"
extra=(--comm none)
line=$(run 2 none2 "$@")
[[ $line == *"(--comm none: no message moved between ranks, so not the one-domain answer)" ]] ||
  fail "two ranks: the checksum line says nothing: '$line'"
[ "$(one_domain "$work/none2.json")" = False ] || fail "two ranks: the JSON says none is the one-domain answer"
extra=(--comm staged)
[[ $(run 2 staged2 "$@") == "$staged" ]] || fail "two ranks, staged: not the one-domain checksum"
echo "ok  two ranks: --comm none's checksum is said not to be the one-domain answer, text and JSON"
