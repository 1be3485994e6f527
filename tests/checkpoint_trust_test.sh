#!/usr/bin/env bash
# Checkpoints as data: a hand-edited checkpoint.json (the step, against
# its CRC-32 and its folder's name) is not continued, the one before is,
# to the uninterrupted run's checksum; a folder holding another run's
# checkpoints is refused before step 1 and left as it was (--output-force
# clears them); a checkpoint that does not verify (a byte, an emptied
# checkpoint.json) is set aside whole as .kept, said so, and the run's
# folder still verifies; a folder named step_NNNNNN that the run did not write is
# never deleted; an unwritable --checkpoint-dir is refused before step 1; a
# completed restart removes its run's .partial checkpoints; and
# tools/verify-output.py checks every checkpoint file against its CRC-32.
# usage: checkpoint_trust_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
pre=("$@")
here=$(dirname "$0")
verify=$here/../tools/verify-output.py
rm -rf "$work" && mkdir -p "$work"
fail() { echo "checkpoint_trust_test: $*"; exit 1; }
# shellcheck disable=SC2054 # the commas are inside the grid size
base=(--grid 24,20,28 --checksum --quiet)
mini() { "$mpiexec" "$np_flag" 2 "$@" "$app" "${base[@]}" "${opts[@]}"; }
checksum() { grep '^checksum:' "$1" || true; }
# Every file under a folder, by its bytes: what "left as it was" means.
fingerprint() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r md5sum); }
wrap=() # a command the run goes through (a read-only mount below)
refused() { # REGEX: the run fails with exactly one line matching it
  bash "$here/expect_failure.sh" 60 "$1" "${wrap[@]}" "$mpiexec" "$np_flag" 2 "${pre[@]}" "$app" "${base[@]}" "${opts[@]}" ||
    fail "not refused as /$1/"
}

opts=(--steps 40)
mini "$@" >"$work/whole40.txt"
reference=$(checksum "$work/whole40.txt")
opts=(--steps 20)
mini "$@" >"$work/whole20.txt"
[ -n "$reference" ] || fail "no checksum from the uninterrupted run"

echo "== a hand-changed step is not continued"
opts=(--steps 20 --checkpoint-every 10 --output "$work/b")
mini "$@" >/dev/null
sed -i 's/"step": 20/"step": 30/' "$work/b/checkpoints/step_000020/checkpoint.json"
opts=(--steps 40 --checkpoint-every 10 --output "$work/b" --restart latest)
mini "$@" >"$work/edited.txt" 2>&1 || { cat "$work/edited.txt"; fail "the restart failed"; }
grep -q "note: checkpoint .*step_000020 does not verify (checkpoint.json: CRC-32" "$work/edited.txt" ||
  { cat "$work/edited.txt"; fail "the edited step was not reported"; }
grep -q "continuing from checkpoint .*step_000010 at step 10" "$work/edited.txt" ||
  { cat "$work/edited.txt"; fail "not continued from step 10"; }
[ "$(checksum "$work/edited.txt")" = "$reference" ] || fail "edited step: $(checksum "$work/edited.txt"), uninterrupted $reference"
echo "ok  edited step 20 -> 30 reported, continued from step 10: $reference"

echo "== a damaged checkpoint is set aside whole, never removed, and the run's folder verifies"
for damage in byte json; do
  opts=(--steps 20 --checkpoint-every 10 --output "$work/damaged-$damage")
  mini "$@" >/dev/null
  newest=$work/damaged-$damage/checkpoints/step_000020
  if [ $damage = byte ]; then # one byte of p flipped
    python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[100] ^= 1
