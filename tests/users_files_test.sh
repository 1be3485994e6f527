#!/usr/bin/env bash
# Nothing of a user's is lost: what the checkpoints' clean-up removes is
# only what it can prove the program wrote, and never through a link.
#  - pruning passes by a step folder that is a link (to an archive) and
#    leaves the archive as it was;
#  - a user's file inside a checkpoint folder survives the restart that
#    writes that step again and --output-force (the folder is moved aside,
#    whole, with a note);
#  - a truncated newest checkpoint.json does not block --restart latest:
#    the damaged folder is moved aside and the run continues from the
#    checkpoint before, to the uninterrupted run's checksum.
# usage: users_files_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
pre=("$@")
rm -rf "$work" && mkdir -p "$work"
fail() { echo "users_files_test: $*"; exit 1; }
# shellcheck disable=SC2054 # the commas are inside the grid size
base=(--grid 24,20,28 --checksum --quiet)
mini() { "$mpiexec" "$np_flag" 2 "${pre[@]}" "$app" "${base[@]}" "$@"; }
checksum() { grep '^checksum:' "$1" || true; }
fingerprint() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r md5sum); }

mini --steps 40 >"$work/whole40.txt"
reference=$(checksum "$work/whole40.txt")
[ -n "$reference" ] || fail "no checksum from the uninterrupted run"

echo "== pruning never reaches through a linked step folder"
mini --steps 20 --checkpoint-every 10 --output "$work/made" >/dev/null
mkdir -p "$work/archive" "$work/linked/checkpoints"
cp -r "$work/made/checkpoints/step_000020" "$work/archive/"
ln -s "$work/archive/step_000020" "$work/linked/checkpoints/step_000020"
archived=$(fingerprint "$work/archive")
mini --steps 50 --checkpoint-every 10 --output "$work/linked" --restart latest >"$work/linked.txt" 2>&1 ||
  { cat "$work/linked.txt"; fail "the restart through a linked checkpoint failed"; }
[ "$(fingerprint "$work/archive")" = "$archived" ] || fail "pruning changed the archive a link points to"
[ -L "$work/linked/checkpoints/step_000020" ] || fail "the link was removed"
grep -q "note: left .*step_000020: a link" "$work/linked.txt" || { cat "$work/linked.txt"; fail "no note on the link"; }
echo "ok  the archive behind step_000020 is as it was, the link kept and named"

echo "== a user's file in a checkpoint folder survives a restart that writes the step again"
mini --steps 30 --checkpoint-every 10 --output "$work/notes" >/dev/null
echo "mine" >"$work/notes/checkpoints/step_000030/NOTES.txt"
mini --steps 40 --checkpoint-every 10 --output "$work/notes" --restart "$work/notes/checkpoints/step_000020" \
  >"$work/notes.txt" 2>&1 || { cat "$work/notes.txt"; fail "the restart from step 20 failed"; }
[ "$(cat "$work/notes/checkpoints/step_000030.kept/NOTES.txt" 2>/dev/null)" = mine ] ||
  { cat "$work/notes.txt"; ls -R "$work/notes/checkpoints"; fail "NOTES.txt was not kept"; }
grep -q "note: moved .*step_000030 to .*step_000030.kept: it holds files" "$work/notes.txt" ||
  { cat "$work/notes.txt"; fail "no note on the folder moved aside"; }
[ "$(checksum "$work/notes.txt")" = "$reference" ] || fail "restart: $(checksum "$work/notes.txt"), whole $reference"
echo "ok  step_000030 with NOTES.txt moved aside, the restart bitwise the uninterrupted run"

echo "== --output-force leaves a user's file in another run's checkpoint"
mini --steps 20 --checkpoint-every 10 --output "$work/forced" >/dev/null
echo "keep" >"$work/forced/checkpoints/step_000010/keep.me"
mini --steps 20 --checkpoint-every 10 --source 6,6,6 --output "$work/forced" --output-force \
  >"$work/forced.txt" 2>&1 || { cat "$work/forced.txt"; fail "--output-force failed"; }
[ "$(cat "$work/forced/checkpoints/step_000010.kept/keep.me" 2>/dev/null)" = keep ] ||
  { cat "$work/forced.txt"; fail "keep.me was removed"; }
grep -q "note: --output-force: moved .*step_000010 to .*step_000010.kept: it holds files" "$work/forced.txt" ||
  { cat "$work/forced.txt"; fail "no note on the folder moved aside"; }
echo "ok  keep.me kept in the folder moved aside, and named"

echo "== a truncated newest checkpoint.json: --restart latest falls back"
mini --steps 30 --checkpoint-every 10 --output "$work/cut" >/dev/null
: >"$work/cut/checkpoints/step_000030/checkpoint.json"
mini --steps 40 --checkpoint-every 10 --output "$work/cut" --restart latest >"$work/cut.txt" 2>&1 ||
  { cat "$work/cut.txt"; fail "the restart did not fall back"; }
grep -q "continuing from checkpoint .*step_000020 at step 20" "$work/cut.txt" ||
  { cat "$work/cut.txt"; fail "not continued from step 20"; }
[ -f "$work/cut/checkpoints/step_000030.kept/p.raw" ] || fail "the damaged checkpoint was not kept aside"
[ "$(checksum "$work/cut.txt")" = "$reference" ] || fail "fallback: $(checksum "$work/cut.txt"), whole $reference"
echo "ok  the damaged step_000030 moved aside, continued from step 20, bitwise"
echo "users' files kept"
