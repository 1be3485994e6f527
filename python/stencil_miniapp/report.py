"""read_report: the JSON report of a run (--report FILE.json)."""
import json


def read_report(path):
    """The report as a dict, checked to be the mini-app's. Its keys are the
    ones docs/RUNNING.md describes: context (version, revision, grid,
    ranks, comm), the per-phase table (phases_ms), the FOM
    (gcells_per_s_total), the timed window, the outputs' write times."""
    try:
        with open(path) as f:
            report = json.load(f)
    except OSError as e:
        raise OSError(e.errno, f"{path}: {e.strerror}") from None
    except ValueError as e:
        raise ValueError(f"{path}: not valid JSON ({e})") from None
    if not isinstance(report, dict) or report.get("program") != "stencil-miniapp":
        raise ValueError(f"{path}: not a stencil-miniapp report")
    return report
