#!/usr/bin/env bash
# A checkpoint a restart cannot use is set aside whole, never destroyed:
#  - a damaged newest checkpoint (one byte of p.raw flipped) whose
#    step_NNNNNN.kept name is taken (a user's folder there) goes to
#    step_NNNNNN.kept.1, the restart falls back to the one before, and both
#    the user's folder and the damaged checkpoint are still there, byte for
#    byte, after the run wrote that step again and rotated its checkpoints;
#  - where no name is free, the restart is refused before step 1, and the
#    damaged checkpoint is left as it was;
#  - a newest checkpoint whose checkpoint.json was deleted is set aside as
#    an emptied one is, and the restart continues from the one before to
#    the uninterrupted run's checksum.
# usage: checkpoint_aside_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
preflags=("$@")
here=$(dirname "$0")
rm -rf "$work" && mkdir -p "$work"
fail() { echo "checkpoint_aside_test: $*"; exit 1; }
# shellcheck disable=SC2054 # the commas are inside the grid size
problem=(--grid 24,24,24 --checkpoint-every 10 --checksum --quiet)
mini() { "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" "${problem[@]}" "$@"; }
flip() { python3 -c 'import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(100); b = f.read(1); f.seek(100); f.write(bytes([b[0] ^ 1]))' "$1"; }
mini --steps 60 --output "$work/whole" >"$work/whole.txt" 2>&1
reference=$(grep '^checksum:' "$work/whole.txt")

echo "== a damaged checkpoint whose .kept name is taken"
ck=$work/kept/checkpoints
mini --steps 40 --output "$work/kept" >/dev/null 2>&1
flip "$ck/step_000040/p.raw"
damaged=$(cksum <"$ck/step_000040/p.raw")
mkdir "$ck/step_000040.kept" && echo "my notes" >"$ck/step_000040.kept/notes.txt"
mini --steps 60 --output "$work/kept" --restart latest >"$work/kept.txt" 2>&1 ||
  { cat "$work/kept.txt"; fail "the restart failed"; }
grep -q "set aside as $ck/step_000040.kept.1" "$work/kept.txt" || { cat "$work/kept.txt"; fail "not set aside as .kept.1"; }
[ "$(cksum <"$ck/step_000040.kept.1/p.raw")" = "$damaged" ] || fail "the damaged checkpoint was not kept whole"
[ "$(cat "$ck/step_000040.kept/notes.txt")" = "my notes" ] || fail "the user's .kept folder changed"
[ "$(grep '^checksum:' "$work/kept.txt")" = "$reference" ] || fail "the fallback changed the result"
echo "ok  set aside as step_000040.kept.1; the user's .kept and the damaged files kept; $reference"

echo "== no free name: refused before step 1, nothing moved"
ck=$work/full/checkpoints
mini --steps 40 --output "$work/full" >/dev/null 2>&1
flip "$ck/step_000040/p.raw"
damaged=$(cksum <"$ck/step_000040/p.raw")
mkdir "$ck/step_000040.kept"
for n in $(seq 999); do mkdir "$ck/step_000040.kept.$n"; done
bash "$here/expect_failure.sh" 20 "--restart: checkpoint .*step_000040 does not verify .* and is left in place: .*; the run would write its step over it" \
  "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" "${problem[@]}" --steps 60 --output "$work/full" --restart latest
[ "$(cksum <"$ck/step_000040/p.raw")" = "$damaged" ] || fail "the damaged checkpoint changed"
[ ! -e "$ck/step_000050" ] || fail "the refused restart wrote a checkpoint"
echo "ok  refused in one line, the damaged checkpoint left as it was"

echo "== a deleted checkpoint.json"
ck=$work/deleted/checkpoints
mini --steps 40 --output "$work/deleted" >/dev/null 2>&1
rm "$ck/step_000040/checkpoint.json"
mini --steps 60 --output "$work/deleted" --restart latest >"$work/deleted.txt" 2>&1 ||
  { cat "$work/deleted.txt"; fail "the restart after a deleted checkpoint.json failed"; }
grep -q "continuing from checkpoint .*step_000030 at step 30" "$work/deleted.txt" || fail "not continued from step 30"
[ -f "$ck/step_000040.kept/p.raw" ] || fail "the checkpoint without its checkpoint.json was not set aside"
[ "$(grep '^checksum:' "$work/deleted.txt")" = "$reference" ] || fail "the continued run's checksum differs"
echo "ok  set aside as step_000040.kept, continued from step 30: $reference"
echo "checkpoints set aside ok"
