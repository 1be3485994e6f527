#!/usr/bin/env bash
# tools/timeline-svg.py on a timeline the HOST back-end wrote: a well-formed
# SVG (xml.etree parses it) with one rectangle per span of the step drawn
# and a row label per rank and lane.
# usage: timeline_svg_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
rm -rf "$work" && mkdir -p "$work"
# shellcheck disable=SC2054 # the commas are inside the grid size
"$mpiexec" "$np_flag" 2 "$@" "$app" --grid 24,20,28 --radius 2 --steps 20 --warmup 1 --periodic x \
  --timeline "$work/t.json" --quiet >"$work/run.txt" 2>&1 || { cat "$work/run.txt"; exit 1; }
python3 "$(dirname "$0")/../tools/timeline-svg.py" "$work/t.json" "$work/t.svg" --step 9
python3 - "$work/t.json" "$work/t.svg" <<'PY'
import json, sys
import xml.etree.ElementTree as ET
doc = json.load(open(sys.argv[1]))
spans = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["args"]["step"] == 9]
root = ET.parse(sys.argv[2]).getroot()  # raises on a malformed SVG
ns = "{http://www.w3.org/2000/svg}"
assert root.tag == ns + "svg", root.tag
rects = [r for r in root.iter(ns + "rect") if r.find(ns + "title") is not None]
assert len(rects) == len(spans) > 0, (len(rects), len(spans))
titles = sorted(r.find(ns + "title").text.split()[0] for r in rects)
assert titles == sorted(e["name"] for e in spans), titles
labels = [t.text for t in root.iter(ns + "text")]
for rank in (0, 1):
    for lane in ("host", "compute stream", "halo stream"):
        assert "rank %d %s" % (rank, lane) in labels, labels
print("timeline-svg: %d spans of step 9 drawn, a well-formed SVG" % len(spans))
PY
