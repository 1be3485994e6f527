#!/usr/bin/env bash
# The scaling study's tools held to the mini-app's rule, nothing silently
# wrong, case by case (each failed on 519a287):
#  1. collect.py keeps apart runs that are not comparable: two boxes per
#     rank and open against periodic edges, in one folder, are three
#     series, each its own table against its own one-rank run; a report
#     with no study label is named and left out;
#  2. scaling.sh names each report by its box and edges, so a second study
#     into the same RESULTS (APPEND=on) keeps the first's reports; the same study again
#     is refused in one line and overwrites nothing;
#  3. project.py refuses a machine file with a misspelled, missing,
#     mistyped or impossible field in one line naming the file and field,
#     before it reads the calibration; every shipped machine file passes;
#  4. validate takes the calibration node's scale unless --machine-scale,
#     says which, and compares with the slowest rank's step;
#  5. nothing to report is a failure: validate of an empty folder, a
#     strong grid no node count can split, report-table.py timing on reports
#     that are not its own;
#  6. --plot without matplotlib, and --nodes of -4, 0, abc or 1e9, are one
#     line naming what is wrong;
#  7. project.py refuses R = 9, and says on the table's heading line when
#     it projects past its calibration: another R, a box outside the
#     sweep or past a GPU's memory, periodic edges without shell/; with
#     --halo-depth best the table shows the depth taken;
#  8. rows from runs under 0.5 s of timed steps are marked, with a note;
#  9. the CSV holds numbers; verify-output.py accepts the folder run.sh
#     announces;
# 10. (a second stranger's try) a machine file's kernel time scale from an
#     H200 applied to a HOST calibration is said so; validate says runs in
#     another precision or on another device; a halo bench row of nan is
#     refused, naming its line;
# 11. the drivers check their settings before anything runs: RANKS_LIST
#     of 0, -1, a word or a repeat, PROCS_ALONG=w, a SWEEP of one size;
#     every Slurm script answers --help with its header and, outside an
#     allocation, stops in one line; run.sh --help runs nothing;
# 12. a calibration archived with its folder at the top is read; an empty
#     JSON file among reports is named; a report whose ranks are not its
#     procs' product is refused; report-table.py timing refuses a report whose
#     steps, ranks or comm are not its label's, and answers --help;
#     verify-output.py fails an image overwritten with junk (case 9).
# usage: study_tools_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 app=$3 work=$4
shift 4
preflags="$*"
repo=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work" && mkdir -p "$work/empty"
fail() { echo "study_tools: $*"; exit 1; }
# shellcheck source=tests/tool_expect.sh
source "$repo/tests/tool_expect.sh"
# Debian's python3-jsonschema and python3-matplotlib live in /usr/bin/python3,
# which another python3 earlier on PATH may lack.
py=python3
python3 -c "import jsonschema, matplotlib" 2>/dev/null || py=/usr/bin/python3
"$py" -c "import jsonschema" || fail "no Python with jsonschema (tools/install-deps.sh installs it)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# The calibrations here time a few steps: their warnings are taken, and said.
project() { "$py" "$repo/jobscripts/project.py" "$1" --accept-timing-warnings "${@:2}"; }

# study VAR=VALUE...: a weak series at 1 and 2 ranks of R = 2 into $work/study,
# beside the studies there (APPEND=on), so that each report's name is what
# keeps a run from another's.
study() {
  env APP="$app" MPIRUN="$mpiexec $preflags" PYTHON="$py" RESULTS="$work/study" RANKS_LIST="1 2" \
    STUDIES=weak RADIUS=2 STEPS=4 WARMUP=1 HALO_DEPTH=1 COLLECT=off APPEND=on "$@" bash "$repo/jobscripts/local/scaling.sh"
}

