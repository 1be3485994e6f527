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
#    checkpoint before, to the uninterrupted run's checksum;
#  - a restart into another run's output folder is refused before step 1
#    and leaves that folder's files as they were (it removed them);
#  - extending a finished run by a restart leaves the uninterrupted run's
#    files (the first run's end-of-run slice is its own, and goes).
# usage: users_files_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
pre=("$@")
here=$(dirname "$0")
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
# The restart goes back behind step 30, so it sets that checkpoint aside
# whole (the user's file in it) before it writes the step again.
grep -q "note: checkpoint .*step_000030 is past step 20, where the run goes on: set aside as .*step_000030.kept" "$work/notes.txt" ||
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

# falls_back NAME STEPS FILE: a run of STEPS steps, a checkpoint every 10,
# then FILE of its newest checkpoint emptied; --restart latest to step 40
# must continue from the checkpoint before, bit for bit the whole run's.
falls_back() {
  local name=$1 steps=$2 file=$3 from=$(($2 - 10))
  mini --steps "$steps" --checkpoint-every 10 --output "$work/$name" >/dev/null
  : >"$work/$name/checkpoints/$(printf step_%06d "$steps")/$file"
  mini --steps 40 --checkpoint-every 10 --output "$work/$name" --restart latest >"$work/$name.txt" 2>&1 ||
    { cat "$work/$name.txt"; fail "$name: the restart did not fall back from a damaged step $steps"; }
  grep -q "continuing from checkpoint .*$(printf step_%06d "$from") at step $from" "$work/$name.txt" ||
    { cat "$work/$name.txt"; fail "$name: not continued from step $from"; }
  [ "$(checksum "$work/$name.txt")" = "$reference" ] ||
    fail "$name: fallback: $(checksum "$work/$name.txt"), whole $reference"
}

echo "== a truncated newest checkpoint.json: --restart latest falls back"
falls_back cut 30 checkpoint.json
[ -f "$work/cut/checkpoints/step_000030.kept/p.raw" ] || fail "the damaged checkpoint was not kept aside"
echo "ok  the damaged step_000030 moved aside, continued from step 20, bitwise"
echo "== a restart into another run's output folder is refused, its files as they were"
outs=(--snapshot-every 10 --receiver-line z=10 --steps 40)
mini "${outs[@]}" --model layered --output "$work/A" >/dev/null
mini "${outs[@]}" --model constant --output "$work/B" --checkpoint-every 20 >/dev/null
theirs=$(fingerprint "$work/A")
rc=0
mini "${outs[@]}" --model constant --output "$work/A" --restart "$work/B/checkpoints/step_000020" \
  >"$work/into-A.txt" 2>&1 || rc=$?
[ "$rc" != 0 ] || { cat "$work/into-A.txt"; fail "the restart into another run's folder exited 0"; }
grep -q "^stencil-miniapp: --output .*/A holds the outputs of another run" "$work/into-A.txt" ||
  { cat "$work/into-A.txt"; fail "not refused as another run's folder"; }
[ "$(fingerprint "$work/A")" = "$theirs" ] || fail "the refused restart changed the other run's outputs"
python3 "$here/../tools/verify-output.py" "$work/A" >/dev/null || fail "verify-output no longer passes A"
echo "ok  refused; A's outputs as they were"

echo "== extending a finished run ends with the uninterrupted run's files"
ends=(--slice x=3 --snapshot-every 8 --receiver-line z=10)
mini "${ends[@]}" --steps 40 --output "$work/long" >/dev/null
mini "${ends[@]}" --steps 20 --checkpoint-every 20 --output "$work/short" >/dev/null
mini "${ends[@]}" --steps 40 --checkpoint-every 20 --output "$work/short" --restart latest \
  >"$work/extend.txt" 2>&1 || { cat "$work/extend.txt"; fail "extending the run failed"; }
names() { (cd "$1" && find . -maxdepth 1 -type f ! -name 'stencil-miniapp.*' | sort); }
[ "$(names "$work/short")" = "$(names "$work/long")" ] ||
  fail "extended: $(names "$work/short" | tr '\n' ' '), uninterrupted: $(names "$work/long" | tr '\n' ' ')"
for f in snapshot_000016.raw snapshot_000040.raw traces.bin slice_x3_000040.png; do
  cmp -s "$work/short/$f" "$work/long/$f" || fail "extended: $f differs from the uninterrupted run's"
