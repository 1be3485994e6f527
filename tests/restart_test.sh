#!/usr/bin/env bash
# Checkpoint and restart: a run stopped part way and continued from its
# checkpoint ends with the final field, snapshots (and their XDMF files and
# series), slice images, traces (raw and SEG-Y) and shot gather of an
# uninterrupted run, bit for bit, on another rank count
# (1 -> 1, 4 -> 3, 2 -> 8), in FP32 and FP64, with a sponge and a layered
# model, and with deep halos on one side; a damaged newest checkpoint falls
# back to the one before; a changed configuration (the physics or the
# outputs) and a missing checkpoint are refused in one line. Progress after
# a restart counts the steps of this run alone. Where the build has HDF5
# (STENCIL_TEST_HDF5=1), a run with --output-format hdf5 stopped on 4 ranks
# and continued on 3 ends with the uninterrupted run's .h5 files, byte for
# byte, and a restart in the other format is refused.
# usage: restart_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
here=$(dirname "$0")
rm -rf "$work" && mkdir -p "$work"
fail() { echo "restart_test: $*"; exit 1; }
mini() { local np=$1; shift; "$mpiexec" "$np_flag" "$np" "$@" "$app" "${opts[@]}"; }
checksum() { grep '^checksum:' "$1" || true; }
# Every output of the uninterrupted run ($1) is in $2 with the same bytes, and nothing else is.
# (A pattern that matches nothing, *.h5 of a raw run, stays as it is in both.)
outputs_of() { (cd "$1" && printf '%s ' ./*.raw ./*.h5 ./*.png ./*.bin ./*.xmf ./*.sgy); }
same_outputs() {
  local name
  [ "$(outputs_of "$1")" = "$(outputs_of "$2")" ] || fail "$3: the output files differ: $(outputs_of "$2")"
  for name in "$1"/*.raw "$1"/*.h5 "$1"/*.png "$1"/*.bin "$1"/*.xmf; do
    [ -e "$name" ] || continue
    cmp -s "$name" "$2/${name##*/}" || fail "$3: ${name##*/} differs from the uninterrupted run's"
  done
  # The SEG-Y's textual header names the process that wrote it; the rest is the run's.
  cmp -s <(tail -c +3201 "$1/traces.sgy") <(tail -c +3201 "$2/traces.sgy") ||
    fail "$3: traces.sgy differs from the uninterrupted run's past its textual header"
}
# Three receivers, one on the x and y rank boundaries of the 4-rank grid, and a receiver line.
printf '20,18,10\n5,5,30\n30,30,38\n' >"$work/receivers.txt"
# shellcheck disable=SC2054 # the commas are inside the grid size
problem=(--grid 40,36,44 --model layered --sponge 4 --steps 30 --checksum --quiet
         --snapshot-every 10 --slice y=18 --receivers "$work/receivers.txt" --receiver-line z=6 --trace-format both)

for precision in fp32 fp64; do
  opts=("${problem[@]}" --precision "$precision" --output "$work/whole-$precision")
  mini 1 "$@" >"$work/whole-$precision.txt"
  reference=$(checksum "$work/whole-$precision.txt")
  [ -n "$reference" ] || fail "no checksum from the uninterrupted run"
  for pair in 1:1 4:3 2:8; do
    before=${pair%:*} after=${pair#*:} dir=$work/ck-$precision-$before-$after
    # Stopped at step 17 with checkpoints at 7 and 14 (deep halos on the 4-rank side).
    depth=1; [ "$before" = 4 ] && depth=3
    # It wrote its last slice at 17 and 17 steps of traces, which the restart removes.
    opts=("${problem[@]}" --precision "$precision" --steps 17 --checkpoint-every 7 --checkpoint-dir "$dir"
          --halo-depth "$depth" --output "$dir-out")
    mini "$before" "$@" >/dev/null
    opts=("${problem[@]}" --precision "$precision" --checkpoint-dir "$dir" --restart latest --output "$dir-out")
    mini "$after" "$@" >"$work/restarted.txt" 2>&1 || { cat "$work/restarted.txt"; fail "the restart failed"; }
    grep -q "continuing from checkpoint .*step_000014 at step 14" "$work/restarted.txt" ||
      { cat "$work/restarted.txt"; fail "$precision $pair: not continued from step 14"; }
    [ "$(checksum "$work/restarted.txt")" = "$reference" ] ||
      fail "$precision $pair: $(checksum "$work/restarted.txt"), uninterrupted $reference"
    same_outputs "$work/whole-$precision" "$dir-out" "$precision $pair"
    echo "ok  $precision, $before ranks stopped at 17, $after ranks continued from 14: $reference, same outputs"
  done
done

if [ "${STENCIL_TEST_HDF5:-0}" = 1 ]; then
  echo "== HDF5 snapshots across a restart"
  opts=("${problem[@]}" --output-format hdf5 --output "$work/whole-hdf5")
  mini 1 "$@" >"$work/whole-hdf5.txt"
  dir=$work/ck-hdf5-4-3
  opts=("${problem[@]}" --output-format hdf5 --steps 17 --checkpoint-every 7 --checkpoint-dir "$dir"
        --halo-depth 3 --output "$dir-out")
  mini 4 "$@" >/dev/null
  opts=("${problem[@]}" --output-format hdf5 --checkpoint-dir "$dir" --restart latest --output "$dir-out")
  mini 3 "$@" >"$work/restarted.txt" 2>&1 || { cat "$work/restarted.txt"; fail "the HDF5 restart failed"; }
  [ "$(checksum "$work/restarted.txt")" = "$(checksum "$work/whole-hdf5.txt")" ] || fail "hdf5: another checksum"
  ls "$dir-out"/snapshot_000010.h5 "$dir-out"/snapshot_000030.h5 >/dev/null || fail "hdf5: no .h5 snapshots"
  same_outputs "$work/whole-hdf5" "$dir-out" "hdf5 4:3"
  echo "ok  hdf5, 4 ranks stopped at 17, 3 ranks continued from 14: the same .h5 files, byte for byte"
  bash "$here/expect_failure.sh" 20 "--restart .*step_000014: the checkpoint's snapshot_format is \"hdf5\", this run's is \"raw\"" \
    "$mpiexec" "$np_flag" 2 "$@" "$app" "${problem[@]}" --output "$work/changed" --restart "$dir/step_000014"
else
  echo "== HDF5 snapshots across a restart: skipped, this build has no HDF5"
fi

echo "== a damaged checkpoint: the one before is used"
dir=$work/ck-fp32-1-1
python3 - "$dir/step_000014/p.raw" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(1000); b = f.read(1); f.seek(1000); f.write(bytes([b[0] ^ 1]))
PY
opts=("${problem[@]}" --checkpoint-dir "$dir" --restart latest --output "$dir-out")
mini 2 "$@" >"$work/fallback.txt" 2>&1 || { cat "$work/fallback.txt"; fail "the fallback failed"; }
grep -q "note: checkpoint .*step_000014 does not verify (p.raw: CRC-32" "$work/fallback.txt" ||
  { cat "$work/fallback.txt"; fail "the damaged checkpoint was not reported"; }
grep -q "continuing from checkpoint .*step_000007 at step 7" "$work/fallback.txt" || fail "not continued from step 7"
[ "$(checksum "$work/fallback.txt")" = "$(checksum "$work/whole-fp32.txt")" ] || fail "the fallback changed the result"
same_outputs "$work/whole-fp32" "$dir-out" "the fallback"
echo "ok  damaged step 14 reported, continued from step 7, same checksum and outputs"

echo "== progress after a restart: the rate is this run's steps over its time"
# Continued at step 180 of 200, a rate counted from step 0 reads 10x the
# FOM; counted from the restart, the two measure the same 20 steps. The
# bounds are wide (3x either way): this checks what is counted, not speed.
# shellcheck disable=SC2054 # the commas are inside the grid size
opts=(--grid 48,40,44 --progress 0 --checkpoint-dir "$work/progress" --steps 180 --checkpoint-every 180)
mini 2 "$@" >"$work/progress1.txt" 2>&1 || { cat "$work/progress1.txt"; fail "progress: the first run failed"; }
# shellcheck disable=SC2054 # the commas are inside the grid size
opts=(--grid 48,40,44 --progress 0 --checkpoint-dir "$work/progress" --steps 200 --restart latest)
mini 2 "$@" >"$work/progress2.txt" 2>&1 || { cat "$work/progress2.txt"; fail "progress: the restart failed"; }
rate=$(sed -n 's|^progress: step 200/200 .* \([0-9.]*\) Gcell/s$|\1|p' "$work/progress2.txt")
fom=$(sed -n 's|^FOM: \([0-9.]*\) Gcell/s.*|\1|p' "$work/progress2.txt")
python3 -c 'import sys; r = float(sys.argv[1]) / float(sys.argv[2]); sys.exit(not 1 / 3 < r < 3)' "$rate" "$fom" ||
  { cat "$work/progress2.txt"; fail "progress after the restart: $rate Gcell/s against the FOM's $fom"; }
echo "ok  progress $rate Gcell/s, FOM $fom Gcell/s after a restart at step 180"

echo "== refusals"
bash "$here/expect_failure.sh" 20 "--restart .*step_000014: the checkpoint's f0_hz is 10.0, this run's is 12.0" \
  "$mpiexec" "$np_flag" 2 "$@" "$app" "${problem[@]}" --f0 12 --restart "$work/ck-fp32-4-3/step_000014"
bash "$here/expect_failure.sh" 20 "--restart .*step_000014: the checkpoint's snapshot_every is 10, this run's is 5" \
  "$mpiexec" "$np_flag" 2 "$@" "$app" "${problem[@]}" --snapshot-every 5 --output "$work/changed" \
  --restart "$work/ck-fp32-4-3/step_000014"
bash "$here/expect_failure.sh" 20 "--restart .*step_000014: the checkpoint's receivers is .*count.:43" \
  "$mpiexec" "$np_flag" 2 "$@" "$app" "${problem[@]}" --receiver-line z=7 --output "$work/changed" \
  --restart "$work/ck-fp32-4-3/step_000014"
bash "$here/expect_failure.sh" 20 "--restart latest: no checkpoint in .*/none" \
  "$mpiexec" "$np_flag" 2 "$@" "$app" "${problem[@]}" --checkpoint-dir "$work/none" --restart latest
echo "restart ok"
