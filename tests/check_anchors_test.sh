#!/usr/bin/env bash
# tools/check-anchors.py can fail: on tests/data/stale_anchors.md, a doc of
# planted stale anchors, it reports a symbol the file lacks, a file that is
# gone, a line number, a map entry's missing name and missing file, quoted
# values the code no longer has (a number, a product) and quotes it cannot
# check (no file, the value before the anchor, no form, no literal, no
# constant), one line each naming the doc's line, and exits 1; the anchors
# and quotes that hold pass. On a copy of the tree whose constants changed,
# the real docs fail where they quote them. Bad input is one line and exit 2.
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
tests/data/stale_anchors.md:18: no file for `no_such_file` in halo/ (map entry)
tests/data/stale_anchors.md:25: kTrialWindows is 5 in miniapp/step/trial.hpp, the doc says 7
tests/data/stale_anchors.md:26: kCellSlabsUpTo is 256LL * 256 * 256 = 16777216 in kernels/launch_shape.hpp, the doc says 128³ = 2097152
tests/data/stale_anchors.md:27: the value of `kStopAgreement` is quoted without its file: write `PATH: kStopAgreement` (8)
tests/data/stale_anchors.md:28: 8 is written before its anchor: write `miniapp/restart/stop_request.hpp: kStopAgreement` (8)
tests/data/stale_anchors.md:29: the value after `miniapp/restart/stop_request.hpp: kStopAgreement` is not ` (VALUE)`, ` (VALUE UNIT)` or ` = VALUE` (tools/anchor_values.py)
tests/data/stale_anchors.md:30: kLanes in kernels/launch_table.hpp is `int(16 / sizeof(T))`, not literal arithmetic: the check cannot read it
tests/data/stale_anchors.md:31: no constexpr definition of pack in halo/halo_exchange.cpp for the value the doc quotes (2)'
[ "$out" = "$expected" ] || fail "not the thirteen planted failures"

# A changed constant: the real docs, on a copy of the code they point into
# (--root) where two constants they quote changed, fail at every line that
# quotes either, naming the code's value and the doc's, and nowhere else.
tree=$(mktemp -d)
err=$(mktemp)
trap 'rm -rf "$tree" "$err"' EXIT
mkdir "$tree/docs"
cp "$repo/docs/ARCHITECTURE.md" "$repo/docs/STEP.md" "$tree/docs"
# The folders the docs point into, as their anchors name them.
grep -ohE '[a-z_]+/[A-Za-z0-9_./-]+\.[a-z]+: ' "$tree"/docs/*.md | cut -d/ -f1 | sort -u |
  while read -r top; do cp -r "$repo/$top" "$tree"; done
"${check[@]}" --root "$tree" >/dev/null || fail "the unchanged copy does not pass"
sed -i 's/kPhaseSampling = 8;/kPhaseSampling = 16;/' "$tree/miniapp/step/simulation.hpp"
sed -i 's/kCellUpdateUpTo = 100LL \* 100 \* 100;/kCellUpdateUpTo = 128LL * 128 * 128;/' "$tree/kernels/launch_shape.hpp"
status=0
out=$("${check[@]}" --root "$tree") || status=$?
echo "$out"
[ "$status" -eq 1 ] || fail "changed constants: exit $status, not 1"
sampling='kPhaseSampling is 16 in miniapp/step/simulation.hpp, the doc says 8'
cells='kCellUpdateUpTo is 128LL \* 128 \* 128 = 2097152 in kernels/launch_shape.hpp, the doc says 100³ = 1000000'
# Each line is one of the two messages, and each doc line that quotes a
# changed constant has its one line.
if grep -vE "^docs/(ARCHITECTURE|STEP)\.md:[0-9]+: ($sampling|$cells)\$" <<<"$out"; then
  fail "changed constants: the line above is neither failure"
fi
for doc in docs/ARCHITECTURE.md docs/STEP.md; do
  for name in kPhaseSampling kCellUpdateUpTo; do
    quoted=$(grep -n "$name\` [(=]" "$tree/$doc" | cut -d: -f1 | sed "s|^|$doc:|" || true)
    [ -n "$quoted" ] || fail "$doc quotes no $name"
    [ "$(grep -E "^$doc:[0-9]+: $name is" <<<"$out" | cut -d: -f1,2)" = "$quoted" ] ||
      fail "$doc: the failures for $name are not at the lines that quote it"
  done
done

# Bad input: one line on stderr, exit 2.
for bad in "$repo/tests/data/missing.md" --bogus; do
  status=0
  "${check[@]}" "$bad" >/dev/null 2>"$err" || status=$?
  if [ "$status" -ne 2 ] || [ "$(wc -l <"$err")" -ne 1 ]; then fail "$bad: exit $status"; fi
done
echo "check-anchors reports what it should"