open(sys.argv[1], "wb").write(b)' "$newest/p.raw"
  else
    : >"$newest/checkpoint.json"
  fi
  before=$(fingerprint "$newest")
  # With checkpoints due where it lies (the byte), and without (the JSON).
  opts=(--steps 40 --output "$work/damaged-$damage" --restart latest)
  [ $damage = byte ] && opts+=(--checkpoint-every 10)
  mini "$@" >"$work/damaged-$damage.txt" 2>&1 || { cat "$work/damaged-$damage.txt"; fail "$damage: the restart failed"; }
  grep -q "note: checkpoint .*step_000020 does not .*; set aside as .*step_000020.kept" \
    "$work/damaged-$damage.txt" || { cat "$work/damaged-$damage.txt"; fail "$damage: not set aside, or not said"; }
  grep -q "continuing from checkpoint .*step_000010 at step 10" "$work/damaged-$damage.txt" ||
    { cat "$work/damaged-$damage.txt"; fail "$damage: not continued from step 10"; }
  [ "$(checksum "$work/damaged-$damage.txt")" = "$reference" ] || fail "$damage: $(checksum "$work/damaged-$damage.txt")"
  kept=$newest.kept
  [ -f "$kept/set-aside.txt" ] || fail "$damage: $kept has no set-aside.txt"
  [ "$(fingerprint "$kept" | grep -v set-aside.txt)" = "$before" ] || fail "$damage: the set-aside checkpoint changed"
  python3 "$verify" "$work/damaged-$damage" >"$work/damaged-$damage-verify.txt" ||
    { cat "$work/damaged-$damage-verify.txt"; fail "$damage: verify-output failed the finished run's folder"; }
  grep -q "step_000020.kept: a checkpoint set aside whole, by a restart: it does not" \
    "$work/damaged-$damage-verify.txt" || { cat "$work/damaged-$damage-verify.txt"; fail "$damage: verify-output did not say"; }
done
# Where it was written, the same damage fails the folder: verify-output tells the two apart.
opts=(--steps 20 --checkpoint-every 10 --output "$work/damaged-here")
mini "$@" >/dev/null
: >"$work/damaged-here/checkpoints/step_000020/checkpoint.json"
python3 "$verify" "$work/damaged-here" >/dev/null && fail "a damaged checkpoint in place verified"
echo "ok  a flipped byte and an emptied checkpoint.json: set aside as .kept, untouched, reported; the same checksum"

echo "== a folder whose name disagrees with its checkpoint.json"
opts=(--steps 20 --checkpoint-every 10 --output "$work/renamed")
mini "$@" >/dev/null
mv "$work/renamed/checkpoints/step_000020" "$work/renamed/checkpoints/step_000030"
opts=(--steps 40 --checkpoint-every 10 --output "$work/renamed" --restart latest)
mini "$@" >"$work/renamed.txt" 2>&1 || { cat "$work/renamed.txt"; fail "the restart failed"; }
grep -q "note: checkpoint .*step_000030 does not verify (its folder says step 30, checkpoint.json step 20)" \
  "$work/renamed.txt" || { cat "$work/renamed.txt"; fail "the renamed folder was not reported"; }
[ "$(checksum "$work/renamed.txt")" = "$reference" ] || fail "renamed: $(checksum "$work/renamed.txt")"
echo "ok  step_000020 renamed step_000030 reported, same checksum"

echo "== another run's checkpoints are refused, and left as they were"
opts=(--steps 40 --checkpoint-every 10 --output "$work/a")
mini "$@" >/dev/null
before=$(fingerprint "$work/a")
opts=(--steps 20 --checkpoint-every 10 --source "6,6,6" --output "$work/a")
refused "--output .*/a holds checkpoints of another run \(.*step_000040.*\); pass --output-force to remove them, or choose another folder"
opts=(--steps 20 --checkpoint-every 10 --output "$work/a")
refused "holds checkpoints of another run .*continue it with --restart latest"
opts=(--steps 50 --checkpoint-every 10 --source "6,6,6" --output "$work/a" --restart latest)
refused "--restart .*/a/checkpoints/step_000040: the checkpoint's source is \[12,10,14\], this run's is \[6,6,6\] \(only timing"
opts=(--steps 20 --checkpoint-every 10 --source "6,6,6" --output "$work/a2" --checkpoint-dir "$work/a/checkpoints")
refused "--checkpoint-dir .*/a/checkpoints holds checkpoints of another run"
[ "$(fingerprint "$work/a")" = "$before" ] || fail "the refused runs changed the other run's checkpoints"
opts=(--steps 20 --checkpoint-every 10 --source "6,6,6" --output "$work/a" --output-force)
mini "$@" >"$work/forced.txt" 2>&1 || { cat "$work/forced.txt"; fail "--output-force failed"; }
grep -q "note: --output-force: removed 2 checkpoints of another run" "$work/forced.txt" ||
  { cat "$work/forced.txt"; fail "--output-force did not say what it removed"; }