echo "== 2. reports named by what defines them; none overwritten"
study WEAK_LOCAL=24,24,24 >/dev/null
first=$(find "$work/study" -name 'weak-local24x24x24-*periodic-none*-n1.json')
[ -f "${first:-/none}" ] || fail "no report named by its box and edges"
before=$(md5sum <"$first")
study WEAK_LOCAL=40,40,40 >/dev/null
study WEAK_LOCAL=24,24,24 PERIODIC=x,y,z >/dev/null
count=$(find "$work/study" -name 'weak-*.json' | wc -l)
[ "$count" -eq 6 ] || fail "three studies of two runs left $count reports, not 6"
expect 2 "the same study into the same RESULTS" study WEAK_LOCAL=24,24,24
said "the refusal" "nothing is overwritten" "$work/err.txt"
expect 2 "the same edges in another order" study WEAK_LOCAL=24,24,24 PERIODIC=z,y,x
# A study that would overwrite any of its reports is refused before its first run.
expect 2 "a study whose later run would overwrite" study WEAK_LOCAL=40,40,40 RANKS_LIST="4 1"
[ ! -e "$(find "$work/study" -name 'weak-local40x40x40-*-n4.json' | head -1)" ] ||
  fail "the refused study ran its first run"
[ "$(md5sum <"$first")" = "$before" ] || fail "the first study's report was overwritten"
# The drivers take settings from the environment: an argument starts no study.
expect 2 "scaling.sh with an argument" bash "$repo/jobscripts/local/scaling.sh" --local 24,24,24
expect 0 "calibrate.sh --help" bash "$repo/jobscripts/local/calibrate.sh" --help
said "calibrate.sh --help" "WEAK_LOCAL" "$work/out.txt"
# A bad setting: the mini-app's own reason, in one line.
expect 1 "a study with R = 9" study WEAK_LOCAL=24,24,24 RADIUS=9 RESULTS="$work/bad-study"
said "R = 9" "failed: stencil-miniapp: --radius: 9 is outside 1..8" "$work/err.txt"
# The staged path asked for: its own series, its own one-rank run, not
# pooled into the auto series.
study WEAK_LOCAL=24,24,24 COMM=staged >/dev/null

echo "== 1. one series per box, edges and settings; 8. short windows marked"
"$app" --local 16,16,16 --steps 2 --quiet --report "$work/study/unlabelled.json" >/dev/null 2>&1
expect 0 "collect.py on four series" "$py" "$repo/jobscripts/collect.py" "$work/study" --out "$work/collected"
said "collect.py" "unlabelled.json: label '' is neither weak* nor strong*: left out" "$work/err.txt"
md=$work/collected/scaling.md
for name in "weak box 24x24x24 R=2, periodic none" "weak box 24x24x24 R=2, periodic x,y,z" \
  "weak box 40x40x40 R=2, periodic none"; do
  said "scaling.md" "### $name" "$md"
done
said "scaling.md" "### weak box 24x24x24 R=2, periodic none, comm staged" "$md"
[ "$(grep -c '^### ' "$md")" -eq 4 ] || { cat "$md"; fail "not four series"; }
# Each series' first row is its own one-rank run, at 100%, and no series
# holds two runs of one rank count.
awk '/^### /{first=1; delete seen; next} /^\| [0-9]/{if (seen[$2]++) bad=1}
     first && /^\| [0-9]/{if ($0 !~ /^\| 1 \|.*\| 100\.0% \|/) bad=1; first=0} END{exit bad}' \
  "$md" || { cat "$md"; fail "a series is not measured against its own one-rank run alone"; }
[ "$(grep -c '^| [0-9].* \* |' "$md")" -eq 8 ] || { cat "$md"; fail "the short runs' rows are not marked"; }
said "scaling.md" "* Under 0.5 s of timed steps" "$md"
echo "ok  four series, each against its own base; eight short rows marked"
# A report edited by hand: refused by its field, in one line.
mkdir -p "$work/edited" && cp "$first" "$work/edited/"
"$py" -c 'import json, sys; r = json.load(open(sys.argv[1])); r["phases_ms"]["step"]["max"] = 0
json.dump(r, open(sys.argv[1], "w"))' "$work/edited/$(basename "$first")"
expect 2 "collect.py on a report with a step of 0 ms" "$py" "$repo/jobscripts/collect.py" "$work/edited"
said "a step of 0 ms" "phases_ms.step" "$work/err.txt"

echo "== 9. the CSV holds numbers"
"$py" - "$work/collected/scaling.csv" <<'PY' || fail "scaling.csv holds a number as text"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 8, rows
for row in rows:
    for column in ("ranks", "step_ms", "gcells_per_s", "efficiency", "imbalance", "short_window"):
        float(row[column])  # "100.0%" or "1.81x" would not parse
    assert 0 < float(row["efficiency"]) < 20 and row["short_window"] in ("0", "1"), row
