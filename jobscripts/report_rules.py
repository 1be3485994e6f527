"""Which stencil-miniapp runs the study tools may compare, and which runs no
number may come from (jobscripts/README.md, "What the tools compare").

Every top-level field of a report has one rule in RULES:

  key     part of what a run is: runs that differ in it are different
          series (collect.py), and its value is said in the series' name
  box     the box per rank (local_rank0) is a weak series' key, the grid a
          strong one's; the other follows from it and the ranks
  refuse  a run where it is set is left out of every series, calibration
          and validation: the program's own work was changed (a test aid)
          or its answer was wrong (a failed --check)
  warn    a run where it is set timed too short a window, or ran on a node
          that was slow: collect.py marks its row and its point, project.py
          refuses it unless told --accept-timing-warnings
  varies  what the run measured, chose (auto), or derived from its key and
          rank count: it differs along a series by design

A field RULES does not know is taken as a key: runs whose values differ are
split, and the field is named once on stderr. A new field of the report
thus changes no series silently, and tests/report_rules_test.py, which
changes each field in one run of a series and checks the rule, fails until
the field has a rule here.
"""
import json
import sys

# Each field and its rule, with why.
RULES = {
    "program": ("refuse", "a report of another program (a tuning cache, a sidecar) is passed over"),
    "label": ("key", "the study (weak, strong, and a suffix)"),
    "revision": ("key", "the code that ran"),
    "version": ("key", "the release of the code that ran (revision names its tree)"),
    "backend": ("key", "the back-end the kernels ran on"),
    "devices": ("key", "the devices the ranks ran on"),
    "ranks": ("varies", "what a series runs along"),
    "procs": ("varies", "the split of the ranks"),
    "grid": ("box", "a strong series' key; a weak one's grows with the ranks"),
    "local_rank0": ("box", "a weak series' key; a strong one's shrinks with the ranks"),
    "periodic": ("key", "the edges: neighbours and work per rank"),
    "radius": ("key", "the stencil's reach and arithmetic"),
    "precision": ("key", "the bytes moved per cell"),
    "asked": ("key", "the exchange and launch settings asked for (auto where the run chose)"),
    "model": ("key", "the velocity model"),
    "spacing_m": ("key", "the physics"),
    "dt_s": ("key", "the physics"),
    "f0_hz": ("key", "the physics"),
    "sponge": ("key", "the sponge's arithmetic"),
    "omp_threads_per_rank": ("key", "the cores each rank computes with"),
    "subnormals": ("key", "whether subnormals are flushed: their arithmetic is far slower"),
    "tuning_mode": ("key", "where the launch shapes came from (off, auto, a cache)"),
    "timeline": ("key", "a timeline records its sampled steps as they run"),
    "test_aids": ("refuse", "a planted fault or aid changes the program's work"),
    "check": ("refuse", "where bitwise_equal is false, the answer was wrong"),
    "timing_warning": ("warn", "under 0.5 s of timed steps"),
    "speed_check": ("warn", "where slow_warning is set, the node ran slower than the run's own trial"),
    "comm": ("varies", "what the run chose; the key holds what was asked"),
    "comm_reason": ("varies", "why the run chose its comm"),
    "overlap": ("varies", "what the run chose; the key holds what was asked"),
    "overlap_reason": ("varies", "why the run chose its overlap"),
    "halo_depth": ("varies", "what the run chose; the key holds what was asked"),
    "halo_depth_reason": ("varies", "why the run chose its depth"),
    "fused_pack": ("varies", "what the run chose; the key holds the pack asked"),
    "halo_pack": ("varies", "what the run chose; the key holds the pack asked"),
    "pack_reason": ("varies", "why the run chose its pack"),
    "slab_x": ("varies", "chosen per box"),
    "graphs": ("varies", "chosen per run (auto)"),
    "tuning": ("varies", "the interior's launch shape, chosen per box"),
    "shapes": ("varies", "each box's launch shape, chosen per box"),
    "omp_threads_reason": ("varies", "why the run took its threads"),
    "halo_faces_rank0": ("varies", "follows from the split and the edges"),
    "self_faces_rank0": ("varies", "follows from the split and the edges"),
    "face_routes_rank0": ("varies", "follows from the split and the comm chosen"),
    "exchanges_per_step": ("varies", "follows from the depth chosen"),
    "redundant_cell_share": ("varies", "follows from the depth chosen and the box"),
    "steps": ("varies", "how long the timing ran; timing_warning says whether it was enough"),
    "warmup": ("varies", "untimed steps, undone"),
    "timed_steps": ("varies", "measured"),
    "timed_window_s": ("varies", "measured"),
    "output_seconds": ("varies", "measured: the snapshots' and traces' writes, outside the timed steps"),
    "step_rank_spread": ("varies", "measured"),
    "phases_ms": ("varies", "measured"),
    "gcells_per_s_total": ("varies", "measured"),
    "gcells_per_s_per_rank": ("varies", "measured"),
    "effective_gb_per_s_per_rank": ("varies", "measured"),
    "exchange_ms": ("varies", "measured"),
    "exchange_hidden_fraction": ("varies", "measured"),
    "pinned_host_bytes": ("varies", "follows from the comm chosen and the faces"),
    "imbalance": ("varies", "measured"),
    "trials": ("varies", "the auto choices' trials, measured"),
    "checksum": ("varies", "the answer, which changes with the steps"),
    "checksum_is_one_domain_answer": ("varies", "whether the checksum is comparable across runs"),
    "steps_per_graph": ("varies", "chosen per run (--steps-per-graph auto), as graphs are"),
    "provenance": ("refuse", "where it names test aids or a failed check (its test_aids, its check)"),
}

