"""project.py validate: the projection of each measured run against its
measurement. A run that cannot stand for a measurement is left out and
said: test aids, a failed --check, and (unless --accept-timing-warnings) a
report that warns of its timing (jobscripts/report_rules.py)."""
import argparse
import os

import report_rules
from calibration import calibration_caveats, devices_of, folder_of, load_reports, scale_caveats
from checked import ToolError
from projection_model import project_run
from projection_tables import validation_records, validation_table


def axes_of(text):
    """'x,z' -> (True, False, True); 'none' -> all False."""
    names = [] if text in ("", "none") else text.split(",")
    if any(n not in ("x", "y", "z") for n in names):
        raise argparse.ArgumentTypeError(f"'{text}' is not 'none' or a list of x, y, z")
    return tuple(a in names for a in "xyz")


def left_out_why(r, accept_warned):
    """Why run `r` is no measurement to validate against, or None."""
    why = report_rules.refusal(r)
    if why or accept_warned:
        return why
    warned = report_rules.timing_warnings(r)
    return f"a timing warning ({' and '.join(warned)}; --accept-timing-warnings takes such runs)" if warned else None


def differences(cal, r):
    """Where run `r` stands past the calibration: R, precision, device, edges."""
    past = set()
    if r["radius"] not in getattr(cal, "radii", [r["radius"]]):
        past.add(f"runs of R={r['radius']} against a calibration of R={'/'.join(map(str, cal.radii))}")
    if str(r.get("precision", "fp32")) != getattr(cal, "precision", str(r.get("precision", "fp32"))):
        past.add(f"runs in {r.get('precision')} against a calibration in {cal.precision}")
    ran_on = devices_of([r])
    if ran_on and getattr(cal, "devices", None) and not ran_on <= set(cal.devices):
        past.add(f"runs on {' and '.join(sorted(ran_on))} against a calibration on {' and '.join(cal.devices)}")
    if r.get("periodic", "none") != "none" and not cal.shell_points:
        past.add("periodic runs against a calibration without shell/ (the older model)")
    if r.get("timing_warning") or (r.get("speed_check") or {}).get("slow_warning"):
        past.add("runs that warn of their timing, taken (--accept-timing-warnings)")
    return past


def validate(cal, machine, folder, accept_warned):
    """Projection against each measured report; calibration inputs marked."""
    rows, worst, other, past, left_out = [], 0.0, set(), set(), {}
    for r in load_reports(os.path.join(folder, "**", "*.json")):
        peer = r["comm"] == "peer"
        why = left_out_why(r, accept_warned)
        if why:
            left_out.setdefault(why, []).append(os.path.relpath(r["_path"], folder))
            continue
        if r["ranks"] > 1 and r["comm"] != cal.mode and not peer:
            other.add(r["comm"])  # the model's exchange is the calibrated mode's
            continue
        past |= differences(cal, r)
        projected = project_run(cal, machine, r["grid"], r["procs"], r["radius"], r["overlap"],
                                axes_of(r.get("periodic", "none")), r.get("halo_depth", 1),
                                peer and r["ranks"] > 1)["step_ms"]
        measured = r["phases_ms"]["step"]["max"]  # the slowest rank's, as collect.py takes it
        error = projected / measured - 1
        role = "calibration" if os.path.realpath(r["_path"]) in cal.inputs else "validation"
        if role == "validation":
            worst = max(worst, abs(error))
        rows.append((os.path.relpath(r["_path"], folder), r["ranks"], "x".join(map(str, r["procs"])),
                     "x".join(map(str, r["grid"])), "on" if r["overlap"] else "off",
                     r.get("halo_depth", 1), measured, projected, error, role))
    rows.sort(key=lambda x: (x[9], x[0]))
    out = validation_table(rows)
    if other:
        out.append(f"\nNot compared (the exchange was calibrated with {cal.mode}): runs of several ranks "
                   f"with --comm {', '.join(sorted(other))}.")
    for why, paths in sorted(left_out.items()):
        out.append(f"\nLeft out, {why}: {', '.join(paths[:3])}{' ...' if len(paths) > 3 else ''} "
                   f"({len(paths)} run{'s' if len(paths) > 1 else ''}).")
    return "\n".join(out), worst, len([r for r in rows if r[9] == "validation"]), sorted(past), rows


def validation_text(cal, machine, a):
    """The validation's section for one machine, whether it passed, and its CSV records."""
    scale = machine.get("kernel_time_scale", 1.0) if a.machine_scale else 1.0
    md, worst, count, past, rows = validate(cal, dict(machine, kernel_time_scale=scale), folder_of(a.reports),
                                            a.accept_timing_warnings)
    if count == 0:
        raise ToolError(f"validate {a.reports}: no run to validate against (none there, only the "
                        "calibration's own inputs, or only runs it must leave out: "
                        f"{md.split('Left out, ', 1)[1].splitlines()[0] if 'Left out, ' in md else 'none'})")
    whose = "the machine file's (--machine-scale)." if a.machine_scale else \
        "the runs are taken as the calibration node's own (--machine-scale applies the file's)."
    notes = "".join(f"; {n}" for n in past + calibration_caveats(cal) +
                    (scale_caveats(cal, machine) if a.machine_scale else []))
    return [f"## {machine['name']}: projection against measurement{' (' + notes[2:] + ')' if notes else ''}", "",
            f"Kernel time scale {scale:g}: {whose} Measured: the slowest rank's step.", "", md, "",
            f"{count} validation runs, worst error {100 * worst:.1f}% (tolerance {100 * a.tolerance:.0f}%)",
            ""], worst <= a.tolerance, validation_records(machine["name"], rows)