PY
echo "ok  scaling.csv: numbers"
if "$py" -c "import matplotlib" 2>/dev/null; then
  expect 0 "collect.py --verify draws every plot" "$py" "$repo/jobscripts/collect.py" "$work/study" \
    --out "$work/collected" --verify
else
  echo "SKIPPED the plots: no Python with matplotlib"
fi

echo "== a calibration of one node (jobscripts/local/calibrate.sh, small)"
env RESULTS="$work/cal" APP="$app" MPIRUN="$mpiexec $preflags" SWEEP="16 24 32" RADIUS=2 STEPS=4 \
  HALO_DEPTH=1 WEAK_LOCAL=24,24,24 STRONG_GRID=32,32,32 bash "$repo/jobscripts/local/calibrate.sh" \
  >"$work/calibrate.txt" 2>&1 || { cat "$work/calibrate.txt"; fail "calibrate.sh failed"; }
host=$repo/jobscripts/machines/ci-host.json frontier=$repo/jobscripts/machines/frontier.json
expect 2 "calibrate.sh into a calibration" env RESULTS="$work/cal" bash "$repo/jobscripts/local/calibrate.sh"
tar -cJf "$work/cal.tar.xz" -C "$work" cal && head -c 3000 "$work/cal.tar.xz" >"$work/cut.tar.xz"
expect 2 "a damaged calibration archive" project "$work/cut.tar.xz" --machine "$host" weak

