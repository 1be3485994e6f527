#!/usr/bin/env bash
# Outputs are never lost silently, under real mpirun (HOST back-end):
#  - a full disk fails the run with one line naming the file, leaving only
#    complete files, each verified by its sidecar: a real 1 MiB tmpfs where
#    this machine lets us mount one, and always the injected ENOSPC;
#  - the up-front space check refuses a run that cannot fit;
#  - a second run on a folder in use is refused, and the first's files verify;
#  - a dead run's lock (same host, no such process) is taken over with a
#    note; another host's is refused, and --output-force takes it over;
#  - a finished run's folder is refused, and --output-force replaces it;
#  - the verify command catches a truncated file and a changed byte.
# usage: output_safety_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
verify=$here/../tools/verify-output.py
rm -rf "$work" && mkdir -p "$work"
preflags=("$@")
mini() { local np=$1; shift; "$mpiexec" "$np_flag" "$np" "${preflags[@]}" "$app" "$@"; }
expect_failure() { bash "$here/expect_failure.sh" "$@"; }
fail() { echo "output_safety_test: $*"; exit 1; }
# shellcheck disable=SC2054 # the commas are inside the grid size
small=(--grid 64,64,40 --steps 20 --warmup 0 --snapshot-every 5 --quiet)

# After a failed write: no zero-byte or partial file under a final name, no
# sidecar without its complete file, and the earlier snapshot intact.
check_left_clean() {
  local dir=$1
  [ -z "$(find "$dir" -type f -size 0)" ] || fail "zero-byte files left in $dir: $(find "$dir" -size 0)"
  [ -z "$(find "$dir" -name '*.partial')" ] || fail "partial files left in $dir"
  [ -f "$dir/snapshot_000005.json" ] || fail "the snapshot before the failure is gone from $dir"
  [ ! -e "$dir/snapshot_000010.json" ] || fail "a sidecar for the failed snapshot in $dir"
  [ ! -e "$dir/snapshot_000015.raw" ] || fail "a later snapshot was attempted in $dir"
  # Intact but not complete: the run's record says it failed (exit 3).
  local verified=0
  python3 "$verify" "$dir" >"$dir.verify.txt" || verified=$?
  { [ "$verified" = 3 ] && grep -q "the run failed after step" "$dir.verify.txt"; } ||
    { cat "$dir.verify.txt"; fail "what is left in $dir: verify-output exit $verified, not 3 (failed run)"; }
}

echo "== full disk"
full=$work/full
mkdir -p "$full"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=1m stencil-test "$full" 2>/dev/null; then
  trap 'umount "$full" 2>/dev/null || true' EXIT
  expect_failure 30 "--output .*/full/up-front: the run will write up to .* MiB, and the file system has .* KiB free" \
    "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" "${small[@]}" --output "$full/up-front"
  # Past the space check, the second snapshot does not fit: Open MPI's
  # default I/O component reports success for it, the read-back does not.
  expect_failure 60 "writing .*/full/real/snapshot_000010.raw: No space left on device" \
    "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" "${small[@]}" --output "$full/real" --output-force
  check_left_clean "$full/real"
  umount "$full"
  trap - EXIT
else
  echo "full disk: cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN); the injected ENOSPC below tests the same path"
fi
expect_failure 60 "writing .*/injected/snapshot_000010.raw: No space left on device \(injected\)" \
  "$mpiexec" "$np_flag" 3 "${preflags[@]}" "$app" "${small[@]}" --output "$work/injected" --inject-fault write-error
check_left_clean "$work/injected"

echo "== the space check"
expect_failure 30 "--output .*/huge: the run will write up to [0-9.]+ TiB, and the file system has .* free" \
  "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" --grid 4000,4000,4000 --steps 100 --snapshot-every 1 --output "$work/huge"

echo "== two runs, one folder"
# The first run lasts seconds (2 x 1000 steps of 128^3 cells), the second is refused in its first.
mini 2 --grid 128,128,128 --steps 1000 --warmup 0 --snapshot-every 500 --quiet --output "$work/shared" >"$work/first.txt" 2>&1 &
first=$!
for _ in $(seq 300); do [ -e "$work/shared/stencil-miniapp.lock" ] && break; sleep 0.05; done
[ -e "$work/shared/stencil-miniapp.lock" ] || fail "the first run took no lock"
expect_failure 30 "--output .*/shared is in use by a running job \(host .*, pid [0-9]+" \
  "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" "${small[@]}" --output "$work/shared"
wait "$first" || { cat "$work/first.txt"; fail "the first run failed"; }
[ ! -e "$work/shared/stencil-miniapp.lock" ] || fail "the first run left its lock"
python3 "$verify" "$work/shared" | tail -1
[ "$(python3 "$verify" "$work/shared" | grep -c '^ok .*\.raw:')" -eq 2 ] || fail "the first run's 2 snapshots do not verify"