_named = set()  # unknown fields already named on stderr


def nested(r, name):
    """A field of the report's provenance object (since 2026-12: whether
    the field is the one-domain answer, the test aids, the check's
    verdict), or None."""
    value = r.get("provenance")
    return value.get(name) if isinstance(value, dict) else None


def refusal(r):
    """Why no number may come from run `r`, or None."""
    aids = r.get("test_aids") or nested(r, "test_aids")
    if aids:
        return f"ran with test aids ({aids if isinstance(aids, str) else ', '.join(map(str, aids))})"
    if (r.get("check") or {}).get("bitwise_equal") is False or nested(r, "check") == "failed":
        return "failed its --check"
    return None


def timing_warnings(r):
    """What the report warns of its timing: a short window, a slow node."""
    found = []
    if r.get("timing_warning"):
        found.append("under 0.5 s of timed steps")
    if (r.get("speed_check") or {}).get("slow_warning"):
        found.append("steps slower than its own trial (a slow node)")
    return found


def asked(r, setting, value, reason):
    """A setting as the run was asked for it: the report's `asked` (since
    2026-11-27), else `auto` where its reason says the run chose. Auto
    may choose differently at another rank count, and the runs are still
    one study."""
    if isinstance(r.get("asked"), dict) and setting in r["asked"]:
        return str(r["asked"][setting])
    return "auto" if str(reason or "").startswith("auto") else str(value)


def launch_asked(r):
    """The launch settings a run was asked for (the report's `asked`, since
    2026-12-06: graphs, steps a graph, the update's body, the shape, the
    x slabs), as one value; "auto" for reports that do not say."""
    a = r.get("asked") if isinstance(r.get("asked"), dict) else {}
    keys = ("graphs", "steps_per_graph", "update", "shape", "slab_x")
    forced = {k: a[k] for k in keys if k in a}
    text = json.dumps(forced, sort_keys=True)
    return "auto" if all(v == "auto" or (isinstance(v, dict) and set(v.values()) == {"auto"})
                         for v in forced.values()) else text


def number(value):
    """A number to 6 significant digits, 10 and 10.0 alike: the same physics
    whichever report format wrote it (older ones printed fewer digits)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "%.6g" % value
    return value


def shown(value):
    return "-" if value is None else str(value)


# The key after the label, the box and R, in the order series names list
# what differs: (name in a series' name, the value of report r).
KEY_PARTS = (
    ("precision", lambda r: r.get("precision", "fp32")),  # reports before --precision were fp32
    ("periodic", lambda r: r.get("periodic") or "none"),
    ("halo depth", lambda r: asked(r, "halo_depth", r.get("halo_depth", 1), r.get("halo_depth_reason"))),
    ("comm", lambda r: asked(r, "comm", r["comm"], r.get("comm_reason"))),
    ("overlap", lambda r: asked(r, "overlap", "on" if r["overlap"] else "off", r.get("overlap_reason"))),
    ("pack", lambda r: asked(r, "pack", r.get("halo_pack", "-"), r.get("pack_reason"))),
    ("model", lambda r: r.get("model", "constant")),
    ("device", lambda r: "%s %s" % (r.get("backend", "?"), " + ".join(sorted(set(r.get("devices") or ["?"]))))),
    ("sponge", lambda r: shown(r.get("sponge"))),
    ("spacing", lambda r: shown(number(r.get("spacing_m")))),
    ("dt", lambda r: shown(number(r.get("dt_s")))),
    ("f0", lambda r: shown(number(r.get("f0_hz")))),
    ("OpenMP threads", lambda r: shown(r.get("omp_threads_per_rank"))),
    ("subnormals", lambda r: shown(r.get("subnormals"))),
    ("tuning", lambda r: shown(r.get("tuning_mode"))),
    ("revision", lambda r: shown(r.get("revision"))),
    ("version", lambda r: shown(r.get("version"))),
    ("timeline", lambda r: "recorded" if r.get("timeline") else "none"),
    ("launch", lambda r: launch_asked(r)),
)
EXCHANGE = ("halo depth", "comm", "overlap", "pack")  # what an old one-rank report cannot say
# What every part of a calibration (sweep/, host/, scaling/, shell/) must
# share: one kernel, on one device, doing the same arithmetic. The parts
# differ by design in their label, box, edges and exchange; and in their
# revision and launch shapes' source, which project.py says instead.
CALIBRATION_SAME = ("R", "precision", "device", "model", "sponge", "spacing", "OpenMP threads", "subnormals")


def unknown_fields(r, prog):
    """The report's fields RULES does not know, each named once on stderr."""
    unknown = sorted(k for k in r if k not in RULES and not k.startswith("_"))
    for name in unknown:
        if name not in _named:
            _named.add(name)
            print(f"{prog}: {r.get('_path', 'a report')}: field {name!r} has no rule in "
                  "jobscripts/report_rules.py: runs that differ in it are kept apart", file=sys.stderr)
    return unknown


def known_parts(r):
    """(name, value) of run `r` for each of KEY_PARTS."""
    return [(name, value(r)) for name, value in KEY_PARTS]


def calibration_parts(r):
    """The values of CALIBRATION_SAME for run `r`."""
    values = dict(known_parts(r), R=r["radius"])
    return {name: values[name] for name in CALIBRATION_SAME}


def key_parts(r, prog):
    """(name, value) of everything that makes run `r` what it is, beyond
    the label, the box and R; unknown fields last, by their JSON."""
    parts = known_parts(r)
    parts += [(name, json.dumps(r[name], sort_keys=True)) for name in unknown_fields(r, prog)]
    return tuple(parts)