echo "== 3. machine files checked field by field"
for machine in "$repo"/jobscripts/machines/*.json; do
  expect 0 "project.py with $(basename "$machine")" project "$work/cal" --machine "$machine" --radius 2 \
    weak --local 24,24,24 --nodes 1
done
edit() { # edit NAME PYTHON-STATEMENT: ci-host.json edited into $work/NAME.json
  "$py" -c "import json, sys; m = json.load(open(sys.argv[1])); $2; json.dump(m, open(sys.argv[2], 'w'))" \
    "$host" "$work/$1.json"
}
edit misspelled 'm["kernel_time_scal"] = 3.0'
edit negative 'm["link_GBps"] = -50'
edit no-gpus 'm["gpus_per_node"] = 0'
edit words 'm["link_GBps"] = "fifty"'
edit missing 'del m["nodes"]'
edit not-a-number 'm["link_GBps"] = float("nan")'
edit huge 'm["nodes"] = 9408000'
for case in misspelled:kernel_time_scal negative:link_GBps no-gpus:gpus_per_node words:link_GBps missing:nodes \
  not-a-number:NaN huge:nodes; do
  expect 2 "a machine file, ${case%:*}" project "$work/empty" --machine "$work/${case%:*}.json" weak
  said "${case%:*}" "${case%:*}.json" "$work/err.txt"
  said "${case%:*}" "${case#*:}" "$work/err.txt"
done

echo "== 4. validate: the calibration node's scale unless told, the slowest rank"
cp -r "$work/cal/scaling" "$work/val"
slow=$(find "$work/val" -name 'weak-local24x24x24-*overlap-on-n2.json')
"$py" -c 'import json, sys; r = json.load(open(sys.argv[1])); r["phases_ms"]["step"]["max"] = 123.456
json.dump(r, open(sys.argv[1], "w"))' "$slow"
expect 1 "validate with frontier.json" project "$work/cal" --machine "$frontier" validate "$work/val"
said "validate" "Kernel time scale 1: the runs are taken as the calibration node's own" "$work/out.txt"
said "validate" "| 123.4560 |" "$work/out.txt"
expect 1 "validate --machine-scale" project "$work/cal" --machine "$frontier" validate "$work/val" --machine-scale
said "validate --machine-scale" "Kernel time scale 3: the machine file's" "$work/out.txt"

echo "== 5. nothing to report is a failure"
expect 2 "validate an empty folder" project "$work/cal" --machine "$host" validate "$work/empty"
expect 2 "strong scaling of a grid no node count splits" project "$work/cal" --machine "$host" strong --grid 6,6,6
expect 2 "report-table.py timing on reports not its own" "$py" "$repo/tools/report-table.py" timing "$work/cal/sweep"

echo "== 6. one line, naming the argument"
mkdir -p "$work/no-matplotlib/matplotlib"
echo 'raise ImportError("No module named matplotlib")' >"$work/no-matplotlib/matplotlib/__init__.py"
PYTHONPATH=$work/no-matplotlib expect 2 "--plot without matplotlib" \
  project "$work/cal" --machine "$host" --plot "$work/p.png" weak --local 24,24,24
said "--plot" "needs matplotlib, which" "$work/err.txt"
expect 2 "--plot into a folder" project "$work/cal" --machine "$host" --plot "$work" weak
expect 2 "--tolerance 10 (a fraction)" project "$work/cal" --machine "$host" validate "$work/val" --tolerance 10
for nodes in -4 0 abc 1e9; do
  expect 2 "--nodes $nodes" project "$work/cal" --machine "$host" weak --nodes "$nodes"
  said "--nodes $nodes" "--nodes" "$work/err.txt"
done

echo "== 7. the mini-app's limits, and projections past the calibration said"
expect 2 "--radius 9" project "$work/cal" --machine "$host" --radius 9 weak
said "--radius 9" "stencil radius 1..8" "$work/err.txt"
expect 2 "a halo deeper than the box" project "$work/cal" --machine "$host" --radius 4 --halo-depth 8 \
  weak --local 24,24,24
expect 0 "R = 4 on a calibration of R = 2" project "$work/cal" --machine "$host" weak --local 24,24,24 --radius 4
said "R = 4" "but the calibration ran R=2" "$work/out.txt"
expect 0 "a box past the sweep and the memory" project "$work/cal" --machine "$frontier" --radius 2 \
  weak --local 4096,4096,4096 --nodes 1
said "4096^3" "lie outside the calibrated 16^3 to 32^3" "$work/out.txt"
said "4096^3" "past the 64 GiB of a GPU" "$work/out.txt"
expect 0 "periodic edges without shell/" project "$work/cal" --machine "$host" --radius 2 \
  weak --local 24,24,24 --periodic x,y,z
said "periodic" "no shell/ in the calibration" "$work/out.txt"
expect 0 "--halo-depth best" project "$work/cal" --machine "$host" --radius 2 weak --local 24,24,24 --halo-depth best
said "--halo-depth best" "| halo depth |" "$work/out.txt"

echo "== 10. scales, precisions and devices the calibration did not run"
expect 0 "frontier's H200 scale on a HOST calibration" project "$work/cal" --machine "$frontier" --radius 2 \
  weak --local 24,24,24 --nodes 1
said "frontier" "relative to an H200, but the calibration ran on" "$work/out.txt"
cp -r "$work/cal/scaling" "$work/val64"
for report in "$work"/val64/*.json; do
  "$py" -c 'import json, sys; r = json.load(open(sys.argv[1])); r["precision"] = "fp64"
r["devices"] = ["NVIDIA H100 80GB HBM3"]; r["backend"] = "CUDA"; json.dump(r, open(sys.argv[1], "w"))' "$report"
done
# Past the tolerance or not (exit 1 or 0), the heading says what differs.
project "$work/cal" --machine "$host" validate "$work/val64" >"$work/out.txt" 2>&1 ||
  [ $? -eq 1 ] || fail "validate of fp64 runs: $(tail -1 "$work/out.txt")"
said "validate fp64" "runs in fp64 against a calibration in fp32" "$work/out.txt"
said "validate CUDA" "runs on NVIDIA H100 80GB HBM3 (CUDA) against a calibration on" "$work/out.txt"
cp -r "$work/cal" "$work/cal-nan"
"$py" - "$work/cal-nan/halo-bench-calibration.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
row = next(n for n, l in enumerate(lines) if l.split()[:1] == ["gpu-aware"] and l.split()[1].isdigit())
fields = lines[row].split()
fields[4] = "nan"  # MiB/exch of the first row
lines[row] = "  ".join(fields)
open(sys.argv[1], "w").write("\n".join(lines))
PY
expect 2 "a halo bench row of nan" project "$work/cal-nan" --machine "$host" --radius 2 weak --local 24,24,24
said "nan row" "not a positive number" "$work/err.txt"

echo "== 11. settings checked before anything runs"
for list in 0 -1 abc "1 1 2"; do
  expect 2 "RANKS_LIST=$list" env RANKS_LIST="$list" RESULTS="$work/never" bash "$repo/jobscripts/local/scaling.sh"
done
expect 2 "PROCS_ALONG=w" env PROCS_ALONG=w RESULTS="$work/never" bash "$repo/jobscripts/local/scaling.sh"
for sweep in 16 "16 16"; do
  expect 2 "SWEEP=$sweep" env SWEEP="$sweep" RESULTS="$work/never" bash "$repo/jobscripts/local/calibrate.sh"
done
expect 0 "run.sh --help" env RESULTS="$work/never" bash "$repo/jobscripts/local/run.sh" --help
[ ! -e "$work/never" ] || fail "a driver that ran nothing made its results folder"
# The Slurm scripts find their files from the submit folder: run from the root.
# shellcheck disable=SC2016 # $1 and $2 are the inner shell's
for script in "$repo"/jobscripts/*/*.sbatch; do
  expect 0 "${script#"$repo"/} --help" bash -c 'cd "$1" && bash "$2" --help' - "$repo" "$script"
  said "--help" "#SBATCH" "$work/out.txt"
  expect 2 "${script#"$repo"/} outside Slurm" env -u SLURM_JOB_ID bash -c 'cd "$1" && bash "$2"' - "$repo" "$script"
