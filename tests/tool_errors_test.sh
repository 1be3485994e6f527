#!/usr/bin/env bash
# The Python tools on bad input, and verify-output's exit codes:
#  - every tool, given a missing file, a truncated JSON, JSON nested too
#    deeply for Python's parser, a list or a null where it reads an object,
#    or a folder where a file belongs, prints one line on stderr and exits
#    non-zero, no traceback;
#  - verify-output exits 0 on a complete folder (slice images alone are
#    complete), 3 on an interrupted one (a lock, a .partial), 1 on a folder
#    with nothing of the mini-app in it, 2 on bad usage, with one line;
#  - make-model.py, given a bad grid, a missing input or a folder to
#    write, says so in one line;
#  - sponge-reflection.py, given bad widths, a missing program or
#    launcher, a --work folder that is not empty or a program that fails,
#    says so in one line;
#  - report-table miniapp refuses in one line, naming the field, reports whose
#    fields are null or of the wrong kind, shows a label of two lines (or
#    with a |, in Markdown) in its row, and exits 1, the table printed,
#    when a report failed its --check;
#  - report-table names an unknown kind, and each kind answers --help;
#  - tools/gpu.sh answers --help, and for each part --help, an unknown
#    option, an option without its value and --dry-run, and an unknown
#    part, in one line and exit 2 before anything runs;
#  - report-table node refuses a folder without reports, or with a bad one or a
#    step of 0 ms, and pairs a run only with a baseline of its precision;
#  - collect.py without matplotlib writes its tables and says in one line
#    that the plots need it;
#  - results/ (jobscripts/local/scaling.sh) and __pycache__/ are git-ignored.
# usage: tool_errors_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
repo=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work" && mkdir -p "$work/empty"
fail() { echo "tool_errors: $*"; exit 1; }
printf '{"program": "stencil-miniapp", "ranks": ' >"$work/truncated.json"
# Valid JSON, 100000 lists deep: Python's json module gives up on it with a
# RecursionError.
python3 -c "print('[' * 100000 + ']' * 100000)" >"$work/deep.json"
# JSON of the wrong kinds: a list where a report is an object, a field null.
echo '[1, 2]' >"$work/list.json"
echo '{"context": null, "benchmarks": []}' >"$work/null-field.json"

# shellcheck source=tests/tool_expect.sh
source "$repo/tests/tool_expect.sh"

for input in "$work"/{missing,truncated,deep,list,null-field}.json "$work/empty"; do
  expect nonzero "report-table bench $input" python3 "$repo/tools/report-table.py" bench "$input"
  expect nonzero "report-table miniapp $input" python3 "$repo/tools/report-table.py" miniapp "$input"
  expect nonzero "resource-report $input" python3 "$repo/tools/resource-report.py" hip "$input"
  expect 2 "timeline-svg $input" python3 "$repo/tools/timeline-svg.py" "$input" "$work/t.svg"
  expect nonzero "project --machine $input" python3 "$repo/jobscripts/project.py" "$work/empty" --machine "$input" weak
done
# report-table node reads a folder of rN-CASE.json reports: each bad file as one.
for input in "$work"/{truncated,deep,list,null-field}.json; do
  rm -rf "$work/node" && mkdir -p "$work/node" && cp "$input" "$work/node/r1-case.json"
  expect 2 "report-table node $(basename "$input")" python3 "$repo/tools/report-table.py" node "$work/node"
done
expect 2 "report-table node on a folder without reports" python3 "$repo/tools/report-table.py" node "$work/empty"
# peer and timing read folders too: a bad report in one, or no folder.
for input in "$work"/{truncated,deep,list,null-field}.json; do
  rm -rf "$work/peer" && mkdir -p "$work/peer" && cp "$input" "$work/peer/r1-one-512.json"
  expect 2 "report-table peer $(basename "$input")" python3 "$repo/tools/report-table.py" peer "$work/peer"
done
expect 2 "report-table peer on a missing folder" python3 "$repo/tools/report-table.py" peer "$work/missing"
expect 2 "report-table timing on a folder without reports" python3 "$repo/tools/report-table.py" timing "$work/empty"
# The dispatcher: a kind it does not know, none, and each kind's page.
expect 2 "report-table with an unknown kind" python3 "$repo/tools/report-table.py" frobnicate "$work/empty"
said "report-table with an unknown kind" "unknown kind 'frobnicate'" "$work/err.txt"
expect 2 "report-table without a kind" python3 "$repo/tools/report-table.py"
expect 0 "report-table --help" python3 "$repo/tools/report-table.py" --help
for kind in bench miniapp node peer timing; do
  expect 0 "report-table $kind --help" python3 "$repo/tools/report-table.py" "$kind" --help
  said "report-table $kind --help" "usage: report-table.py $kind" "$work/out.txt"