done
echo "ok  the first run's end slice (step 20) gone, the files and bytes of the uninterrupted run"
echo "== another run's files are never a report's or a timeline's"
for target in stencil-miniapp.run.json snapshot_000016.json checkpoints/step_000040/checkpoint.json; do
  before=$(fingerprint "$work/long")
  rc=0
  mini --steps 2 --report "$work/long/$target" >"$work/into-long.txt" 2>&1 || rc=$?
  { [ "$rc" = 2 ] && grep -q "a name this program's runs write" "$work/into-long.txt"; } ||
    { cat "$work/into-long.txt"; fail "--report $target was not refused"; }
  [ "$(fingerprint "$work/long")" = "$before" ] || fail "--report $target changed the other run's folder"
done
echo "ok  --report into another run's record, sidecar or checkpoint refused, nothing changed"

echo "== a user's file named as the record is refused, never overwritten"
mkdir -p "$work/theirs" && echo "my notes" >"$work/theirs/stencil-miniapp.run.json"
rc=0
mini --steps 2 --snapshot-every 1 --output "$work/theirs" >"$work/theirs.txt" 2>&1 || rc=$?
{ [ "$rc" = 2 ] && grep -q "is not this program's record of its outputs" "$work/theirs.txt"; } ||
  { cat "$work/theirs.txt"; fail "a user's stencil-miniapp.run.json was not refused"; }
[ "$(cat "$work/theirs/stencil-miniapp.run.json")" = "my notes" ] || fail "the user's file was overwritten"
echo "ok  refused, the user's file as it was"

echo "== a refused --output-force removes nothing"
mini --steps 20 --snapshot-every 10 --output "$work/forced2" >/dev/null
rm "$work/forced2/snapshot_000020.raw" && mkdir "$work/forced2/snapshot_000020.raw"
before=$(fingerprint "$work/forced2")
rc=0
mini --steps 20 --snapshot-every 10 --output "$work/forced2" --output-force >"$work/forced2.txt" 2>&1 || rc=$?
{ [ "$rc" = 2 ] && grep -q "is not a regular file; move it" "$work/forced2.txt"; } ||
  { cat "$work/forced2.txt"; fail "--output-force over a folder in the way was not refused"; }
[ "$(fingerprint "$work/forced2")" = "$before" ] || fail "the refused --output-force removed files"
echo "ok  refused before removing anything"

echo "== a damaged newest checkpoint is fallen back from, whatever --steps asks"
falls_back dmg 40 p.raw
# The run wrote step 40 again, over its own damaged one: the folder verifies.
python3 "$here/../tools/verify-output.py" "$work/dmg" >"$work/dmg-verify.txt" ||
  { cat "$work/dmg-verify.txt"; fail "after the restart the folder does not verify"; }
echo "ok  fell back to step 30 at --steps 40, bitwise; step 40 written again, the folder verifies"

echo "== a restart into its folder with an output it wrote gone is refused"
mini --steps 40 --checkpoint-every 20 --snapshot-every 10 --output "$work/gone" >/dev/null
rm "$work/gone/snapshot_000010.raw"
rc=0
mini --steps 40 --checkpoint-every 20 --snapshot-every 10 --output "$work/gone" \
  --restart "$work/gone/checkpoints/step_000020" >"$work/gone.txt" 2>&1 || rc=$?
{ [ "$rc" = 2 ] && grep -q "snapshot_000010.raw, which the run wrote before step 20, is missing" "$work/gone.txt"; } ||
  { cat "$work/gone.txt"; fail "a restart with a kept output gone was not refused"; }
echo "ok  refused, naming the missing file"

echo "== verify-output reads the folder's record"
verify() { local rc=0; python3 "$here/../tools/verify-output.py" "$1" >"$work/verify.txt" 2>&1 || rc=$?; echo "$rc"; }
[ "$(verify "$work/long")" = 0 ] || { cat "$work/verify.txt"; fail "a complete run does not verify"; }
# A clean-up cut short by SIGKILL leaves step_N.pruning: noted, harmless.
mkdir -p "$work/long/checkpoints/step_000010.pruning" && echo x >"$work/long/checkpoints/step_000010.pruning/p.raw"
{ [ "$(verify "$work/long")" = 0 ] && grep -q "^note .*step_000010.pruning: a checkpoint's clean-up cut short" "$work/verify.txt"; } ||
  { cat "$work/verify.txt"; fail "a cut-short clean-up is not a harmless note"; }
# A file the record lists, gone: the folder is not what the run left.
mv "$work/long/slice_x3_000008.png" "$work/slice.png"
{ [ "$(verify "$work/long")" = 1 ] && grep -q "slice_x3_000008.png: missing (the run's record lists it)" "$work/verify.txt"; } ||
  { cat "$work/verify.txt"; fail "a listed file gone is not a failure"; }
echo "ok  complete 0, a cut-short clean-up noted, a listed file gone 1"
echo "users' files kept"