done

echo "== 12. reports and archives as people make them"
tar -cJf "$work/cal-top.tar.xz" -C "$work" cal
expect 0 "a calibration archive with its folder at the top" project "$work/cal-top.tar.xz" --machine "$host" \
  --radius 2 weak --local 24,24,24 --nodes 1
mkdir -p "$work/odd" && cp "$work"/cal/scaling/*.json "$work/odd/" && echo '{}' >"$work/odd/empty.json"
expect 0 "an empty JSON file among reports" "$py" "$repo/jobscripts/collect.py" "$work/odd" --out "$work/odd-out"
said "empty.json" "empty.json: empty, or not a JSON object: left out" "$work/err.txt"
said "the base" "Base: weak-" "$work/odd-out/scaling.md" # each series names its base run
rm "$work/odd/empty.json"
one=$(find "$work/odd" -name '*-n1.json' | head -1)
"$py" -c 'import json, sys; r = json.load(open(sys.argv[1])); r["ranks"] = 3; json.dump(r, open(sys.argv[1], "w"))' "$one"
expect nonzero "ranks that are not the product of procs" "$py" "$repo/jobscripts/collect.py" "$work/odd" --out "$work/odd-out2"
said "ranks 3" "ranks 3 is not the product of procs" "$work/err.txt"

mkdir -p "$work/relabelled"
"$py" -c 'import json, sys; r = json.load(open(sys.argv[1])); r["label"] = "agree-case1-200-r1"
json.dump(r, open(sys.argv[2], "w"))' "$(find "$work/cal/sweep" -name '*.json' | head -1)" "$work/relabelled/a.json"
expect 2 "report-table.py timing on a label that is not the run" "$py" "$repo/tools/report-table.py" timing "$work/relabelled"
said "relabelled" "labelled agree-case1-200-r1, but its steps is" "$work/err.txt"
expect 0 "report-table.py timing --help" "$py" "$repo/tools/report-table.py" timing --help

echo "== 9. verify-output.py takes the folder run.sh announces"
env APP="$app" MPIRUN="$mpiexec" MPIRUN_FLAGS="$preflags" RANKS=2 RESULTS="$work/run" \
  bash "$repo/jobscripts/local/run.sh" --grid 24,24,24 --steps 4 --snapshot-every 2 --slice z=12 --quiet \
  >"$work/run.txt" 2>&1 ||
  { cat "$work/run.txt"; fail "run.sh failed"; }
said "run.sh" "results in $work/run" "$work/run.txt"
expect 2 "run.sh into a folder that holds a run" env APP="$app" RANKS=1 RESULTS="$work/run" \
  bash "$repo/jobscripts/local/run.sh" --grid 24,24,24 --steps 2
expect 0 "verify-output.py on run.sh's folder" "$py" "$repo/tools/verify-output.py" "$work/run"
# Two snapshots, their XDMF files and the series.
said "verify-output" "complete: 5 verified" "$work/out.txt"
png=$(find "$work/run" -name '*.png' | head -1)
[ -n "$png" ] || fail "run.sh's run of --slice z=12 made no image"
echo "not an image" >"$png"
expect 1 "verify-output.py on an image overwritten with junk" "$py" "$repo/tools/verify-output.py" "$work/run"
said "junk png" "not a PNG image" "$work/out.txt"
echo "the study's tools: no mixed series, no overwritten report, no silent typo, no empty success"