echo "== a dead run's lock"
mini 2 "${small[@]}" --steps 1000 --output "$work/dead" --inject-fault fail-rank=0 >/dev/null 2>&1 && fail "the failing run exited 0"
[ -e "$work/dead/stencil-miniapp.lock" ] || fail "a run that died left no lock"
# Same host, no such process: provably dead, taken over with a note.
mini 2 "${small[@]}" --output "$work/dead" >"$work/taken.txt" 2>&1 || { cat "$work/taken.txt"; fail "a dead run's lock was not taken over"; }
grep -q "note: --output .*/dead: took over the lock of a run that died (host $(hostname), pid [0-9]*" "$work/taken.txt" ||
  { cat "$work/taken.txt"; fail "the dead run's lock was taken over without a word"; }
python3 "$verify" "$work/dead" >/dev/null || fail "the run's files after the takeover do not verify"
# With checkpoints, the folder inside --output has a lock of its own: each
# takeover note names its folder, once.
mini 2 "${small[@]}" --steps 1000 --checkpoint-every 5 --output "$work/dead2" --inject-fault fail-rank=0 >/dev/null 2>&1 &&
  fail "the failing run with checkpoints exited 0"
mini 2 "${small[@]}" --checkpoint-every 5 --output "$work/dead2" >"$work/taken2.txt" 2>&1 ||
  { cat "$work/taken2.txt"; fail "the dead run's two locks were not taken over"; }
if [ "$(grep -c "note: --output .*/dead2: took over the lock" "$work/taken2.txt")" != 1 ] ||
  [ "$(grep -c "note: the checkpoint folder .*/dead2/checkpoints: took over the lock" "$work/taken2.txt")" != 1 ]; then
  cat "$work/taken2.txt"; fail "the takeover notes do not name each folder once"
fi
# The user's files that only look like a run's are not judged (the mini-app
# leaves them be too): not JSON, no sidecar, a .partial of their own.
echo '{' >"$work/dead/snapshot_notes.json" && echo x >"$work/dead/snapshot_12.raw"
echo x >"$work/dead/data.partial"
python3 "$verify" "$work/dead" >"$work/verify.txt" || { cat "$work/verify.txt"; fail "verify judged the user's files"; }

echo "== a lock from another host"
mkdir -p "$work/elsewhere"
printf '{"host": "%s-elsewhere", "pid": 4242, "started": "2026-01-01T00:00:00Z"}' "$(hostname)" \
  >"$work/elsewhere/stencil-miniapp.lock"
expect_failure 30 "--output .*/elsewhere has a lock from a run that cannot be checked from here \(host .*-elsewhere, pid 4242.*pass --output-force" \
  "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" "${small[@]}" --output "$work/elsewhere"
mini 2 "${small[@]}" --output "$work/elsewhere" --output-force >"$work/forced.txt" 2>&1 || { cat "$work/forced.txt"; fail "--output-force did not proceed"; }
grep -q "note: --output-force: replaced the lock of an unverifiable run" "$work/forced.txt" || fail "the lock was replaced without a word"

echo "== a finished run's folder"
expect_failure 30 "--output .*/dead already holds a finished run's outputs \([0-9]+ files, such as snapshot_" \
  "$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" "${small[@]}" --output "$work/dead"
mini 2 --grid 64,64,40 --steps 6 --warmup 0 --snapshot-every 3 --quiet --output "$work/dead" --output-force \
  >"$work/replaced.txt" 2>&1 || fail "--output-force did not replace a finished run"
# Four snapshots, each a raw file, its XDMF and its sidecar, and the series.
grep -q "removed 13 files of an earlier run" "$work/replaced.txt" || { cat "$work/replaced.txt"; fail "the old files were not reported removed"; }
[ ! -e "$work/dead/snapshot_000020.raw" ] || fail "a file of the earlier run survived --output-force"

echo "== the verify command can fail"
cp -r "$work/shared" "$work/damaged"
python3 - "$work/damaged" <<'PY'
import os, sys
d = sys.argv[1]
with open(os.path.join(d, "snapshot_000500.raw"), "r+b") as f:  # one byte changed
    f.seek(12345); b = f.read(1); f.seek(12345); f.write(bytes([b[0] ^ 0x10]))
os.truncate(os.path.join(d, "snapshot_001000.raw"), 4096)    # truncated
PY
if python3 "$verify" "$work/damaged" >"$work/verify.txt"; then cat "$work/verify.txt"; fail "verify passed a damaged folder"; fi
grep -q "FAILED .*snapshot_000500.raw: CRC-32" "$work/verify.txt" || fail "verify missed the changed byte"
grep -q "FAILED .*snapshot_001000.raw: 4096 bytes, its sidecar says" "$work/verify.txt" || fail "verify missed the truncation"
echo "output safety ok"
