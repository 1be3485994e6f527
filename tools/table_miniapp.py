"""One row per stencil-miniapp JSON report: the per-phase times (average over
ranks, ms per step), the halo depth, exchange hidden, Gcell/s, and time per
step over the --comm none run with the same ranks, grid, radius, overlap,
precision and graphs;
with the report's --label first when any report has one.

usage: report-table.py miniapp REPORT.json... [--markdown]
exit:  0; 1 when a report failed its --check (the table still printed, its
       row marked FAILED); 2 on bad usage or a file that is not a report
"""
import sys

from text_table import print_table
from tool_errors import ToolError, load_json


def report_problem(r):
    """Why `r` is not a report this table can show, or None. The fields it
    reads as objects are checked, since a null one is no number to show."""
    if not isinstance(r, dict):
        return "not a JSON object"
    phases = r.get("phases_ms")
    if not isinstance(phases, dict) or not isinstance(phases.get("step"), dict) or \
            not all(isinstance(v, dict) for v in phases.values()):
        return "phases_ms must hold each phase's min, avg and max"
    if not isinstance(r.get("check", {}), dict):
        return "check must be an object"
    if not isinstance(r.get("label", ""), str):
        return "label must be a string"
    return None


def rate(gcells):
    """Gcell/s to three figures: a HOST rank's 0.012 is not 0.0."""
    return "%.1f" % gcells if gcells >= 10 else "%.3g" % gcells


def main(args):
    files = [a for a in args if not a.startswith("--")]
    if not files:
        raise ToolError("usage: report-table.py miniapp REPORT.json... [--markdown]")
    md = "--markdown" in args
    reports = [load_json(f) for f in files]
    for f, r in zip(files, reports):
        why = report_problem(r)
        if why:
            raise ToolError("%s: %s" % (f, why))
    failed = False
    for f, r in zip(files, reports):  # a run that failed its --check says so; its row is kept, marked
        if r.get("check", {}).get("bitwise_equal") is False:
            print("report-table.py miniapp: %s failed its --check (%d of %d cells differ): marked FAILED"
                  % (f, r["check"]["cells_differing"], r["check"]["cells"]), file=sys.stderr)
            r["label"] = (r.get("label", "") + " FAILED").strip()
            failed = True
    prec = lambda r: r.get("precision", "fp32")  # reports before --precision were fp32
    graphs = lambda r: "on" if r.get("graphs") else "off"  # reports before --graphs had none
    key = lambda r: (r["ranks"], tuple(r["grid"]), tuple(r["procs"]), r["radius"], r["overlap"], prec(r), graphs(r))
    none = {key(r): r["phases_ms"]["step"]["max"] for r in reports if r["comm"] == "none"}
    depth = lambda r: r.get("halo_depth", 1)  # reports before --halo-depth exchanged every step
    header = ["ranks", "procs", "grid", "R", "prec", "comm", "overlap", "graphs", "k", "pack", "post", "interior", "wait",
              "unpack", "boundary", "step", "hidden", "Gcell/s/GPU", "vs none"]
    rows = []
    order = lambda r: (r["ranks"], r["grid"], r["procs"], prec(r), r["comm"], not r["overlap"], graphs(r), depth(r))
    def hidden(r):  # null where nothing ran beside the interior (the report says why)
        share = r.get("exchange_hidden_fraction")
        return "-" if share is None or r["comm"] == "none" else "%.0f%%" % (100 * share)

    for r in sorted(reports, key=order):
        ph = {k: v["avg"] for k, v in r["phases_ms"].items()}
        step = r["phases_ms"]["step"]["max"]
        ref = none.get(key(r))
        rows.append([str(r["ranks"]), "x".join(map(str, r["procs"])), "x".join(map(str, r["grid"])),
                     str(r["radius"]), prec(r), r["comm"], "on" if r["overlap"] else "off", graphs(r),
                     str(depth(r))] +
                    ["%.3f" % ph[k] for k in ("pack", "post", "interior", "wait", "unpack", "boundary")] +
                    ["%.3f" % step, hidden(r),
                     rate(r["gcells_per_s_per_rank"]),
                     ("%.3f" % (step / ref)) if ref and r["comm"] != "none" else "-"])
    if any(r.get("label") for r in reports):  # experiments name their variants
        header = ["label"] + header
        ordered = sorted(reports, key=order)
        rows = [[r.get("label", "")] + row for r, row in zip(ordered, rows)]
    print_table(header, rows, md)
    return 1 if failed else 0  # a table with a wrong result in it is no success for a script

