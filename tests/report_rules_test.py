#!/usr/bin/env python3
"""Every field of a stencil-miniapp report has a rule in
jobscripts/report_rules.py, and the study tools keep it: for each field,
one run of a series is changed in that field alone, and collect.py must
split the series (a key), leave the run out (refuse), mark its row (warn)
or keep the series whole (varies); project.py must refuse a calibration
whose parts differ in it where a calibration must be one kernel's on one
device, or that holds a run it may not trust.

The fields are those of reports the mini-app writes now (a weak series,
and a run with --check and --timeline for the fields only they add) and
those of jobscripts/schemas/report.json: a field with no rule fails here.

usage: report_rules_test.py MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
"""
import contextlib
import copy
import io
import json
import os
import shutil
import subprocess
import sys

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(TOP, "jobscripts"))
import collect  # noqa: E402
import project  # noqa: E402
import report_rules  # noqa: E402
from checked import ToolError  # noqa: E402

KINDS = {"key", "box", "refuse", "warn", "varies"}
failures = []


def fail(message):
    failures.append(message)
    print("FAIL " + message)


def mini_app(argv, work, name, ranks, *options):
    """One run of the mini-app into WORK/NAME.json, its report returned."""
    mpiexec, np_flag, app, preflags = argv[1], argv[2], argv[3], argv[5:]
    path = os.path.join(work, name + ".json")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    subprocess.run([mpiexec, np_flag, str(ranks), *preflags, app, "--radius", "2", "--steps", "4",
                    "--warmup", "1", "--halo-depth", "1", "--quiet", "--report", path, *options],
                   check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(path) as f:
        return json.load(f)


# A change of each field that keeps the report valid against the schema.
CHANGES = {
    "label": lambda r: r["label"] + "-other",
    "precision": lambda r: "fp64" if r.get("precision") != "fp64" else "fp32",
    "periodic": lambda r: "x,y,z",
    "radius": lambda r: r["radius"] + 1,
    "devices": lambda r: ["Another GPU"],
    "asked": lambda r: dict(r["asked"], comm="staged"),
    "procs": lambda r: [r["procs"][2], r["procs"][1], r["procs"][0]],
    "test_aids": lambda r: "--poison-halo",
    "check": lambda r: {"cells_differing": 3, "cells": 100, "bitwise_equal": False},
    "timing_warning": lambda r: "the timed steps took 0.001 s on the slowest rank",
    "speed_check": lambda r: {"trial_ms": 1.0, "slow_warning": "the steps stayed 40% slower"},
    "phases_ms": lambda r: {k: {m: 2 * v for m, v in p.items()} for k, p in r["phases_ms"].items()},
    "halo_depth": lambda r: r["halo_depth"] + 1,
    "provenance": lambda r: {"one_domain_answer": False, "not_one_domain_because": ["a test aid"],
                             "test_aids": ["--poison-halo"], "check": "failed"},
}


def changed(r, field):
    """Report `r` with `field` changed (or set, where it is absent)."""
    r = copy.deepcopy(r)
    if field == "ranks":  # ranks and procs together: a run of another rank count
        r["ranks"], r["procs"] = 4, [1, 2, 2]
        return r
    if field in CHANGES:
        r[field] = CHANGES[field](r)
        return r
    value = r.get(field)
    if isinstance(value, bool):
        r[field] = not value
    elif isinstance(value, (int, float)):
        r[field] = value * 1.5 + 1
    elif isinstance(value, str):
        r[field] = value + "-other"
    elif isinstance(value, list):
        r[field] = [n + 1 for n in value] if value and all(isinstance(n, int) for n in value) else value + [{}]
    elif isinstance(value, dict):
        r[field] = dict(value, changed=1)
    else:
        r[field] = "set"
    return r


def collected(folder):
    """collect.py's rows for `folder`, and what it said on stderr."""
    report_rules._named.clear()
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        rows = collect.series_rows(collect.load(folder))
    return rows, said.getvalue()


def expect_collect(field, kind, base, study):
    """The series of a 1- and a 2-rank run, and the 2-rank run with `field` changed."""
    folder = os.path.join(WORK, "collect", f"{study}-{field}")
    os.makedirs(folder)
    for name, r in (("n1", base[0]), ("n2", base[1]), ("changed", changed(base[1], field))):
        with open(os.path.join(folder, name + ".json"), "w") as f:
            json.dump(r, f)
    try:
        rows, said = collected(folder)
    except ToolError as e:
        return fail(f"collect, {study} series, {field} changed: refused whole ({e})")
    series = {row["series"] for row in rows}
    if kind == "box":
        kind = "key" if (field == "grid") == (study == "strong") else "varies"
    want = {"key": (3, 2), "refuse": (2, 1), "warn": (3, 1), "varies": (3, 1)}[kind]
    if (len(rows), len(series)) != want:
        return fail(f"collect, {study} series, {field} changed ({kind}): {len(rows)} rows in "
                    f"{len(series)} series, not {want[0]} in {want[1]}")
    if kind == "refuse" and field != "program" and "changed.json" not in said:
        fail(f"collect, {field} set: the run left out without a word")
    if kind == "warn" and not any(row["short"] or row["slow"] for row in rows):
        fail(f"collect, {field} set: no row marked")
    print(f"ok  collect, {study} series, {field}: {kind}")


# The fields a calibration's parts must share (one kernel on one device),
# and those that make a sweep/ run one GPU's with no exchange.
SAME_KERNEL = {"radius", "precision", "devices", "backend", "model", "sponge", "spacing_m",
               "omp_threads_per_rank", "subnormals"}
SWEEP_RUN = {"ranks", "comm", "periodic"}


def expect_calibration(field, kind, sweep):
    """A calibration of two sweep runs, the second with `field` changed:
    refused where the field makes the parts differ in kernel or device, or
    the run untrusted; else projected (a warning only when told)."""
    folder = os.path.join(WORK, "calibration", field)
    os.makedirs(os.path.join(folder, "sweep"))
    for name, r in (("a", sweep[0]), ("b", changed(sweep[1], field))):
        with open(os.path.join(folder, "sweep", name + ".json"), "w") as f:
            json.dump(r, f)
    with open(os.path.join(folder, "halo-bench-calibration.txt"), "w") as f:
        f.write(f"stencil-halo-bench: {sweep[0]['backend']} back-end, 2 ranks (1 x 1 x 2), "
                f"{sweep[0]['devices'][0]}, R=2, 50 iterations\n\nmode local depth messages MiB/exch us/exch\n"
                "gpu-aware 16 1 1 0.02 5.0\ngpu-aware 24 1 1 0.04 6.0\n")
    refused = kind in ("refuse", "warn") or field in SAME_KERNEL | SWEEP_RUN
    for told in ([], ["--accept-timing-warnings"]):
        report_rules._named.clear()
        want = 2 if refused and not (told and kind == "warn") else 0
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                got = project.main(["project.py", folder, "--machine", os.path.join(TOP, "jobscripts", "machines",
                                    "ci-host.json"), "--radius", "2", *told, "weak", "--local", "16,16,16",
                                    "--nodes", "1"])
        except ToolError as e:
            got, err = 2, io.StringIO(str(e))
        if got != want:
            return fail(f"project.py, a calibration with {field} changed in one part {' '.join(told)}: "
                        f"exit {got}, not {want} ({err.getvalue().strip()[:200]})")
    print(f"ok  project.py, {field} changed in one part of a calibration: {'refused' if refused else 'taken'}")


def base_series(argv):
    """A weak series at 1 and 2 ranks, its timing trusted (the warnings
    cleared), and the same runs as a strong series of one grid; and a run
    with --check and --timeline for the fields only they write."""
    runs = [mini_app(argv, WORK, f"weak-n{n}", n, "--local", "16,16,16", "--label", "weak") for n in (1, 2)]
    extra = mini_app(argv, WORK, "checked", 1, "--grid", "16,16,16", "--check", "--checksum",
                     "--timeline", os.path.join(WORK, "timeline.json"))
    sweep = [mini_app(argv, WORK, f"sweep-{n}", 1, "--local", f"{n},{n},{n}", "--comm", "none", "--label",
                      "sweep") for n in (16, 24)]
    for r in runs + sweep:  # trusted: no short window, and no slow node (on a busy machine)
        r["timing_warning"], r["speed_check"] = None, None
    strong = copy.deepcopy(runs)
    for r in strong:
        r["label"], r["grid"] = "strong", [16, 16, 32]
    return runs, strong, extra, sweep


def main(argv):
    global WORK
    WORK = argv[4]
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    weak, strong, extra, sweep = base_series(argv)
    with open(os.path.join(TOP, "jobscripts", "schemas", "report.json")) as f:
        schema_fields = set(json.load(f)["properties"])
    fields = set(weak[1]) | set(extra) | schema_fields
    for field in sorted(fields - set(report_rules.RULES)):
        fail(f"{field}: a field of the report with no rule in jobscripts/report_rules.py")
    for field, (kind, why) in sorted(report_rules.RULES.items()):
        if kind not in KINDS or not why:
            fail(f"{field}: rule {kind!r} is not one of {sorted(KINDS)}, or says no why")
            continue
        for study, base in (("weak", weak), ("strong", strong)):
            expect_collect(field, kind, base, study)
        expect_calibration(field, kind, sweep)
    # A field no rule knows: its runs kept apart, and the field named.
    expect_collect("a_field_of_tomorrow", "key", weak, "weak")
    rows, said = collected(os.path.join(WORK, "collect", "weak-a_field_of_tomorrow"))
    if "'a_field_of_tomorrow' has no rule" not in said:
        fail("an unknown field is not named on stderr")
    if failures:
        print(f"report_rules_test: {len(failures)} rules not kept")
        return 1
    print(f"report_rules_test: every rule kept, {len(report_rules.RULES)} fields")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
