#!/usr/bin/env python3
"""docs/data/README.md still indexes docs/data: every experiment folder has
a README and one row in the index's table, every row names a folder that
exists, and the rows are in the folders' order, so that a new folder's row
has one place to go. And every call script kept there (`*.sh`, at any
depth) runs through the one GPU-node driver, sourcing tools/gpu/common.sh
or calling tools/gpu.sh, or is marked as a record of a run with its own
preamble, on the line under its shebang:
    # Record: ran on YYYY-MM-DD as it stands; new call scripts source tools/gpu/common.sh.
the date a real one, not before the date in its folder's name. A script
that sources tools/offline-deps.sh itself has its own preamble even if it
also calls the driver, so it must be such a record. One line per failure,
`README.md:LINE: ...`, `FOLDER/: ...` or `FOLDER/NAME.sh[:LINE]: ...`;
exit 1 if any, 0 if none, 2 on bad input.

usage: check-data-index.py [DATA_DIR]   (default: docs/data of this repository)
"""
import datetime
import os
import re
import sys

ROW = re.compile(r"^\| \[`([^`/]+)/`\]\(([^)]+)\) \|")
# A script's record line: the words are fixed so that a grep finds every
# record, and the date says which run the script is the record of.
RECORD = re.compile(r"^# Record: ran on (\S+) as it stands; new call scripts source tools/gpu/common\.sh\.$")
RECORD_FORM = "# Record: ran on YYYY-MM-DD as it stands; new call scripts source tools/gpu/common.sh."
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
# Where a shell command starts: a line's start or after ; & | ( then do else,
# past variable assignments (`OUT=$work tools/gpu.sh ...`) and a runner.
COMMAND = r"(?:^|[;&|(]|\bthen\b|\bdo\b|\belse\b)\s*(?:[A-Za-z_]\w*=\S*\s+)*(?:(?:bash|exec|time)\s+)?"
SOURCES = r"(?:source|\.)\s+"
END = r"""(?=["'\s;&|)]|$)"""
DRIVER = re.compile(rf"""{COMMAND}(?:{SOURCES})?["']?(?:\S*/)?tools/(?:gpu\.sh|gpu/common\.sh){END}""")
OWN_PREAMBLE = re.compile(rf"""{COMMAND}{SOURCES}["']?(?:\S*/)?tools/offline-deps\.sh{END}""")


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


def record_problems(shown, number, date, folder):
    """Why a record line's date does not hold, or []: it must be a real
    date, and the run cannot come before the folder that keeps it."""
    try:
        ran = datetime.date.fromisoformat(date)
    except ValueError:
        return [f"{shown}:{number}: the record's date {date} is not a date (YYYY-MM-DD)"]
    named = DATE.search(folder)
    if named and date < named.group(0):
        return [f"{shown}:{number}: the record says it ran on {ran}, before its folder's date {named.group(0)}"]
    return []


def script_problem(data_dir, path):
    """Why one call script under docs/data is neither driven nor a record."""
    shown = os.path.relpath(path, data_dir)
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    record_line = 2 if lines[0].startswith("#!") else 1
    for number, line in enumerate(lines, 1):
        m = RECORD.match(line)
        if m and number != record_line:
            where = "under the shebang" if record_line == 2 else "the first"
            return [f"{shown}:{number}: the record line goes on line {record_line}, {where}"]
        if m:
            return record_problems(shown, number, m.group(1), shown.split(os.sep)[0])
    code = [line for line in lines if not line.lstrip().startswith("#")]
    mark = f"or mark a record on line {record_line}: '{RECORD_FORM}'"
    if any(OWN_PREAMBLE.search(line) for line in code):
        return [f"{shown}: sources tools/offline-deps.sh itself (a preamble of its own);"
                f" source tools/gpu/common.sh, {mark}"]
    if not any(DRIVER.search(line) for line in code):
        return [f"{shown}: neither sources tools/gpu/common.sh nor calls tools/gpu.sh; use the driver, {mark}"]
    return []


def script_problems(data_dir):
    """The call scripts' problems, every `*.sh` under `data_dir` in path order."""
    paths = sorted(os.path.join(top, name) for top, _, files in os.walk(data_dir)
                   for name in files if name.endswith(".sh"))
    return [why for path in paths for why in script_problem(data_dir, path)]


def main():
    args = sys.argv[1:]
    if len(args) > 1 or (args and args[0].startswith("-")):
        print(__doc__.strip().split("\n\n")[-1], file=sys.stderr)
        return 2
    data_dir = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "data")
    if not os.path.isfile(os.path.join(data_dir, "README.md")):
        print(f"check-data-index: {data_dir} has no README.md", file=sys.stderr)
        return 2
    found = problems(data_dir) + script_problems(data_dir)
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