[ "$(cd "$work/a/checkpoints" && echo step_*)" = "step_000010 step_000020" ] ||
  fail "after --output-force: $(cd "$work/a/checkpoints" && echo step_*)"
echo "ok  refused in one line (other --source, same settings, shared --checkpoint-dir); --output-force clears them"

echo "== an older version's checkpoints (no seal) are refused, not continued, and kept"
opts=(--steps 20 --checkpoint-every 10 --output "$work/old")
mini "$@" >/dev/null
for f in "$work"/old/checkpoints/step_*/checkpoint.json; do # as written before the seal
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for k in ("settings", "run", "crc32"): d.pop(k, None)
json.dump(d, open(sys.argv[1], "w"), indent=2)' "$f"
done
before=$(fingerprint "$work/old")
opts=(--steps 40 --checkpoint-every 10 --output "$work/old" --restart latest)
refused "--output .*/old holds checkpoints of another run \(run unnamed, step_000020, written by an older version, which this one cannot continue"
[ "$(fingerprint "$work/old")" = "$before" ] || fail "the refused run changed the older version's checkpoints"
echo "ok  an older version's checkpoints refused by name, left as they were"

echo "== a folder named like a checkpoint that the run did not write"
mkdir -p "$work/ck/step_000001" "$work/ck/step_000003.partial"
echo "mine" >"$work/ck/step_000001/notes.txt"
echo "mine" >"$work/ck/step_000003.partial/notes.txt"
opts=(--steps 8 --checkpoint-every 2 --output "$work/c" --checkpoint-dir "$work/ck")
mini "$@" >/dev/null
for kept in step_000001 step_000003.partial; do
  [ -f "$work/ck/$kept/notes.txt" ] || fail "the user's $kept was deleted"
done
[ "$(cd "$work/ck" && echo step_*)" = "step_000001 step_000003.partial step_000006 step_000008" ] ||
  fail "the checkpoint folder holds $(cd "$work/ck" && echo step_*)"
mkdir -p "$work/ck4/step_000004"
opts=(--steps 8 --checkpoint-every 2 --output "$work/c4" --checkpoint-dir "$work/ck4")
refused "--checkpoint-dir .*/ck4: step_000004 is not a checkpoint of this program, and the run would write one there"
echo "ok  the user's folders kept, the run's two newest checkpoints kept", one in the way refused

echo "== an unwritable --checkpoint-dir, before step 1"
touch "$work/file"
opts=(--steps 5 --checkpoint-every 1000 --output "$work/d" --checkpoint-dir "$work/file")
refused "--checkpoint-dir .*/file: not a folder"
opts=(--steps 5 --checkpoint-every 1000 --output "$work/d" --checkpoint-dir "$work/file/ck")
refused "--checkpoint-dir .*/file/ck: cannot create"
# Root writes into a folder without write permission: there, a read-only
# bind mount in a mount namespace of its own, where unshare may make one.
mkdir -p "$work/readonly"
opts=(--steps 5 --checkpoint-every 1000 --output "$work/d" --checkpoint-dir "$work/readonly")
# shellcheck disable=SC2016 # $0 and $@ are the inner shell's
if [ "$(id -u)" != 0 ]; then
  chmod 555 "$work/readonly"
elif unshare -m sh -c 'mount --bind -o ro "$0" "$0"' "$work/readonly" 2>/dev/null; then
  wrap=(unshare -m sh -c 'mount --bind -o ro "$0" "$0" && exec "$@"' "$work/readonly")
else
  opts=()
  echo "skip  a read-only folder: root here, and no read-only mount to be had"
fi
if [ "${#opts[@]}" -gt 0 ]; then
  refused "--checkpoint-dir .*/readonly: cannot write in it \(Read-only file system|Permission denied\)"
  echo "ok  a read-only folder refused"
fi
wrap=()
echo "ok  a file, and a path under a file, refused before step 1"

echo "== a completed restart removes its run's .partial checkpoints"
opts=(--steps 20 --checkpoint-every 10 --output "$work/p")
mini "$@" >/dev/null
cp -r "$work/p/checkpoints/step_000010" "$work/p/checkpoints/step_000015.partial"
opts=(--steps 40 --checkpoint-every 10 --output "$work/p" --restart latest)
mini "$@" >"$work/p.txt" 2>&1 || { cat "$work/p.txt"; fail "the restart failed"; }
[ "$(checksum "$work/p.txt")" = "$reference" ] || fail ".partial restart: $(checksum "$work/p.txt")"
[ "$(cd "$work/p/checkpoints" && echo step_*)" = "step_000030 step_000040" ] ||
  fail "after the restart: $(cd "$work/p/checkpoints" && echo step_*)"
