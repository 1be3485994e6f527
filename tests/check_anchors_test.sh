#!/usr/bin/env bash
# tools/check-anchors.py can fail: on tests/data/stale_anchors.md, a doc of
# planted stale anchors, it reports a symbol the file lacks, a file that is
# gone, a line number, a map entry's missing name and missing file, one line
# each naming the doc's line, and exits 1; the anchors that hold pass. Bad
# input is one line and exit 2.
# usage: check_anchors_test.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
check=("${PYTHON:-python3}" "$repo/tools/check-anchors.py")
fixture=$repo/tests/data/stale_anchors.md
fail() { echo "check_anchors: $*"; exit 1; }

# From another folder: the paths are the repository's, not the caller's.
cd /
status=0
out=$("${check[@]}" "$fixture") || status=$?
echo "$out"
[ "$status" -eq 1 ] || fail "exit $status, not 1"
# shellcheck disable=SC2016 # backticks are the docs' text, not expansions
expected='tests/data/stale_anchors.md:7: no `repack` in halo/halo_exchange.cpp (anchor `halo/halo_exchange.cpp: HaloExchange::repack`)
tests/data/stale_anchors.md:8: no file halo/old_exchange.cpp (anchor `halo/old_exchange.cpp: HaloExchange::pack`)
tests/data/stale_anchors.md:9: line number in `halo/halo_exchange.cpp:231`: anchor by symbol (`halo/halo_exchange.cpp: SYMBOL`)
tests/data/stale_anchors.md:12: no `no_such_symbol` in halo/path_mpi.cpp (anchor `halo/path_mpi.cpp: no_such_symbol`)
tests/data/stale_anchors.md:17: no `HaloPlanned` in halo/halo_plan.cpp, halo/halo_plan.hpp (map entry)
tests/data/stale_anchors.md:18: no file for `no_such_file` in halo/ (map entry)'
[ "$out" = "$expected" ] || fail "not the six planted failures"

# Bad input: one line on stderr, exit 2.
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for bad in "$repo/tests/data/missing.md" --bogus; do
  status=0
  "${check[@]}" "$bad" >/dev/null 2>"$err" || status=$?
  if [ "$status" -ne 2 ] || [ "$(wc -l <"$err")" -ne 1 ]; then fail "$bad: exit $status"; fi
done
echo "check-anchors reports what it should"