done
# make-model.py with a Python that has NumPy, so that its own checks answer.
numpy_python=python3
python3 -c "import numpy" 2>/dev/null || numpy_python=/usr/bin/python3
expect 2 "make-model bad grid" "$numpy_python" "$repo/tools/make-model.py" layered --grid 4,x,4 --output "$work/m.raw"
expect 2 "make-model missing npy" "$numpy_python" "$repo/tools/make-model.py" npy "$work/missing.npy" --output "$work/m.raw"
expect 2 "make-model raw without sidecar" "$numpy_python" "$repo/tools/make-model.py" raw "$work/truncated.json" --output "$work/m.raw"
expect 2 "make-model into a folder" "$numpy_python" "$repo/tools/make-model.py" layered --grid 4,4,4 --output "$work/empty"
# sponge-reflection.py refuses before it runs anything, or names the run that failed.
reflection=("$numpy_python" "$repo/tools/sponge-reflection.py")
expect 2 "sponge-reflection bad widths" "${reflection[@]}" "$app" --widths 8,x
expect 2 "sponge-reflection missing app" "${reflection[@]}" "$work/missing"
expect 2 "sponge-reflection into a folder not empty" "${reflection[@]}" "$app" --work "$work"
expect 2 "sponge-reflection through a launcher that is not there" "${reflection[@]}" "$app" \
  --launcher "$work/missing" --work "$work/reflect-launcher"
expect 2 "sponge-reflection on a program that is not the mini-app" "${reflection[@]}" /bin/false \
  --work "$work/reflect-false"
said "sponge-reflection on a program that is not the mini-app" "the mini-app failed (exit 1)" "$work/err.txt"
expect nonzero "collect.py on a missing folder" python3 "$repo/jobscripts/collect.py" "$work/missing"
expect nonzero "collect.py on a folder without reports" python3 "$repo/jobscripts/collect.py" "$work/empty"

echo "== verify-output's exit codes"
run() { "$mpiexec" "$np_flag" 2 "$@" "$app" --grid 32,32,24 --steps 4 --warmup 0 --quiet "${args[@]}"; }
args=(--snapshot-every 2 --output "$work/complete")
run "$@" >/dev/null
args=(--slice z=12 --output "$work/slices")
run "$@" >/dev/null
cp -r "$work/complete" "$work/interrupted"
: >"$work/interrupted/snapshot_000006.raw.partial"
echo "host x pid 1" >"$work/interrupted/stencil-miniapp.lock"
verify=$repo/tools/verify-output.py
expect 0 "verify a complete folder" python3 "$verify" "$work/complete"
expect 0 "verify a folder of slice images" python3 "$verify" "$work/slices"
expect 3 "verify an interrupted folder" python3 "$verify" "$work/interrupted"
grep -q "INCOMPLETE .*stencil-miniapp.lock" "$work/out.txt" || fail "the lock is not reported"
expect 1 "verify a folder without outputs" python3 "$verify" "$work/empty"
# A sidecar copied over another step's: the step's raw file has lost its
# description, which is a failure, not an unfinished run.
cp -r "$work/complete" "$work/copied" && cp "$work/copied/snapshot_000002.json" "$work/copied/snapshot_000004.json"
expect 1 "verify a sidecar copied over another step's" python3 "$verify" "$work/copied"
grep -q "snapshot_000004.json: describes snapshot_000002.raw, not snapshot_000004.raw" "$work/out.txt" ||
  { cat "$work/out.txt"; fail "the copied sidecar is not named"; }
# What the run's record lists, or a checkpoint's files beside it, changed:
# corrupt (1), not incomplete or complete.
cp -r "$work/complete" "$work/no-crc" &&
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); del d["crc32"]; json.dump(d, open(sys.argv[1], "w"))' \
    "$work/no-crc/snapshot_000002.json"
expect 1 "verify a listed sidecar without its crc32" python3 "$verify" "$work/no-crc"
args=(--checkpoint-every 2 --output "$work/checkpointed")
run "$@" >/dev/null
cp -r "$work/checkpointed" "$work/no-meta" && rm "$work/no-meta/checkpoints/step_000004/checkpoint.json"
expect 1 "verify a checkpoint without its checkpoint.json" python3 "$verify" "$work/no-meta"
cp -r "$work/checkpointed" "$work/not-ours" &&
  sed -i 's/stencil-miniapp checkpoint/another program/' "$work/not-ours/checkpoints/step_000004/checkpoint.json"
