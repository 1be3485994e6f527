#!/usr/bin/env python3
"""docs/data/README.md still indexes docs/data: every experiment folder has
a README and one row in the index's table, every row names a folder that
exists, and the rows are in the folders' order, so that a new folder's row
has one place to go. One line per failure, `README.md:LINE: ...` or
`FOLDER/: ...`; exit 1 if any, 0 if none, 2 on bad input.

usage: check-data-index.py [DATA_DIR]   (default: docs/data of this repository)
"""
import os
import re
import sys

ROW = re.compile(r"^\| \[`([^`/]+)/`\]\(([^)]+)\) \|")


def problems(data_dir):
    index = os.path.join(data_dir, "README.md")
    with open(index, encoding="utf-8") as f:
        lines = f.read().split("\n")
    folders = sorted(d for d in os.listdir(data_dir) if os.path.isdir(os.path.join(data_dir, d)))
    rows = []  # (line number, folder)
    found = []
    for number, line in enumerate(lines, 1):
        m = ROW.match(line)
        if not m:
            continue
        name, link = m.groups()
        rows.append((number, name))
        if link != f"{name}/README.md":
            found.append(f"README.md:{number}: the row of {name}/ links to {link}, not {name}/README.md")
        if name not in folders:
            found.append(f"README.md:{number}: {name}/ is not a folder of {data_dir}")
    seen = {}
    for number, name in rows:
        if name in seen:
            found.append(f"README.md:{number}: {name}/ has a row already, at line {seen[name]}")
        seen.setdefault(name, number)
    for name in folders:
        if name not in seen:
            found.append(f"{name}/: no row in README.md's table")
        if not os.path.isfile(os.path.join(data_dir, name, "README.md")):
            found.append(f"{name}/: no README.md")
    for (_, before), (number, name) in zip(rows, rows[1:]):
        if name < before:
            found.append(f"README.md:{number}: {name}/ comes after {before}/; the rows go in the folders' order")
    return found


def main():
    args = sys.argv[1:]
    if len(args) > 1 or (args and args[0].startswith("-")):
        print(__doc__.strip().split("\n\n")[-1], file=sys.stderr)
        return 2
    data_dir = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "data")
    if not os.path.isfile(os.path.join(data_dir, "README.md")):
        print(f"check-data-index: {data_dir} has no README.md", file=sys.stderr)
        return 2
    found = problems(data_dir)
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
