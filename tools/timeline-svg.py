#!/usr/bin/env python3
"""Draws one step of a stencil-miniapp --timeline file as an SVG.

usage: timeline-svg.py TIMELINE.json OUT.svg [--step N]

OUT.svg must end .svg; a file there that is not an SVG (a report, the
timeline) is refused, never overwritten.

One row per rank and lane (host, compute stream, halo stream), each phase
of the step a coloured rectangle with its name, on the timeline's clock
(microseconds from the step's first span). Without --step, the first
exchange step the file holds (ring step 0). For the docs' before-and-after
pictures; Python's standard library only.

A file it cannot draw is refused in one line with status 2, the SVG not
written: among others, a span whose ts or dur is not a number within 1e13
us, whose lane is not 0-2, or whose rank is not one of those the file's
otherData.ranks declares. Names XML cannot hold are drawn escaped.
"""
import argparse
import os
import re
from xml.sax.saxutils import escape

from tool_errors import ToolError, load_json, run

LANES = ["host", "compute stream", "halo stream"]
COLOURS = {"begin": "#9e9e9e", "fork": "#bdbdbd", "join": "#bdbdbd", "pack": "#ff9800",
           "post": "#795548", "wait": "#e53935", "unpack": "#fb8c00", "interior": "#1e88e5",
           "whole": "#1e88e5", "boundary": "#43a047", "source": "#8e24aa"}
ROW, LABEL_W, WIDTH, TOP = 22, 170, 1000, 30
# A character XML 1.0 does not allow. A JSON string may hold them all: the
# control characters but tab, newline and carriage return (a NUL, say), lone
# surrogates, U+FFFE and U+FFFF; one of them in a name would leave an SVG
# that no reader parses.
NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# The clock starts at a barrier before the first sampled step, so no span of
# a run starts or lasts beyond 1e13 us (116 days); there a double still
# resolves 2 ns. Times past it are no run's, and drew a step "inf us" long
# or every span at one point.
MAX_US = 1e13


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and x == x and abs(x) != float("inf")


def is_index(x):
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def shown(name):
    """`name` as the SVG shows it, what XML cannot hold written as the JSON
    escape that wrote it (a NUL as \\u0000); still to be escaped for XML."""
    return NOT_XML.sub(lambda m: "\\u%04x" % ord(m.group()), name)


def span_problem(e):
    """Why event `e` is not a span this tool can draw, or None."""
    if not all(is_number(e.get(k)) for k in ("ts", "dur")):
        return "ts and dur must be numbers"
    if any(abs(e[k]) > MAX_US for k in ("ts", "dur")):
        return "ts and dur must be at most 1e13 us (116 days) either way; no run's clock reaches further"
    if e["dur"] < 0:
        return "a negative duration"
    if not is_index(e.get("pid")) or not is_index(e.get("tid")) or e["tid"] >= len(LANES):
        return "pid must be a rank and tid 0, 1 or 2"
    args = e.get("args")
    if not isinstance(args, dict) or not isinstance(args.get("step"), int) or not isinstance(e.get("name"), str):
        return "a name and args.step are needed"
    return None


def declared_ranks(doc, path):
    """How many ranks the file says the run had (otherData.ranks), or None
    where it does not say."""
    other = doc.get("otherData", {})
    if not isinstance(other, dict):
        raise ToolError("%s: otherData is not an object" % path)
    ranks = other.get("ranks")
    if ranks is not None and not (is_index(ranks) and ranks > 0):
        raise ToolError("%s: otherData.ranks must be a positive number of ranks" % path)
    return ranks