expect 1 "verify a checkpoint.json said to be another program's" python3 "$verify" "$work/not-ours"
cp -r "$work/complete" "$work/deep-sidecar" && cp "$work/deep.json" "$work/deep-sidecar/snapshot_000002.json"
expect 1 "verify a sidecar nested too deeply" python3 "$verify" "$work/deep-sidecar"
expect 2 "verify with no folder" python3 "$verify"
expect 2 "verify with an unknown flag" python3 "$verify" --frobnicate

echo "== collect.py without matplotlib"
mkdir -p "$work/reports"
for n in 1 2; do
  "$mpiexec" "$np_flag" "$n" "$@" "$app" --local 16,16,16 --steps 2 --quiet --label weak \
    --report "$work/reports/weak-n$n.json" >/dev/null
done
mkdir -p "$work/no-matplotlib/matplotlib"
echo 'raise ImportError("No module named matplotlib")' >"$work/no-matplotlib/matplotlib/__init__.py"
# collect.py checks reports with jsonschema, which /usr/bin/python3 may hold
# where another python3 earlier on PATH does not.
py=python3
python3 -c "import jsonschema" 2>/dev/null || py=/usr/bin/python3
PYTHONPATH=$work/no-matplotlib expect 0 "collect.py without matplotlib" \
  "$py" "$repo/jobscripts/collect.py" "$work/reports"
grep -q "the plots need matplotlib" "$work/out.txt" || fail "collect.py did not say the plots need matplotlib"
[ -f "$work/reports/scaling.md" ] || fail "collect.py wrote no table without matplotlib"

echo "== report-table node pairs a run with the baseline of its box, radius and precision"
mkdir -p "$work/node-runs"
python3 - "$work/reports/weak-n1.json" "$work/reports/weak-n2.json" "$work/node-runs" <<'PY'
import copy, json, sys
one, two, folder = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
def put(name, doc, step):
    doc = copy.deepcopy(doc)
    doc["phases_ms"]["step"]["max"] = step
    json.dump(doc, open("%s/%s.json" % (folder, name), "w"))
one.update(label="one", comm="none")
put("r1-one-16", one, 2.0)  # the baseline: 2.0 ms
put("r1-one-z16", dict(one, precision="fp64"), 50.0)  # sorts last; fp64: must not pair
put("r1-w16", two, 4.0)  # so 2.0 / 4.0: 50%
PY
expect 0 "report-table node pairs by precision" python3 "$repo/tools/report-table.py" node "$work/node-runs"
grep -qE "^ *w16 .* 50% +50%$" "$work/out.txt" || { cat "$work/out.txt"; fail "report-table node: w16 not 50% against its fp32 baseline"; }
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["phases_ms"]["step"]["max"] = 0
json.dump(d, open(sys.argv[1], "w"))' "$work/node-runs/r1-w16.json"
expect 2 "report-table node with a step of 0 ms" python3 "$repo/tools/report-table.py" node "$work/node-runs"

echo "== report-table miniapp on reports with fields null, a label of two lines, a failed --check"
mkdir -p "$work/table"
python3 - "$work/reports/weak-n1.json" "$work/table" <<'PY'
import json, sys
report, folder = json.load(open(sys.argv[1])), sys.argv[2]
variants = {"null_phases": dict(report, phases_ms=None), "null_phase": dict(report, phases_ms={"step": None}),
            "null_check": dict(report, check=None), "a_list": [report], "number_label": dict(report, label=7),
            "two_lines": dict(report, label="two\nlines | and a pipe\r"),
            "failed": dict(report, check={"cells_differing": 3, "cells": 4096, "bitwise_equal": False})}
for name, doc in variants.items():
    with open("%s/%s.json" % (folder, name), "w") as f:
        json.dump(doc, f)
PY
table=("$repo/tools/report-table.py" miniapp)
for bad in null_phases:phases_ms null_phase:phases_ms null_check:check a_list:'not a JSON object' number_label:label; do
  expect 2 "report-table miniapp ${bad%:*}" python3 "${table[@]}" "$work/table/${bad%:*}.json"
  grep -q "${bad#*:}" "$work/err.txt" || fail "report-table miniapp ${bad%:*}: the message does not name ${bad#*:}"
