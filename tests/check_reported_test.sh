#!/usr/bin/env bash
# --check's outcome is in the --report JSON ("check": cells_differing,
# cells, bitwise_equal), written after the comparison: a run that passes
# says so, a run with a planted bug (short-fused-pack) exits non-zero and
# its report says how many cells differ, and tools/report-table.py miniapp marks
# its row FAILED and exits 1.
# usage: check_reported_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "check_reported_test: $*"; exit 1; }
run() { # run NAME ARGS...: exit status in $work/NAME.rc
  local name=$1 rc=0
  shift
  # shellcheck disable=SC2054 # the commas are inside the grid size
  "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" --procs 1,2,1 --grid 32,32,32 --steps 8 --quiet --check \
    --report "$work/$name.json" "$@" >"$work/$name.txt" 2>&1 || rc=$?
  echo "$rc" >"$work/$name.rc"
}
preflags=("$@")
run good
run planted --inject-fault short-fused-pack
[ "$(cat "$work/good.rc")" = 0 ] || { cat "$work/good.txt"; fail "the good run failed"; }
[ "$(cat "$work/planted.rc")" != 0 ] || fail "the planted bug exited 0"
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
good = json.load(open(work + "/good.json"))["check"]
bad = json.load(open(work + "/planted.json"))["check"]
assert {k: good[k] for k in ("cells_differing", "cells", "bitwise_equal")} == {"cells_differing": 0, "cells": 32 ** 3, "bitwise_equal": True}, good
assert good["boundaries_reached"] == good["boundaries"] > 0, good
assert bad["bitwise_equal"] is False and 0 < bad["cells_differing"] <= bad["cells"] == 32 ** 3, bad
with open(work + "/planted.txt") as text:  # the same count as the check line
    assert "check: %d of %d cells differ" % (bad["cells_differing"], bad["cells"]) in text.read()
PY
status=0
python3 "$(dirname "$0")/../tools/report-table.py" miniapp "$work/good.json" "$work/planted.json" >"$work/table.txt" 2>&1 ||
  status=$?
if ! grep -q "planted.json failed its --check" "$work/table.txt" || [ "$(grep -c "FAILED" "$work/table.txt")" != 2 ]
then
  cat "$work/table.txt"
  fail "the table does not mark the failed run"
fi
[ "$status" = 1 ] || fail "report-table.py miniapp exited $status with a failed run in its table, not 1"
echo "check reported: pass and fail in the JSON, the failed row marked, the table's status 1"
