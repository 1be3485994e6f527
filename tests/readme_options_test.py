#!/usr/bin/env python3
"""README's option table and the mini-app's --help name the same options.

usage: readme_options_test.py APP README.md

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


def main():
    if len(sys.argv) != 3:
        print("usage: readme_options_test.py APP README.md", file=sys.stderr)
        return 2
    in_help, in_readme = help_options(sys.argv[1]), readme_options(sys.argv[2])
    ok = True
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
