"""What verify-output.py reads of how a run ended and what made its fields:
the folder's record (stencil-miniapp.run.json: the latest run's state, the
files it wrote, the provenance of the field the folder holds) and the
provenance every sidecar and checkpoint.json carries (io/provenance.hpp).
A field is judged by all of them: a deleted record does not make a
--comm none folder's snapshots the one-domain answer."""
import json
import os
import re

MANIFEST = "stencil-miniapp.run.json"
CHECKS = ("none", "pending", "passed", "failed")
INHERITED = re.compile(r"^(up to step \d+: )+")


class Provenances:
    """The provenance of every file of a folder that holds a field: the
    reasons its fields are not the one-domain answer (each once, the
    record's first: an inherited reason is said as "up to step N: ..."
    once), the test aids, the files whose field failed a check, and the
    files that say nothing (an older version's)."""

    def __init__(self):
        self.reasons, self.aids, self.failed, self.unsaid = {}, [], [], []

    def add(self, name, doc, problems):
        """The provenance in `doc`, the JSON of the file `name`; a mangled
        one is a problem."""
        p = doc.get("provenance") if isinstance(doc, dict) else None
        if p is None:
            self.unsaid.append(name)
            return None
        reasons = p.get("not_one_domain_because") if isinstance(p, dict) else None
        aids = p.get("test_aids", []) if isinstance(p, dict) else None
        if (not isinstance(reasons, list) or not isinstance(aids, list) or p.get("check") not in CHECKS
                or p.get("one_domain_answer") is not (not reasons)):
            problems.append(f"{name}: its provenance is not this program's (changed by hand?)")
            return None
        for reason in map(str, reasons):
            self.reasons.setdefault(INHERITED.sub("", reason), reason)
        self.aids += [str(a) for a in aids if str(a) not in self.aids]
        return p

    def failed_check(self, name, p):
        """A file other than the record whose field failed a check."""
        if p and p.get("check") == "failed":
            self.failed.append(name)

    def problems(self):
        """One line for the files whose fields failed a check."""
        if not self.failed:
            return []
        more = f" and {len(self.failed) - 1} more files" if len(self.failed) > 1 else ""
        return [f"{self.failed[0]}{more}: the field failed a check ({'; '.join(self.reasons.values())}): "
                "a wrong field"]

    def note(self):
        """Why the folder's fields are not the one-domain answer, or ""."""
        reasons = list(self.reasons.values())
        if self.unsaid:
            reasons.append(f"{self.unsaid[0]}" + (f" and {len(self.unsaid) - 1} more files" if len(self.unsaid) > 1
                                                  else "") + " do not say what made their fields (an older version's)")
        if not reasons:
            return ""
        note = "its fields are not the one-domain answer: " + "; ".join(reasons)
        return note + (" (test aids: " + ", ".join(self.aids) + ")" if self.aids else "")


def ending(record, names, problems, unfinished):
    """How the record says the folder's latest run ended: a line in
    problems (a failed check, the latest run's own or inherited) or in
    unfinished (stopped, failed, killed, a check never given)."""
    state, step = record["state"], record["step"]
    p = record.get("provenance") if isinstance(record.get("provenance"), dict) else {}
    check, why = p.get("check"), "; ".join(str(r) for r in p.get("not_one_domain_because") or [])
    if check == "failed" and state == "complete":
        problems.append(f"{MANIFEST}: the field continues one that failed a check ({why}), and the run that "
                        f"ended after step {step} did not check it again: its files hold a wrong field (a restart "
                        "whose --check passes settles it)")
    elif check == "failed":
        problems.append(f"{MANIFEST}: the run failed its checks after step {step} ({why}): "
                        "its files hold a wrong field")
    elif state == "stopped" and "stop_checkpoint" in record and not record["stop_checkpoint"]:
        unfinished.append(f"{MANIFEST}: the run was stopped by a signal after step {step} without "
                          "a checkpoint (--checkpoint-every was 0), so it cannot be resumed; run "
                          "it again into another folder, or with --output-force")
    elif state == "stopped":
        unfinished.append(f"{MANIFEST}: the run was stopped by a signal after step {step}; "
                          "resume it with --restart latest")
    elif state == "complete" and check == "pending":
        unfinished.append(f"{MANIFEST}: the run ended its steps, and its --check never gave its "
                          "verdict (killed during it?)")
    elif state == "failed":
        unfinished.append(f"{MANIFEST}: the run failed after step {step} (its last line on "
                          "stderr said why); what it wrote before is intact")
    elif state == "running" and "stencil-miniapp.lock" not in names:
        unfinished.append(f"{MANIFEST}: the run never ended (killed after step {step}?)")
    elif state not in ("running", "complete"):
        problems.append(f"{MANIFEST}: an unknown state {state!r}")


def verify_manifest(folder, names, problems, unfinished, provenances):
    """The folder's record of its latest run: how it ended, what made its
    field, and that every file it lists is there. Returns the names it
    lists. A folder of the run's files without it is incomplete: whether
    its run finished, and every file it wrote, cannot be known."""
    if MANIFEST not in names:
        if any(not n.startswith("step_") for n in names):  # not a --checkpoint-dir
            unfinished.append(f"{MANIFEST}: not here (deleted, or a run from before it was written): "
                              "whether the run finished, and every file it wrote, cannot be known")
        return set()
    try:
        with open(os.path.join(folder, MANIFEST)) as f:
            record = json.load(f)
        state, step, files = record["state"], record["step"], record["files"]  # noqa: F841
        if record.get("program") != "stencil-miniapp outputs" or not isinstance(files, dict):
            raise ValueError("not the program's record")
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as e:
        problems.append(f"{MANIFEST}: not this program's record of its run ({e})")
        return set()
    before = len(problems)
    if "provenance" in record:  # an older version's record has none
        provenances.add(MANIFEST, record, problems)
    if len(problems) == before:
        ending(record, names, problems, unfinished)
    for name in sorted(files):
        if not os.path.isfile(os.path.join(folder, name)):
            problems.append(f"{name}: missing (the run's record lists it)")
    return set(files)
