#!/usr/bin/env bash
# tools/timeline-svg.py on a timeline the HOST back-end wrote: a well-formed
# SVG (xml.etree parses it) with one rectangle per span of the step drawn
# and a row label per rank and lane; span names that XML cannot hold drawn
# escaped; files it cannot draw refused in one line.
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
# Span names are the file's to choose: a NUL, an escape character, a lone
# surrogate or U+FFFE (all valid in JSON, none allowed in XML) are drawn as
# the JSON escape that wrote them, and the SVG still parses.
svg=(python3 "$(dirname "$0")/../tools/timeline-svg.py")
python3 - "$work" "${svg[@]}" <<'PY'
import json, subprocess, sys
import xml.etree.ElementTree as ET
work, tool = sys.argv[1], sys.argv[2:]
names = ["pa\u0000ck", "w\u001bait", "\ud800post", "un\ufffepack\uffff", "tab\tand\nnewline"]
shown = ["pa\\u0000ck", "w\\u001bait", "\\ud800post", "un\\ufffepack\\uffff", "tab\tand\nnewline"]
events = [{"name": n, "ph": "X", "pid": 0, "tid": 0, "ts": 10 * i, "dur": 9, "args": {"step": 1, "ring_step": 0}}
          for i, n in enumerate(names)]
with open(work + "/control.json", "w") as f:
    json.dump({"traceEvents": events}, f)
done = subprocess.run(tool + [work + "/control.json", work + "/control.svg"], capture_output=True, text=True)
assert done.returncode == 0, (done.returncode, done.stderr)
root = ET.parse(work + "/control.svg").getroot()  # raises on a malformed SVG
ns = "{http://www.w3.org/2000/svg}"
titles = sorted(r.find(ns + "title").text.rsplit(" ", 2)[0] for r in root.iter(ns + "rect")
                if r.find(ns + "title") is not None)
assert titles == sorted(shown), titles
texts = [t.text for t in root.iter(ns + "text")]
assert all(name in texts for name in shown[:4]), texts
print("timeline-svg: names XML cannot hold drawn as escapes, a well-formed SVG")
PY
# Bad input: one line on stderr and exit 2, no traceback, nothing written.
refuse() { # refuse NAME JSON_TEXT WORDS: the tool refuses the file, naming WORDS
  printf '%s' "$2" >"$work/$1.json"
  local rc=0
  "${svg[@]}" "$work/$1.json" "$work/$1.svg" 2>"$work/$1.err" >/dev/null || rc=$?
  if ! { [ "$rc" = 2 ] && [ "$(wc -l <"$work/$1.err")" = 1 ] && grep -q "$3" "$work/$1.err" &&
    ! grep -q Traceback "$work/$1.err" && [ ! -e "$work/$1.svg" ]; }; then
    cat "$work/$1.err"
    echo "timeline-svg: $1: rc $rc, not one line naming '$3'"
    exit 1
  fi
}
span='{"name":"pack","ph":"X","pid":0,"tid":TID,"ts":1,"dur":DUR,"args":{"step":1,"ring_step":0}}'
lane1=${span/TID/1}
refuse not_json '{' "not valid JSON\|JSON"
refuse no_list '{"traceEvents":{}}' "no traceEvents list"
refuse not_object '{"traceEvents":[1]}' "traceEvents\[0\] is not an object"
refuse deep "$(python3 -c "print('[' * 100000 + ']' * 100000)")" "nested too deeply"
refuse negative "{\"traceEvents\":[${lane1/DUR/-3}]}" "negative duration"
refuse string_dur "{\"traceEvents\":[${lane1/DUR/\"3\"}]}" "ts and dur must be numbers"
# Times no run's clock reaches, which drew a step "inf us" long or 0 us wide.
refuse huge_dur "{\"traceEvents\":[${lane1/DUR/1e300}]}" "at most 1e13 us"
late=${lane1/'"ts":1,'/'"ts":-1e300,'}
refuse huge_ts "{\"traceEvents\":[${late/DUR/3},${lane1/DUR/3}]}" "at most 1e13 us"
late=${lane1/'"ts":1,'/"\"ts\":1$(printf '0%.0s' {1..400}),"}
refuse huge_int_ts "{\"traceEvents\":[${late/DUR/3}]}" "at most 1e13 us"
lane7=${span/TID/7}
refuse bad_lane "{\"traceEvents\":[${lane7/DUR/3}]}" "tid 0, 1 or 2"
# A rank the file says the run did not have (otherData.ranks, which the
# mini-app writes), or no rank at all.
rank5=${lane1/'"pid":0,'/'"pid":5,'}
refuse beyond_ranks "{\"traceEvents\":[${lane1/DUR/3},${rank5/DUR/3}],\"otherData\":{\"ranks\":2}}" \
  "traceEvents\[1\]: pid 5 is not one of the 2 ranks otherData declares"
refuse bad_ranks "{\"traceEvents\":[${lane1/DUR/3}],\"otherData\":{\"ranks\":\"2\"}}" "otherData.ranks"
negative=${lane1/'"pid":0,'/'"pid":-1,'}
refuse negative_pid "{\"traceEvents\":[${negative/DUR/3}]}" "pid must be a rank"
cp "$work/t.json" "$work/same.json"
rc=0 && "${svg[@]}" "$work/same.json" "$work/same.json" 2>"$work/same.err" || rc=$?
if ! { [ "$rc" = 2 ] && cmp -s "$work/t.json" "$work/same.json"; }; then
  cat "$work/same.err"
  echo "timeline-svg: drew over its own input (rc $rc)"
  exit 1
fi
echo "timeline-svg: bad files refused in one line each; its own input never overwritten"
