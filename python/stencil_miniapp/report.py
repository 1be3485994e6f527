"""read_report: the JSON report of a run (--report FILE.json)."""
from ._files import load_json


def read_report(path):
    """The report as a dict, checked to be the mini-app's. Its keys are the
    ones docs/RUNNING.md describes: context (version, revision, grid,
    ranks, comm), the per-phase table (phases_ms), the FOM
    (gcells_per_s_total), the timed window, the outputs' write times."""
    report = load_json(path)
    if not isinstance(report, dict) or report.get("program") != "stencil-miniapp":
        raise ValueError(f"{path}: not a stencil-miniapp report")
    return report
