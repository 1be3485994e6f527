#!/usr/bin/env bash
# tools/check-sizes.py can fail: in a planted git repository it reports a
# 401-line file, a 61-line function, a 61-line lambda and a 61-line TEST
# body, one line each, and exits 1; a 400-line file, a 60-line function and
# a long function in kernels/*.cu pass. Bad input is one line and exit 2.
# usage: check_sizes_test.sh WORKDIR
set -euo pipefail
work=$1
repo=$(cd "$(dirname "$0")/.." && pwd)
check=("${PYTHON:-python3}" "$repo/tools/check-sizes.py")
fail() { echo "check_sizes: $*"; exit 1; }
if ! ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
  echo "check_sizes: skipped: no Universal Ctags here (tools/install-deps.sh installs it)"
  exit 0
fi
rm -rf "$work" && mkdir -p "$work/kernels"

# FILE NAME BODY_LINES [HEAD]: a function whose head, body and closing brace
# span BODY_LINES + 2 lines.
function_of() {
  local file=$1 body=$3 head=${4:-"int $2() {"}
  echo "$head" >>"$file"
  for ((i = 0; i < body; ++i)); do echo "  int v$i = $i;" >>"$file"; done
  echo "}" >>"$file"
}
# FILE LINES: a file of LINES comment lines.
file_of() { for ((i = 0; i < $2; ++i)); do echo "// line $i"; done >"$1"; }

cd "$work"
git init -q .
function_of long.cpp too_long 59
function_of long.cpp just_right 58
function_of long.hpp "" 59 "TEST(Suite, Planted) {"
{ echo "void outer() {"; echo "  auto f = [](int x) {"; } >lambda.cpp
for ((i = 0; i < 58; ++i)); do echo "    x += $i;" >>lambda.cpp; done
{ echo "    return x;"; echo "  };"; echo "}"; } >>lambda.cpp
function_of kernels/walk.cu walk 80
file_of big.cpp 401
file_of fits.cpp 400
git add .

status=0
"${check[@]}" >out.txt 2>err.txt || status=$?
cat out.txt err.txt
[ "$status" -eq 1 ] || fail "exit $status, not 1"
expected='big.cpp:1: file is 401 lines (at most 400)
lambda.cpp:1: function outer is 63 lines (at most 60)
lambda.cpp:2: function lambda in outer is 61 lines (at most 60)
long.cpp:1: function too_long is 61 lines (at most 60)
long.hpp:1: function TEST(Suite, Planted) is 61 lines (at most 60)'
[ "$(cat out.txt)" = "$expected" ] || fail "not the five planted offenders"

# The same check on a file list, from outside the repository.
cd /
status=0
"${check[@]}" "$work/fits.cpp" "$work/long.cpp" >"$work/out.txt" || status=$?
if [ "$status" -ne 1 ] || [ "$(wc -l <"$work/out.txt")" -ne 1 ]; then fail "file list: exit $status"; fi
grep -q "long.cpp:1: function too_long is 61 lines" "$work/out.txt" || fail "file list: no too_long"
"${check[@]}" "$work/fits.cpp" || fail "a 400-line file fails"

# Bad input: one line on stderr, exit 2.
for bad in "$work/missing.cpp" "$work" --bogus; do
  status=0
  "${check[@]}" "$bad" >/dev/null 2>"$work/err.txt" || status=$?
  if [ "$status" -ne 2 ] || [ "$(wc -l <"$work/err.txt")" -ne 1 ]; then fail "$bad: exit $status"; fi
done
echo "check-sizes reports what it should"
