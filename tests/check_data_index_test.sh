#!/usr/bin/env bash
# tools/check-data-index.py can fail: on a copy of docs/data's index in a
# scratch folder with five planted faults (a folder without a row, a folder
# without a README, a row for no folder, a row twice, two rows out of order)
# it names each, one line each, and exits 1; the repository's index passes.
# Bad input is one line and exit 2.
# usage: check_data_index_test.sh SCRATCH_DIR
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
check=("${PYTHON:-python3}" "$repo/tools/check-data-index.py")
scratch=${1:?usage: check_data_index_test.sh SCRATCH_DIR}
fail() { echo "check_data_index: $*"; exit 1; }

"${check[@]}" || fail "the repository's docs/data index does not pass"

rm -rf "$scratch" && mkdir -p "$scratch"
for d in alpha beta gamma; do mkdir "$scratch/$d" && echo "# $d" >"$scratch/$d/README.md"; done
mkdir "$scratch/delta" "$scratch/epsilon" && echo "# epsilon" >"$scratch/epsilon/README.md"
cat >"$scratch/README.md" <<'INDEX'
# Measured data

| folder | what |
|---|---|
| [`alpha/`](alpha/README.md) | first |
| [`gamma/`](gamma/README.md) | third, before the second |
| [`beta/`](beta/README.md) | second |
| [`beta/`](beta/README.md) | second, twice |
| [`delta/`](delta/README.md) | a folder without a README |
| [`zeta/`](zeta/README.md) | a row for no folder |
INDEX
status=0
out=$("${check[@]}" "$scratch") || status=$?
echo "$out"
[ "$status" -eq 1 ] || fail "exit $status, not 1"
expected="README.md:10: zeta/ is not a folder of $scratch
README.md:8: beta/ has a row already, at line 7
delta/: no README.md
epsilon/: no row in README.md's table
README.md:7: beta/ comes after gamma/; the rows go in the folders' order"
[ "$out" = "$expected" ] || fail "not the five planted faults"

# Bad input: one line on stderr, exit 2.
status=0
err=$("${check[@]}" "$scratch/no-such-folder" 2>&1 >/dev/null) || status=$?
if [ "$status" -ne 2 ] || [ "$(echo "$err" | wc -l)" -ne 1 ]; then fail "bad input: exit $status, '$err'"; fi
echo "check-data-index reports what it should"
