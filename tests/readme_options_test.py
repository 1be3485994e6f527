#!/usr/bin/env python3
"""README's option table and the mini-app's --help name the same options;
with a launcher, README's sample report has the lines a run prints.

usage: readme_options_test.py APP README.md [LAUNCHER...]

With LAUNCHER (e.g. mpiexec -n 4), the default problem runs as README's
"Two commands" shows it, and each line of README's sample report must
match the run's line with every number (and the device name) masked: a
field added, renamed or dropped in the report fails until README follows.

The option table is the one under "## Running it yourself"; an option counts
when it stands in backticks in a row's first cell. --help lists an option
where a line starts with two spaces and its name.
"""
import re
import subprocess
import sys

OPTION = re.compile(r"--[a-z][a-z0-9-]*")


def readme_options(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start = text.index("## Running it yourself")
    end = text.index("\n## ", start + 1)
    found = set()
    for line in text[start:end].splitlines():
        if not line.startswith("| `--"):
            continue
        first_cell = re.split(r"(?<!\\)\|", line)[1]
        for code in re.findall(r"`([^`]*)`", first_cell):
            found.update(OPTION.findall(code.split()[0]))
    return found


def help_options(app):
    text = subprocess.run([app, "--help"], check=True, capture_output=True, text=True).stdout
    return {m.group(1) for m in re.finditer(r"^  (--[a-z][a-z0-9-]*)", text, re.M)}


NUMBER = re.compile(r"[-+]?\d+(\.\d+)?(e[-+]?\d+)?")


def template(line):
    """The line with every number masked and runs of spaces as one: a phase
    of 10 ms or more (a loaded machine) widens its column."""
    line = re.sub(r"device .*$", "device #", line)
    return re.sub(r" +", " ", NUMBER.sub("#", line.rstrip()))


def sample_report(path):
    """README's sample report: the code block from "stencil-miniapp:" to "checksum:"."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start = text.index("\nstencil-miniapp: ")
    end = text.index("\n```", start)
    return text[start + 1:end].splitlines()


def report_matches(app, readme, launcher):
    run = subprocess.run(launcher + [app, "--checksum"], capture_output=True, text=True)
    if run.returncode != 0:
        print("the default problem failed:\n" + run.stdout + run.stderr)
        return False
    printed = [line for line in run.stdout.splitlines() if line.strip()]
    start = next((n for n, line in enumerate(printed) if line.startswith("stencil-miniapp: ")), None)
    if start is None:
        print("the run printed no report")
        return False
    printed = printed[start:]
    sample = [line for line in sample_report(readme) if line.strip()]
    ok = len(sample) == len(printed)
    for n, (mine, theirs) in enumerate(zip(sample, printed)):
        if template(mine) != template(theirs):
            print("README's sample report, line %d:\n  README: %s\n  run:    %s" % (n + 1, mine, theirs))
            ok = False
    if len(sample) != len(printed):
        print("README's sample report has %d lines, the run printed %d" % (len(sample), len(printed)))
    if ok:
        print("README's sample report has the %d lines a run prints" % len(printed))
    return ok


def main():
    if len(sys.argv) < 3:
        print("usage: readme_options_test.py APP README.md [LAUNCHER...]", file=sys.stderr)
        return 2
    in_help, in_readme = help_options(sys.argv[1]), readme_options(sys.argv[2])
    ok = True
    if len(sys.argv) > 3:
        ok = report_matches(sys.argv[1], sys.argv[2], sys.argv[3:])
    for name in sorted(in_help - in_readme):
        print("in --help but not in README's option table: " + name)
        ok = False
    for name in sorted(in_readme - in_help):
        print("in README's option table but not in --help: " + name)
        ok = False
    if not in_help:
        print("--help lists no options")
        ok = False
    if ok:
        print("README and --help agree on %d options" % len(in_help))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
