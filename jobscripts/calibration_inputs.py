"""The files of a calibration (jobscripts/local/calibrate.sh), read for what
they are from their contents, never their names: one calibration is one
kernel (R, precision) on one device and back-end, its runs trusted. A part
that ran another kernel, device or back-end, a run with test aids or a
failed --check, and a run whose report warns of its timing are refused in
one line naming the file; the last unless --accept-timing-warnings, which
the projection's heading line then says."""
import glob
import os
import re

import report_rules
from checked import ToolError, checked, load_json

# stencil-halo-bench's first line: its back-end, the device of rank 0, R.
HALO_BENCH_HEAD = re.compile(r"^stencil-halo-bench: (\S+) back-end, \d+ ranks \([^)]*\), (.+), R=(\d+), ")


def load_reports(pattern):
    """The mini-app's reports among the files `pattern` matches, each
    checked against schemas/report.json; other JSON is passed over."""
    out = []
    for path in sorted(glob.glob(pattern, recursive=True)):
        r = load_json(path)  # a damaged report is named, never skipped
        if isinstance(r, dict) and r.get("program") == "stencil-miniapp":
            checked(r, "report", path, "a stencil-miniapp report")
            if r["ranks"] != r["procs"][0] * r["procs"][1] * r["procs"][2]:
                raise ToolError(f"{path}: ranks {r['ranks']} is not the product of procs "
                                f"{'x'.join(map(str, r['procs']))}")
            r["_path"] = path
            out.append(r)
    return out


def halo_bench_identity(path, lines):
    """What stencil-halo-bench's table at `path` ran: its device (with the
    back-end, as report_rules names it) and R, from its first line."""
    head = HALO_BENCH_HEAD.match(lines[0] if lines else "")
    if not head:
        raise ToolError(f"{path}: its first line is not stencil-halo-bench's (back-end, device, R): "
                        "not a table a calibration can stand on")
    return {"device": f"{head.group(1)} {head.group(2)}", "R": int(head.group(3))}


def shell_bench_identity(path, doc):
    """What the shell bench (stencil-bench's JSON) ran: its back-end and
    device from its context, and the R and precision of every benchmark
    the calibration reads, from their names (wave/R4/fp32/64x64x64)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks", []), list):
        raise ToolError(f"{path}: not stencil-bench's JSON (an object of context and benchmarks)")
    context = doc.get("context") if isinstance(doc.get("context"), dict) else {}
    if not context.get("backend") or not context.get("device"):
        raise ToolError(f"{path}: its context names no backend and device: not stencil-bench's")
    radii, precisions = set(), {str(context.get("precision", "fp32"))}
    for b in doc.get("benchmarks") or []:
        parts = str(b.get("name", "")).split("/")
        if len(parts) >= 4 and parts[0] in ("wave", "shell_inner", "shell_slabs"):
            if not re.fullmatch(r"R\d", parts[1]):
                raise ToolError(f"{path}: benchmark {b.get('name')} names no R")
            radii.add(int(parts[1][1:]))
            precisions.add(parts[2])
    identity = {"device": f"{context['backend']} {context['device']}"}
    for name, found in (("R", radii), ("precision", precisions)):
        if len(found) > 1:
            raise ToolError(f"{path}: its benchmarks mix {name} {' and '.join(map(str, sorted(found)))}")
        if found:
            identity[name] = found.pop()
    return identity


def same_kernel(folder, reports, benches):
    """Refuses a calibration whose parts ran another kernel, device or back-end
    than its first sweep report (report_rules.CALIBRATION_SAME); `benches`
    are (path, identity) of the halo and shell benches."""
    first = reports[0]
    for r in reports:  # a field no rule knows is named: the calibration cannot judge it
        report_rules.unknown_fields(r, "project")
    want = report_rules.calibration_parts(first)
    parts = [(r["_path"], report_rules.calibration_parts(r)) for r in reports[1:]] + list(benches)
    for path, got in parts:
        for name, value in got.items():
            if str(value) != str(want[name]):
                raise ToolError(f"{os.path.relpath(path, folder)}: {name} {value}, but "
                                f"{os.path.relpath(first['_path'], folder)} has {want[name]}: a calibration "
                                "is one kernel on one device, every part of it")


def trusted(folder, reports, accept_warned):
    """Refuses runs with test aids or a failed --check, and runs whose report
    warns of its timing unless `accept_warned`; returns the notes for the
    projection's heading line."""
    for r in reports:
        why = report_rules.refusal(r)
        if why:
            raise ToolError(f"{os.path.relpath(r['_path'], folder)} {why}: no calibration stands on it")
    warned = [r for r in reports if report_rules.timing_warnings(r)]
    if not warned:
        return []
    what = " and ".join(sorted({w for r in warned for w in report_rules.timing_warnings(r)}))
    first = os.path.relpath(warned[0]["_path"], folder)
    if not accept_warned:
        more = f" and {len(warned) - 1} more of its {len(reports)} runs" if len(warned) > 1 else ""
        raise ToolError(f"{first}{more} warn of their timing ({what}): calibrate again with longer "
                        "runs (calibrate.sh's STEPS=auto times each run about 2 s), or pass "
                        "--accept-timing-warnings to project from them anyway")
    return [f"{len(warned)} of the calibration's {len(reports)} runs warn of their timing ({what}; "
            "--accept-timing-warnings): their times carry noise"]


def revisions(reports):
    """A note where the calibration's runs came from more than one revision."""
    found = sorted({str(r.get("revision", "?")) for r in reports})
    return [f"its runs came from {len(found)} code revisions ({', '.join(found)})"] if len(found) > 1 else []