echo "ok  step_000015.partial removed"

echo "== a live run's checkpoint folder is locked, even against --output-force"
"$mpiexec" "$np_flag" 1 "${pre[@]}" "$app" --grid 64,64,64 --steps 1000000 --quiet \
  --checkpoint-every 20 --output "$work/lv" >"$work/live.txt" 2>&1 &
live=$!
trap 'kill "$live" 2>/dev/null || true' EXIT
live_checkpoints() { find "$work/lv/checkpoints" -maxdepth 1 -name 'step_??????' 2>/dev/null | head -1; }
for _ in $(seq 600); do [ -n "$(live_checkpoints)" ] && break; sleep 0.1; done
[ -n "$(live_checkpoints)" ] || { cat "$work/live.txt"; fail "the live run wrote no checkpoint"; }
opts=(--steps 20 --checkpoint-every 10 --radius 2 --output "$work/lv3" --checkpoint-dir "$work/lv/checkpoints" --output-force)
refused "--checkpoint-dir .*/lv/checkpoints is in use by a running job \(host .*\); give each run its own folder"
[ -n "$(live_checkpoints)" ] || fail "the refused run removed the live run's checkpoints"
kill "$live" && { wait "$live" || true; }
trap - EXIT
mkdir -p "$work/dead"
printf '{"host":"%s","pid":999999999,"started":"2020-01-01T00:00:00Z"}' "$(hostname)" \
  >"$work/dead/stencil-miniapp.lock"
opts=(--steps 20 --checkpoint-every 10 --output "$work/lv4" --checkpoint-dir "$work/dead")
mini "$@" >"$work/dead.txt" 2>&1 || { cat "$work/dead.txt"; fail "a dead run's lock was not taken over"; }
grep -q "note: --checkpoint-dir .*/dead: took over the lock of a run that died" "$work/dead.txt" ||
  { cat "$work/dead.txt"; fail "the takeover was not noted"; }
[ "$(checksum "$work/dead.txt")" = "$(checksum "$work/whole20.txt")" ] || fail "dead lock: $(checksum "$work/dead.txt")"
[ ! -e "$work/dead/stencil-miniapp.lock" ] || fail "the lock was left behind"
echo "ok  a live run's --checkpoint-dir refused with --output-force, a dead one's lock taken over"

echo "== pruning leaves the user's files in a checkpoint folder"
mkdir -p "$work/usr/mine" && echo "mine" >"$work/usr/NOTES.txt" && echo "mine" >"$work/usr/mine/a.txt"
opts=(--steps 20 --checkpoint-every 10 --output "$work/u")
mini "$@" >/dev/null
cp -r "$work/usr/." "$work/u/checkpoints/step_000010/"
opts=(--steps 40 --checkpoint-every 10 --output "$work/u" --restart latest)
mini "$@" >"$work/u.txt" 2>&1 || { cat "$work/u.txt"; fail "the restart failed"; }
[ "$(checksum "$work/u.txt")" = "$reference" ] || fail "user files: $(checksum "$work/u.txt")"
[ "$(fingerprint "$work/u/checkpoints/step_000010")" = "$(fingerprint "$work/usr")" ] ||
  fail "step_000010 holds $(fingerprint "$work/u/checkpoints/step_000010"), not the user's files"
grep -q "note: left .*step_000010: it holds files the checkpoint did not write" "$work/u.txt" ||
  { cat "$work/u.txt"; fail "the kept folder was not noted"; }
[ "$(cd "$work/u/checkpoints" && echo step_*)" = "step_000010 step_000030 step_000040" ] ||
  fail "after pruning: $(cd "$work/u/checkpoints" && echo step_*)"
echo "ok  the checkpoint's files pruned, the user's NOTES.txt and mine/ kept"

