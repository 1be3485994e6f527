"""project.py's answers as text: a Markdown table for a reader and CSV
rows for a data file (docs/scaling/projections/), written from the same
numbers so that the two cannot disagree."""
import csv

PROJECTION_FIELDS = ("machine", "nodes", "gpus", "procs", "local_box", "halo_depth", "overlap",
                     "largest_face_mib", "interior_ms", "exchange_ms", "hidden", "step_ms", "efficiency")
VALIDATION_FIELDS = ("machine", "report", "gpus", "procs", "grid", "overlap", "halo_depth",
                     "measured_ms", "projected_ms", "error", "role")


def projection_table(rows, study, best=False):
    deep = best or any(r["depth"] != 1 for r in rows)
    auto = any("chosen" in r for r in rows)
    head = ("| nodes | GPUs | procs | local box | " + ("halo depth | " if deep else "") +
            ("overlap | " if auto else "") + "largest face MiB | interior ms | exchange ms | hidden | "
            "step ms | " + ("weak eff." if study == "weak" else "strong eff.") + " |")
    out = [head, "|" + "---|" * (10 + deep + auto)]
    for r in rows:
        out.append(f"| {r['nodes']} | {r['ranks']} | {'x'.join(map(str, r['procs']))} | "
                   f"{'x'.join(map(str, r['local']))} | " + (f"{r['depth']} | " if deep else "") +
                   (f"{r['chosen']} | " if auto else "") +
                   f"{r['face_mib']:.2f} | {r['interior_ms']:.3f} | "
                   f"{r['exchange_ms']:.3f} | {'yes' if r['hidden'] else 'no'} | {r['step_ms']:.3f} | "
                   f"{100 * r['efficiency']:.1f}% |")
    return "\n".join(out)


def projection_records(machine, rows, overlap):
    """One CSV record per row of projection_table, at the table's precision."""
    return [{"machine": machine, "nodes": r["nodes"], "gpus": r["ranks"], "procs": "x".join(map(str, r["procs"])),
             "local_box": "x".join(map(str, r["local"])), "halo_depth": r["depth"],
             "overlap": r.get("chosen", overlap), "largest_face_mib": f"{r['face_mib']:.2f}",
             "interior_ms": f"{r['interior_ms']:.3f}", "exchange_ms": f"{r['exchange_ms']:.3f}",
             "hidden": "yes" if r["hidden"] else "no", "step_ms": f"{r['step_ms']:.3f}",
             "efficiency": f"{r['efficiency']:.3f}"} for r in rows]


def validation_table(rows):
    """rows: (report, GPUs, procs, grid, overlap, depth, measured, projected, error, role), sorted."""
    out = ["| report | GPUs | procs | grid | overlap | halo depth | measured ms (slowest rank) | "
           "projected ms | error | role |",
           "|" + "---|" * 10]
    for name, ranks, procs, grid, ov, k, m, p, e, role in rows:
        out.append(f"| {name} | {ranks} | {procs} | {grid} | {ov} | {k} | {m:.4f} | {p:.4f} | {100 * e:+.1f}% | "
                   f"{role} |")
    return out


def validation_records(machine, rows):
    return [dict(zip(VALIDATION_FIELDS, (machine, name, ranks, procs, grid, ov, k, f"{m:.4f}", f"{p:.4f}",
                                         f"{100 * e:+.1f}%", role)))
            for name, ranks, procs, grid, ov, k, m, p, e, role in rows]


def write_csv(path, records, validation):
    with open(path, "w", newline="") as f:
        out = csv.DictWriter(f, fieldnames=VALIDATION_FIELDS if validation else PROJECTION_FIELDS,
                             lineterminator="\n")
        out.writeheader()
        out.writerows(records)
