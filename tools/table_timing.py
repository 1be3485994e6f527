"""The tables of tools/gpu.sh timing, from the reports it leaves (named by
their labels):

  agreement  agree-CASE-STEPS-rROUND: per case and round, the step at 200
             and at 2,000 timed steps and how far apart (target: 2%);
             before-CASE-200-rROUND, if there, the baseline tree's 200 steps
  matrix     matrix-PROBLEM-nRANKS-COMM-VARIANT: per case, what auto chose
             and its step against the best forced variant (target: 3%)

usage: report-table.py timing REPORTS_DIR [--markdown]
The step is the report's slowest rank's mean step (phases_ms.step.max).
"""
import glob
import os
import re

from text_table import print_table
from tool_errors import ToolError, load_json

AGREE = re.compile(r"^(agree|before)-(.+)-(\d+)-r(\d+)$")
MATRIX = re.compile(r"^matrix-(.+)-n(\d+)-(gpu-aware|nccl)-(.+)$")


def step_of(doc, path):
    try:
        return float(doc["phases_ms"]["step"]["max"])
    except (KeyError, TypeError, ValueError):
        raise ToolError(f"{path}: not a stencil-miniapp report (no phases_ms.step.max)") from None


def load(folder):
    if not os.path.isdir(folder):
        raise ToolError(f"{folder}: not a folder")
    reports = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        doc = load_json(path)
        if not isinstance(doc, dict) or doc.get("program") != "stencil-miniapp":
            continue
        if doc.get("check", {}).get("bitwise_equal") is False:
            continue
        label = doc.get("label", "")
        agrees_with_label(doc, label, path)
        reports[label] = (doc, step_of(doc, path))
    return reports


def agrees_with_label(doc, label, path):
    """The label names the steps, GPUs and comm that the table prints; a
    report that ran otherwise (a label reused by hand) is refused, naming
    the field, rather than printed under the label's numbers."""
    m, n = AGREE.match(label), MATRIX.match(label)
    said = {"steps": int(m.group(3))} if m else {"ranks": int(n.group(2)), "comm": n.group(3)} if n else {}
    for field, value in said.items():
        if doc.get(field) != value:
            raise ToolError(f"{path}: labelled {label}, but its {field} is {doc.get(field)}, not {value}")


def agreement(reports, markdown):
    cases = {}
    for label, (doc, step) in reports.items():
        m = AGREE.match(label)
        if m:
            tree, case, steps, rnd = m.groups()
            cases.setdefault(case, {}).setdefault(int(rnd), {})[(tree, int(steps))] = step
    if not cases:
        return False
    rows, worst, within, total = [], 0.0, 0, 0
    for case in sorted(cases):
        for rnd in sorted(cases[case]):
            r = cases[case][rnd]
            short, long_ = r.get(("agree", 200)), r.get(("agree", 2000))
            before = r.get(("before", 200))
            apart = short / long_ - 1 if short and long_ else None
            if apart is not None:
                total += 1
                within += abs(apart) <= 0.02
                worst = max(worst, abs(apart))
            rows.append([case, str(rnd), f"{short:.4f}" if short else "-", f"{long_:.4f}" if long_ else "-",
                         f"{100 * apart:+.1f}%" if apart is not None else "-",
                         f"{before:.4f}" if before else "-",
                         f"{100 * (before / long_ - 1):+.1f}%" if before and long_ else "-"])
    print("\nagreement: ms per step (slowest rank), 200 against 2,000 timed steps")
    print_table(["case", "round", "200 steps", "2000 steps", "apart", "before: 200", "before apart"], rows,
                markdown)
    print(f"within 2%: {within} of {total}; the largest gap {100 * worst:.1f}%")
    return True


def matrix(reports, markdown):
    cases = {}
    for label, (doc, step) in reports.items():
        m = MATRIX.match(label)
        if m:
            problem, ranks, comm, variant = m.groups()
            cases.setdefault((problem, int(ranks), comm), {})[variant] = (doc, step)
    if not cases:
        return False
    rows, within, total = [], 0, 0
    for key in sorted(cases):
        variants = cases[key]
        forced = {v: s for v, (_, s) in variants.items() if v != "auto"}
        if "auto" not in variants or not forced:
            continue
        doc, auto = variants["auto"]
        best = min(forced, key=forced.get)
        apart = auto / forced[best] - 1
        total += 1
        within += apart <= 0.03
        chose = "on" if doc.get("overlap") else "off"
        chose += f" k{doc.get('halo_depth', 1)}" + (" fused" if doc.get("fused_pack") else "")
        rows.append([key[0], str(key[1]), key[2], f"{auto:.4f}", chose, f"{forced[best]:.4f}", best,
                     f"{100 * apart:+.1f}%", " ".join(f"{v}={s:.4f}" for v, s in sorted(forced.items()))])
    print("\nauto against the best forced choice: ms per step (slowest rank)")
    print_table(["problem", "GPUs", "comm", "auto", "auto chose", "best", "best is", "auto over best", "forced"],
                rows, markdown)
    print(f"auto within 3% of the best: {within} of {total}")
    return True


def main(argv):
    args = [a for a in argv if a != "--markdown"]
    if len(args) != 1:
        raise ToolError("usage: report-table.py timing REPORTS_DIR [--markdown]")
    reports = load(args[0])
    markdown = "--markdown" in argv
    printed = agreement(reports, markdown)
    printed = matrix(reports, markdown) or printed
    if not printed:
        raise ToolError(f"{args[0]}: no report labelled agree-*, before-* or matrix-* "
                        "(tools/gpu.sh timing's): nothing to tabulate")
    return 0

