#!/usr/bin/env bash
# User text in every JSON file the mini-app writes: a --label and an output
# folder holding a quote, a backslash, a newline and non-ASCII characters.
# Every JSON file (report, snapshot and traces sidecars) must parse with
# Python's json and give the label back unchanged, and the folder must
# verify. Tuning caches are covered by stencil_unit_tests.
# usage: json_text_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
rm -rf "$work" && mkdir -p "$work"
label=$'weak "run" \\ tab\there\nline two, Grüße, 波, \xf0\x9f\x8c\x8a'
out="$work/out \"q\" \\ "$'\n'"é"
# shellcheck disable=SC2054 # the commas are inside the grid size
"$mpiexec" "$np_flag" 2 "$@" "$app" --grid 24,20,28 --steps 6 --warmup 0 --snapshot-every 3 --receiver-line z=4 \
  --label "$label" --output "$out" --report "$out.report.json" --quiet >"$work/run.txt"
python3 "$(dirname "$0")/../tools/verify-output.py" "$out" >"$work/verify.txt" || { cat "$work/verify.txt"; exit 1; }
python3 - "$out" "$out.report.json" "$label" <<'PY'
import glob, json, os, sys
folder, report_path, label = sys.argv[1:4]
names = sorted(glob.glob(os.path.join(glob.escape(folder), "*.json"))) + [report_path]
assert len(names) == 5, names  # two snapshot sidecars, traces, the folder's record, the report
for name in names:
    with open(name, encoding="utf-8") as f:
        text = f.read()
    doc = json.loads(text)  # raises on any unescaped character
    assert json.loads(json.dumps(doc)) == doc, name
report = json.load(open(report_path, encoding="utf-8"))
assert report["label"] == label, (report["label"], label)
print("%d JSON files parse; the label round-trips" % len(names))
PY
