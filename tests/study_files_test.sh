#!/usr/bin/env bash
# The study's scripts and tools write only new files, and the small tools
# fail in one line (issue 68; each case failed before its fix):
#  6. run.sh refuses a folder that holds files (a study's environment.txt
#     stays whole), and with --report elsewhere says where the report is;
#  7. generic/weak.sbatch (under a stand-in srun), into a folder that holds
#     its 4-rank report, is refused before its first run;
# 11. verify-output.py on a checkpoint.json whose files is a list,
#     timeline-svg.py over a report, fom-steady.sh without its program,
#     report-table.py ucx and peer with nothing to show: one line, non-zero,
#     nothing written; peer writes a file only where --out names a new one;
#     a HOST rank's 0.012 Gcell/s shows as such; a machine file in another
#     unit or with a key twice is refused, naming it;
# 12. scaling.sh takes a relative RESULTS, APP and COLLECT_FLAGS --out from
#     the folder it is started in (as run.sh does), not from the checkout;
# 13. scaling.sh into a folder that holds a finished study is refused before
#     its first run, and APPEND=on adds the new study to it;
# 14. collect.py writes over its own tables and plots, but not over a
#     scaling.md, scaling.csv or PNG of those names that it did not write,
#     nor through a symbolic link of those names (it wrote into the file
#     the link points at);
# and the class: make-model.py never writes its sidecar over a file of the
# user's, project.py's --csv and --markdown only over names of their kind.
# usage: study_files_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
preflags=("$@")
repo=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work" && mkdir -p "$work/empty"
fail() { echo "study_files: $*"; exit 1; }
# shellcheck source=tests/tool_expect.sh
source "$repo/tests/tool_expect.sh"
py=python3 # Debian's python3-jsonschema and python3-matplotlib may be /usr/bin/python3's alone
python3 -c "import jsonschema, matplotlib" 2>/dev/null || py=/usr/bin/python3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
tool() { "$py" "$repo/tools/$1" "${@:2}"; }

echo "== 6. run.sh: a folder of its own, and the report where it is"
run_sh() { # run_sh RESULTS MINI-APP-OPTIONS...
  env APP="$app" RANKS=1 RESULTS="$1" MPIRUN="$mpiexec" MPIRUN_FLAGS="${preflags[*]}" \
    bash "$repo/jobscripts/local/run.sh" --grid 16,16,16 --steps 2 --quiet "${@:2}"
}
mkdir -p "$work/study" && seq 13 >"$work/study/environment.txt"
expect 2 "run.sh into a study's folder" run_sh "$work/study"
[ "$(wc -l <"$work/study/environment.txt")" -eq 13 ] || fail "run.sh cut a study's environment.txt"
expect 0 "run.sh --report elsewhere" run_sh "$work/run" --report "$work/elsewhere.json"
said "run.sh --report" "results in $work/run (the report in $work/elsewhere.json, as --report asked)" "$work/out.txt"
{ [ -f "$work/elsewhere.json" ] && [ ! -e "$work/run/report.json" ]; } || fail "the report is not where run.sh says"

