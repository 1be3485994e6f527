#!/usr/bin/env bash
# usage: expect_failure.sh SECONDS REGEX COMMAND...
# Passes when COMMAND exits non-zero within SECONDS and its output holds
# exactly one error line from the program ("stencil-miniapp: ...") and that
# line matches REGEX: one clear line, not one per rank, no crash. Warnings
# about what the run was given ("stencil-miniapp: warning: ..."), printed
# before the refusal was known, are not errors and are not counted.
set -u
seconds=$1 regex=$2
shift 2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$SECONDS
timeout "$((seconds + 5))" "$@" >"$out" 2>&1
status=$?
elapsed=$((SECONDS - start))
errors() { grep '^stencil-miniapp: ' "$out" | grep -v '^stencil-miniapp: warning: '; }
lines=$(errors | wc -l)
fail() { echo "expect_failure: $*"; echo "--- output"; cat "$out"; exit 1; }
[ "$status" -ne 0 ] || fail "exited 0"
[ "$status" -ne 124 ] || fail "timed out after $((seconds + 5)) s (a hang)"
[ "$elapsed" -le "$seconds" ] || fail "took $elapsed s, more than $seconds s"
[ "$lines" -eq 1 ] || fail "$lines lines start with 'stencil-miniapp: ', expected exactly 1 (warnings aside)"
errors | grep -Eq -e "$regex" || fail "the line does not match /$regex/"
grep -Eq 'Segmentation fault|terminate called|core dumped|Traceback' "$out" && fail "a crash or stack trace"
echo "expected failure in ${elapsed} s: $(errors)"