def load_spans(path):
    doc = load_json(path)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        raise ToolError("%s: not a --timeline file (no traceEvents list)" % path)
    ranks = declared_ranks(doc, path)
    spans = []
    for i, e in enumerate(doc["traceEvents"]):
        if not isinstance(e, dict):
            raise ToolError("%s: traceEvents[%d] is not an object" % (path, i))
        if e.get("ph") != "X":
            continue
        why = span_problem(e)
        if not why and ranks is not None and e["pid"] >= ranks:
            # A span of a rank the run did not have is refused like any
            # other span the tool cannot draw, not drawn as an extra row.
            why = "pid %d is not one of the %d ranks otherData declares" % (e["pid"], ranks)
        if why:
            raise ToolError("%s: traceEvents[%d]: %s" % (path, i, why))
        spans.append(e)
    return spans


def pick_step(spans, step):
    if step is None:
        ring0 = sorted(e["args"]["step"] for e in spans if e["args"].get("ring_step") == 0)
        if not ring0:
            raise ToolError("the file holds no spans")
        step = ring0[0]
    chosen = [e for e in spans if e["args"]["step"] == step]
    if not chosen:
        raise ToolError("no spans of step %d in the file" % step)
    return step, chosen


def draw(spans, step):
    ranks = sorted({e["pid"] for e in spans})
    t0 = min(e["ts"] for e in spans)
    t1 = max(e["ts"] + e["dur"] for e in spans)
    scale = (WIDTH - LABEL_W - 10) / max(t1 - t0, 1e-9)
    height = TOP + ROW * 3 * len(ranks) + 30
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="11">' % (WIDTH, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="10" y="18" font-size="13">step %d: %.1f us, %d rank%s</text>'
           % (step, t1 - t0, len(ranks), "" if len(ranks) == 1 else "s")]
    for r, rank in enumerate(ranks):
        for lane, lane_name in enumerate(LANES):
            y = TOP + ROW * (3 * r + lane)
            out.append('<text x="10" y="%d">rank %d %s</text>' % (y + 15, rank, lane_name))
            out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#eee"/>'
                       % (LABEL_W, y + ROW, WIDTH, y + ROW))
            for e in (e for e in spans if e["pid"] == rank and e["tid"] == lane):
                x = LABEL_W + (e["ts"] - t0) * scale
                w = max(e["dur"] * scale, 1.0)
                colour = COLOURS.get(e["name"], "#607d8b")
                name = shown(e["name"])
                out.append('<rect x="%.2f" y="%d" width="%.2f" height="%d" fill="%s">'
                           '<title>%s %.2f us</title></rect>'
                           % (x, y + 3, w, ROW - 6, colour, escape(name), e["dur"]))
                if w > 7 * len(name):
                    out.append('<text x="%.2f" y="%d" fill="white">%s</text>'
                               % (x + 3, y + 15, escape(name)))
    axis_y = height - 12
    out.append('<text x="%d" y="%d">0 us</text>' % (LABEL_W, axis_y))
    out.append('<text x="%d" y="%d" text-anchor="end">%.1f us</text>' % (WIDTH - 10, axis_y, t1 - t0))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def drawn_here(path):
    """Whether `path` holds an SVG (one this tool drew may be drawn again)."""
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except OSError:
        return False
    return head.lstrip().startswith((b"<svg", b"<?xml"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("timeline")
    parser.add_argument("svg")
    parser.add_argument("--step", type=int, help="the step to draw (default: the first exchange step)")
    args = parser.parse_args()
    if os.path.exists(args.svg) and os.path.exists(args.timeline) and os.path.samefile(args.timeline, args.svg):
        raise ToolError("%s: the SVG would overwrite the timeline it draws" % args.svg)
    if not args.svg.lower().endswith(".svg"):
        raise ToolError("%s: the picture's name ends .svg (a report or a timeline is never overwritten)" % args.svg)
    if os.path.exists(args.svg) and not drawn_here(args.svg):
        raise ToolError("%s: there already, and not an SVG this tool drew: nothing is overwritten" % args.svg)
    step, spans = pick_step(load_spans(args.timeline), args.step)
    text = draw(spans, step)
    try:
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise ToolError("%s: %s" % (args.svg, e.strerror)) from None
    print("%s: step %d, %d spans" % (args.svg, step, len(spans)))
    return 0


if __name__ == "__main__":
    run(main)
