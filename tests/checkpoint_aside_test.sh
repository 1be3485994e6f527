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
#    the uninterrupted run's checksum;
#  - a restart from a checkpoint older than the newest sets the newer ones
#    aside (they continue a run whose snapshots it removed), so that
#    --restart latest continues the restarted run without a gap.
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
echo "== a restart that goes back behind the newest checkpoint"
# Snapshots every 5 steps. The run to 40 leaves checkpoints 30 and 40; a
# restart from 30 to 35 removes the snapshots past 30 and must set 40
# aside, so that --restart latest then continues its own run (from 30,
# through 35 again), not the abandoned one, whose snapshots are gone.
out=$work/back ck=$work/back/checkpoints
mini --steps 40 --output "$out" --snapshot-every 5 >/dev/null 2>&1
mini --steps 35 --output "$out" --snapshot-every 5 --restart "$ck/step_000030" >"$work/back1.txt" 2>&1 ||
  { cat "$work/back1.txt"; fail "the restart from step 30 failed"; }
grep -q "note: checkpoint .*step_000040 is past step 30, where the run goes on: set aside as .*step_000040.kept" "$work/back1.txt" ||
  { cat "$work/back1.txt"; fail "the checkpoint past step 30 was not set aside"; }
grep -q "a restart went back to step 30" "$ck/step_000040.kept/set-aside.txt" || fail "the set-aside note does not say why"
mini --steps 60 --output "$out" --snapshot-every 5 --restart latest >"$work/back2.txt" 2>&1 ||
  { cat "$work/back2.txt"; fail "--restart latest after going back failed"; }
grep -q "continuing from checkpoint .*step_000030 at step 30" "$work/back2.txt" || { cat "$work/back2.txt"; fail "latest did not continue from step 30"; }
[ "$(grep '^checksum:' "$work/back2.txt")" = "$reference" ] || fail "the run after going back differs from the uninterrupted run"
python3 "$here/../tools/verify-output.py" "$out" >"$work/back-verify.txt" 2>&1 || { cat "$work/back-verify.txt"; fail "verify-output does not pass the folder"; }
for n in 35 40 45; do [ -f "$out/snapshot_0000$n.raw" ] || fail "snapshot $n is missing"; done
echo "ok  step 40 set aside; latest continued from 30, every snapshot there: $reference"
echo "checkpoints set aside ok"