echo "== a checkpoint that does not verify is neither kept as one of two nor deleted"
opts=(--steps 20 --checkpoint-every 10 --output "$work/nv")
mini "$@" >/dev/null
mv "$work/nv/checkpoints/step_000020" "$work/nv/checkpoints/step_000035"
opts=(--steps 40 --checkpoint-every 10 --output "$work/nv" --restart latest)
mini "$@" >"$work/nv.txt" 2>&1 || { cat "$work/nv.txt"; fail "the restart failed"; }
[ "$(checksum "$work/nv.txt")" = "$reference" ] || fail "not verifying: $(checksum "$work/nv.txt")"
[ "$(cd "$work/nv/checkpoints" && echo step_*)" = "step_000030 step_000035.kept step_000040" ] ||
  fail "after the restart: $(cd "$work/nv/checkpoints" && echo step_*)"
echo "ok  step_000030 and step_000040 kept, step_000035 (does not verify) set aside whole"

echo "== another run's stale .partial is no restart candidate"
opts=(--steps 20 --checkpoint-every 10 --source "6,6,6" --output "$work/o")
mini "$@" >/dev/null
opts=(--steps 20 --checkpoint-every 10 --output "$work/q")
mini "$@" >/dev/null
cp -r "$work/o/checkpoints/step_000020" "$work/q/checkpoints/step_000025.partial"
before=$(fingerprint "$work/q/checkpoints/step_000025.partial")
opts=(--steps 40 --checkpoint-every 10 --output "$work/q" --restart latest)
mini "$@" >"$work/q.txt" 2>&1 || { cat "$work/q.txt"; fail "the restart failed"; }
[ "$(checksum "$work/q.txt")" = "$reference" ] || fail "stale .partial: $(checksum "$work/q.txt")"
[ "$(fingerprint "$work/q/checkpoints/step_000025.partial")" = "$before" ] ||
  fail "another run's .partial was changed"
echo "ok  continued past another run's step_000025.partial, which is left as it was"

echo "== a file named like a due checkpoint, before step 1"
mkdir -p "$work/f/checkpoints" && echo "mine" >"$work/f/checkpoints/step_000020"
opts=(--steps 40 --checkpoint-every 10 --output "$work/f")
refused "--output .*/f: step_000020 is a file, not a checkpoint of this program, and the run would write one there"
[ "$(cat "$work/f/checkpoints/step_000020")" = "mine" ] || fail "the user's file was changed"
echo "ok  the file refused by name, left as it was"

echo "== restart messages"
opts=(--steps 20 --checkpoint-every 10 --output "$work/m")
mini "$@" >/dev/null
opts=(--steps 15 --output "$work/m" --restart latest)
refused "the checkpoint is at step 20, and --steps 15 asks for fewer steps than the checkpoint has"
opts=(--steps 40 --output "$work/m2" --restart "$work/m")
refused "--restart .*/m: no checkpoint in .*/m \(checkpoints are in .*/m/checkpoints\)"
echo "ok  --steps below the checkpoint's, and --restart naming the output folder, explained"

echo "== verify-output checks the checkpoints"
python3 "$verify" "$work/p" >"$work/verify.txt" || { cat "$work/verify.txt"; fail "verify-output failed"; }
grep -q "ok  .*checkpoints/step_000040/p_prev.raw" "$work/verify.txt" ||
  { cat "$work/verify.txt"; fail "verify-output did not check the checkpoint files"; }
cp -r "$work/p/checkpoints/step_000040" "$work/p/checkpoints/step_000045.partial"
python3 "$verify" "$work/p" >"$work/verify.txt" && status=0 || status=$?
if [ "$status" != 3 ] || ! grep -q "INCOMPLETE .*checkpoints/step_000045.partial" "$work/verify.txt"; then
  cat "$work/verify.txt"; fail "verify-output: exit $status on a .partial checkpoint, not 3"
fi
rm -r "$work/p/checkpoints/step_000045.partial"
python3 - "$work/p/checkpoints/step_000040/p.raw" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(100); b = f.read(1); f.seek(100); f.write(bytes([b[0] ^ 1]))
PY
python3 "$verify" "$work/p" >"$work/verify.txt" && status=0 || status=$?
if [ "$status" != 1 ] || ! grep -q "FAILED .*checkpoints/step_000040/p.raw: CRC-32" "$work/verify.txt"; then
  cat "$work/verify.txt"; fail "verify-output: exit $status on a damaged checkpoint, not 1"
fi
echo "ok  verify-output: complete (0), a .partial (3), a damaged file (1)"
echo "checkpoint trust ok"