echo "== 7. a Slurm series refused before its first run"
mkdir -p "$work/bin"
# A stand-in for srun on this one node: -nN becomes the launcher's ranks.
cat >"$work/bin/srun" <<EOF
#!/usr/bin/env bash
n=1
while [[ \$1 == -* ]]; do case \$1 in -n*) n=\${1#-n} ;; esac; shift; done
exec "$mpiexec" "$np_flag" "\$n" ${preflags[*]} "\$@"
EOF
chmod +x "$work/bin/srun"
slurm() { # slurm RESULTS: generic/weak.sbatch at 1, 2 and 4 ranks of one node without GPUs
  (cd "$repo" && env PATH="$work/bin:$PATH" SLURM_JOB_ID=1 SLURM_NNODES=1 GPU_VENDOR=none GPUS_PER_NODE=4 \
    APP="$app" RESULTS="$1" LOCAL=16,16,16 RADIUS=2 STEPS=2 WARMUP=1 HALO_DEPTH=1 TUNING=off \
    bash jobscripts/generic/weak.sbatch)
}
slurm "$work/slurm" >"$work/slurm.txt" 2>&1 || { cat "$work/slurm.txt"; fail "weak.sbatch failed"; }
n4=$(find "$work/slurm" -name 'weak-*-n4.json')
[ -f "$n4" ] || fail "weak.sbatch wrote no 4-rank report"
mkdir -p "$work/slurm-again" && cp "$n4" "$work/slurm-again/"
expect 2 "weak.sbatch into a folder that holds its 4-rank report" slurm "$work/slurm-again"
said "weak.sbatch" "-n4.json is there already" "$work/err.txt"
[ -z "$(find "$work/slurm-again" -name '*-n1.json')" ] || fail "weak.sbatch ran its first run, then stopped"

echo "== 11. the small tools: one line, nothing written"
# A checkpoint.json of a valid CRC-32 whose files is a list.
mkdir -p "$work/ck/checkpoints/step_000002"
"$py" - "$work/ck/checkpoints/step_000002/checkpoint.json" <<'PY'
import json, sys, zlib
meta = {"program": "stencil-miniapp checkpoint", "step": 2, "files": ["p.raw", "p_prev.raw"]}
meta["crc32"] = f"{zlib.crc32(json.dumps(meta, separators=(',', ':'), ensure_ascii=False).encode()):08x}"
json.dump(meta, open(sys.argv[1], "w"))
PY
expect 1 "verify-output.py, a checkpoint's files as a list" tool verify-output.py "$work/ck"
said "files as a list" "its files are not a list of name: {bytes, crc32}" "$work/out.txt"
"$mpiexec" "$np_flag" 2 "${preflags[@]}" "$app" --grid 16,16,16 --steps 8 --quiet --timeline "$work/tl.json" \
  --report "$work/report.json" >/dev/null 2>&1 || fail "a run with --timeline failed"
before=$(md5sum <"$work/report.json")
expect 2 "timeline-svg.py over a report" tool timeline-svg.py "$work/tl.json" "$work/report.json"
[ "$(md5sum <"$work/report.json")" = "$before" ] || fail "timeline-svg.py overwrote the report"
expect 0 "timeline-svg.py into a new SVG" tool timeline-svg.py "$work/tl.json" "$work/step.svg"
expect 0 "timeline-svg.py over its own SVG" tool timeline-svg.py "$work/tl.json" "$work/step.svg"
expect 2 "fom-steady.sh without its program" bash "$repo/tools/fom-steady.sh" "$mpiexec" "$np_flag" "$work/none"
said "fom-steady" "no such program" "$work/err.txt"
: >"$work/no-rows.txt"
expect 2 "report-table.py ucx with no rows" tool report-table.py ucx "$work/no-rows.txt"
expect 2 "report-table.py peer with nothing to show" tool report-table.py peer "$work/empty"
[ ! -e "$work/empty/table.txt" ] || fail "report-table.py peer wrote into the folder it read"
mkdir -p "$work/peer"
cp "$work/report.json" "$work/peer/r1-one-128.json" && cp "$work/report.json" "$work/peer/r1-two-weak128-peer.json"
expect 0 "report-table.py peer" tool report-table.py peer "$work/peer"
[ ! -e "$work/peer/table.txt" ] || fail "report-table.py peer wrote table.txt unasked"
expect 0 "report-table.py peer --out" tool report-table.py peer "$work/peer" --out "$work/peer-table.txt"
said "peer --out" "two-weak128" "$work/peer-table.txt"
expect 2 "report-table.py peer --out over a file" tool report-table.py peer "$work/peer" --out "$work/report.json"
"$py" -c 'import json, sys; r = json.load(open(sys.argv[1])); r["gcells_per_s_per_rank"] = 0.012
json.dump(r, open(sys.argv[1], "w"))' "$work/report.json"
expect 0 "report-table.py miniapp of a HOST rank" tool report-table.py miniapp "$work/report.json"
said "0.012 Gcell/s" " 0.012 " "$work/out.txt"
frontier=$repo/jobscripts/machines/frontier.json
for case in nic_latency_us:2000 link_GBps:50000; do
  "$py" -c "import json, sys; m = json.load(open(sys.argv[1])); m['${case%:*}'] = ${case#*:}
json.dump(m, open(sys.argv[2], 'w'))" "$frontier" "$work/unit.json"
  expect 2 "a machine file with ${case%:*} ${case#*:}" "$py" "$repo/jobscripts/project.py" "$work/empty" \
    --machine "$work/unit.json" weak
  said "${case%:*}" "field ${case%:*}: ${case#*:} is not allowed" "$work/err.txt"
done
sed 's/"link_GBps": 50,/"link_GBps": 50, "link_GBps": 500,/' "$frontier" >"$work/twice.json"
expect 2 "a machine file with a key twice" "$py" "$repo/jobscripts/project.py" "$work/empty" \
  --machine "$work/twice.json" weak
said "a key twice" "key 'link_GBps' given twice" "$work/err.txt"
echo "== no write over a file the user did not name"
numpy_python=$py
"$numpy_python" -c "import numpy" 2>/dev/null || numpy_python=/usr/bin/python3
echo '{"mine": 1}' >"$work/model.json"
expect 2 "make-model.py beside a JSON of the user's" "$numpy_python" "$repo/tools/make-model.py" layered \
  --grid 8,8,8 --output "$work/model.raw"
said "model.json" "model.json: there already, and not a sidecar of make-model.py" "$work/err.txt"
said "model.json" '{"mine": 1}' "$work/model.json"
expect 0 "make-model.py, a model made twice" "$numpy_python" "$repo/tools/make-model.py" layered \
  --grid 8,8,8 --output "$work/fresh.raw"
expect 0 "make-model.py, a model made twice" "$numpy_python" "$repo/tools/make-model.py" layered \
  --grid 8,8,8 --output "$work/fresh.raw"
for option in csv md; do
  expect 2 "project.py --${option/md/markdown} onto a report" "$py" "$repo/jobscripts/project.py" "$work/empty" \
    --machine "$frontier" "--${option/md/markdown}" "$work/report.json" weak
  said "--${option/md/markdown}" "report.json' is not a file name ending .$option" "$work/err.txt"
done
echo "== 12. scaling.sh: relative paths from the folder it is started in"
# The program as bin/stencil-miniapp of the caller's folder: a name that
# the checkout does not hold.
mkdir -p "$work/caller/bin" && ln -s "$app" "$work/caller/bin/stencil-miniapp"
in_caller() { # in_caller VAR=VALUE...: a small weak study started in $work/caller, relative paths
  (cd "$work/caller" && env APP=bin/stencil-miniapp RESULTS=study MPIRUN="$mpiexec ${preflags[*]}" PYTHON="$py" \
    RANKS_LIST="1 2" STUDIES=weak WEAK_LOCAL=16,16,16 RADIUS=2 STEPS=2 WARMUP=1 HALO_DEPTH=1 TUNING=off \
    COLLECT_FLAGS="--out tables" "$@" bash "$repo/jobscripts/local/scaling.sh")
}
for name in study tables; do
  [ ! -e "$repo/$name" ] || fail "the checkout holds $name/ already: move it, so that this test can tell a stray write"
done
status=0
in_caller APPEND=off >"$work/out.txt" 2>&1 || status=$?
for name in study tables; do # what went into the checkout is removed, and fails the test
  [ ! -e "$repo/$name" ] || { rm -rf "${repo:?}/$name"; fail "scaling.sh wrote $name/ into the checkout"; }
done
[ "$status" -eq 0 ] || { cat "$work/out.txt"; fail "scaling.sh with relative paths: exit $status"; }
[ -n "$(find "$work/caller/study" -name 'weak-local16x16x16-*-n2.json')" ] || fail "no report in the caller's study/"
[ -f "$work/caller/tables/scaling.md" ] || fail "no scaling.md in the caller's tables/"
echo "ok  scaling.sh: study/, tables/ and bin/stencil-miniapp of the folder it was started in"

echo "== 13. scaling.sh into a finished study's folder"
expect 2 "scaling.sh into a finished study" in_caller WEAK_LOCAL=24,24,24
said "scaling.sh" "holds files already (another study's?): choose a new or empty RESULTS, or set APPEND=on" \
  "$work/err.txt"
[ -z "$(find "$work/caller/study" -name 'weak-local24x24x24-*')" ] || fail "the refused study ran"
expect 0 "scaling.sh APPEND=on" in_caller WEAK_LOCAL=24,24,24 APPEND=on
said "both studies" "### weak box 24x24x24 R=2" "$work/caller/tables/scaling.md"
said "both studies" "### weak box 16x16x16 R=2" "$work/caller/tables/scaling.md"

echo "== 14. collect.py: its own files written over, no one else's"
collect() { "$py" "$repo/jobscripts/collect.py" "$work/caller/study" "$@"; }
expect 0 "collect.py over its own tables and plots" collect --out "$work/caller/tables"
# Links to a scaling.md and a PNG that collect.py wrote, kept elsewhere
# (the table with a line added, so that a write through the link shows).
mkdir -p "$work/kept" "$work/linked"
{ cat "$work/caller/tables/scaling.md" && echo "(a table kept)"; } >"$work/kept/scaling.md"
cp "$work/caller/tables/phases.png" "$work/kept/" 2>/dev/null || echo "(no phases.png: matplotlib is not here)"
ln -s "$work/kept/scaling.md" "$work/linked/scaling.md"
ln -s "$work/kept/phases.png" "$work/linked/phases.png"
before=$(cat "$work/kept/"* | md5sum)
expect 2 "collect.py through symbolic links" collect --out "$work/linked"
said "collect.py" "scaling.md, phases.png in $work/linked: symbolic links" "$work/err.txt"
[ "$(cat "$work/kept/"* | md5sum)" = "$before" ] || fail "collect.py wrote through a symbolic link"
[ ! -e "$work/linked/scaling.csv" ] || fail "collect.py refused, yet wrote scaling.csv"
printf 'series,mine\n1,2\n' >"$work/caller/study/scaling.csv"
echo "my notes" >"$work/caller/study/scaling.md"
before=$(md5sum "$work/caller/study/scaling."*)
expect 2 "collect.py over a user's scaling.md and scaling.csv" collect
said "collect.py" "scaling.md, scaling.csv in $work/caller/study: there already, and not written by collect.py" \
  "$work/err.txt"
[ "$(md5sum "$work/caller/study/scaling."*)" = "$before" ] || fail "collect.py wrote over a user's tables"
[ -z "$(find "$work/caller/study" -name '*.png')" ] || fail "collect.py refused, yet drew its plots"
mkdir -p "$work/figures"
printf '\x89PNG\r\n\x1a\n(a figure of the user'"'"'s)' >"$work/figures/phases.png"
expect 2 "collect.py over a user's phases.png" collect --out "$work/figures"
said "collect.py" "phases.png in $work/figures: there already, and not written by collect.py" "$work/err.txt"
[ ! -e "$work/figures/scaling.md" ] || fail "collect.py refused, yet wrote scaling.md"
echo "study_files: every write new or refused, every refusal one line"