done
expect 2 "report-table miniapp without a report" python3 "${table[@]}" --markdown
# A label is shown on one line, its newline escaped; in Markdown its | too.
expect 0 "report-table miniapp with a label of two lines" python3 "${table[@]}" "$work/reports/weak-n1.json" "$work/table/two_lines.json"
{ [ "$(wc -l <"$work/out.txt")" -eq 3 ] && grep -qF 'two\nlines | and a pipe\r' "$work/out.txt"; } ||
  { cat "$work/out.txt"; fail "report-table miniapp: a label broke its row"; }
expect 0 "report-table miniapp --markdown with a label of two lines" \
  python3 "${table[@]}" "$work/reports/weak-n1.json" "$work/table/two_lines.json" --markdown
columns=$(sed 's/\\|//g' "$work/out.txt" | awk -F'|' '{print NF}' | sort -u | wc -l) # one count: no row split
{ [ "$(wc -l <"$work/out.txt")" -eq 4 ] && [ "$columns" -eq 1 ]; } ||
  { cat "$work/out.txt"; fail "report-table miniapp --markdown: a label broke its row"; }
# A report that failed its --check: the table still printed, the row
# marked FAILED, and status 1.
expect 1 "report-table miniapp with a failed report" python3 "${table[@]}" "$work/reports/weak-n1.json" "$work/table/failed.json"
{ grep -q "failed.json failed its --check" "$work/err.txt" && [ "$(wc -l <"$work/out.txt")" -eq 3 ] &&
  grep -q "FAILED" "$work/out.txt"; } || { cat "$work/out.txt" "$work/err.txt"; fail "report-table miniapp: the failed report not shown"; }

echo "== tools/gpu.sh: its parts, options and values checked before anything runs"
gpu=$repo/tools/gpu.sh
expect 0 "gpu.sh --help" "$gpu" --help
said "gpu.sh --help" "usage: tools/gpu.sh PART [OPTIONS]" "$work/out.txt"
expect 2 "gpu.sh without a part" "$gpu"
expect 2 "gpu.sh with an unknown part" "$gpu" frobnicate
said "gpu.sh with an unknown part" "unknown part 'frobnicate'" "$work/err.txt"
# Each part: its page, an unknown option, an option without its value (the
# part's first that takes one), and a dry run that prints its settings.
for spec in "check --tests" "miniapp --sizes" "node --repeat" "peer --cases" "shell --against" "timing --against" \
  "ucx --ranks" "experiment x --variant"; do
  read -r -a words <<<"$spec"
  part=${words[0]} valued=("${words[@]:0:${#words[@]}-1}") option=${words[-1]}
  expect 0 "gpu.sh $part --help" "$gpu" "${valued[@]}" --help
  said "gpu.sh $part --help" "usage: tools/gpu.sh $part" "$work/out.txt"
  expect 2 "gpu.sh $part with an unknown option" "$gpu" "${valued[@]}" --frobnicate
  said "gpu.sh $part with an unknown option" "gpu.sh $part: unknown option '--frobnicate'" "$work/err.txt"
  expect 2 "gpu.sh $part $option without its value" "$gpu" "${valued[@]}" "$option"
  said "gpu.sh $part $option without its value" "$option needs a value" "$work/err.txt"
  expect 0 "gpu.sh --dry-run $part" "$gpu" --dry-run "${valued[@]}"
  said "gpu.sh --dry-run $part" "tools/gpu.sh $part would run with:" "$work/out.txt"
done
expect 2 "gpu.sh node --repeat 0" "$gpu" node --repeat 0
expect 2 "gpu.sh node with an unknown --parts entry" "$gpu" node --parts "weak bogus"
expect 2 "gpu.sh experiment without a NAME" "$gpu" experiment --sizes 64
expect 2 "gpu.sh timing --agreement x" "$gpu" timing --agreement x
expect 0 "gpu.sh --dry-run experiment keeps the mini-app's arguments" "$gpu" --dry-run experiment e1 \
  --variant plain="--graphs off" -- --radius 2
said "gpu.sh --dry-run experiment" 'extra=([0]="--graphs off")' "$work/out.txt"
said "gpu.sh --dry-run experiment" 'common=([0]="--radius" [1]="2")' "$work/out.txt"

echo "== what runs and tools write inside the repository is ignored by git"
if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
  for path in results/weak-1/report.json tools/__pycache__/x.pyc build-tests/x; do
    git -C "$repo" check-ignore -q "$path" || fail "$path is not git-ignored"
  done
  echo "ok  results/, __pycache__/ and build folders are git-ignored"
fi
echo "tools end in one line on bad input; verify-output's codes hold"
